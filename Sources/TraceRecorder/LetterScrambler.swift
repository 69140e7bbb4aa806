/// Replaces every letter and digit by another of the same class and script: the very
/// mapping of keysim's `TextAnonymizer` for the same seed (a test holds the two together),
/// rebuilt here because the recorder depends on nothing of keysim.
///
/// Classes: Latin a–z (capitals follow their small letter), Russian а–я and ё (likewise),
/// digits 0–9, Hangul syllables with and without a final consonant, and for any other
/// letter or decimal digit the scalars of its Unicode general category within its aligned
/// block of 128 code points. White space, punctuation, symbols, combining marks and emoji
/// clusters stay as they are.
final class LetterScrambler {
    let seed: UInt64
    private let latin: [Int]
    private let russian: [Int]
    private let digits: [Int]
    /// Tables of the other classes, built on first use and bounded by the number of classes
    /// met (each at most 128 entries, Hangul 11,172).
    private var generic: [String: [UInt32: UInt32]] = [:]

    private static let russianLower: [UInt32] = Array(0x430...0x44F) + [0x451]
    private static let russianUpper: [UInt32] = Array(0x410...0x42F) + [0x401]

    init(seed: UInt64) {
        self.seed = seed
        latin = Self.permutation(count: 26, seed: seed, name: "latin")
        russian = Self.permutation(count: 33, seed: seed, name: "russian")
        digits = Self.permutation(count: 10, seed: seed, name: "digits")
    }

    func scramble(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for character in text {
            if Self.isEmoji(character) {
                result.append(contentsOf: character.unicodeScalars)
                continue
            }
            for scalar in character.unicodeScalars { result.append(scramble(scalar)) }
        }
        return String(result)
    }

    func scramble(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let v = scalar.value
        switch v {
        case 0x61...0x7A: return Unicode.Scalar(0x61 + UInt32(latin[Int(v - 0x61)]))!
        case 0x41...0x5A: return Unicode.Scalar(0x41 + UInt32(latin[Int(v - 0x41)]))!
        case 0x30...0x39: return Unicode.Scalar(0x30 + UInt32(digits[Int(v - 0x30)]))!
        case 0x430...0x44F, 0x451:
            return Unicode.Scalar(Self.russianLower[russian[v == 0x451 ? 32 : Int(v - 0x430)]])!
        case 0x410...0x42F, 0x401:
            return Unicode.Scalar(Self.russianUpper[russian[v == 0x401 ? 32 : Int(v - 0x410)]])!
        case 0x00...0x7F:
            return scalar
        default:
            guard let (name, members) = Self.classOf(scalar) else { return scalar }
            if generic[name] == nil {
                let list = members()
                let order = Self.permutation(count: list.count, seed: seed, name: name)
                var table: [UInt32: UInt32] = [:]
                for (index, member) in list.enumerated() { table[member] = list[order[index]] }
                generic[name] = table
            }
            return generic[name]![v].flatMap(Unicode.Scalar.init) ?? scalar
        }
    }

    static func isEmoji(_ character: Character) -> Bool {
        character.unicodeScalars.contains { scalar in
            scalar.properties.isEmojiPresentation || scalar.value == 0xFE0F || scalar.value == 0x20E3
                || scalar.value == 0x200D || (0x1F3FB...0x1F3FF).contains(scalar.value)
        }
    }

    static func classOf(_ scalar: Unicode.Scalar) -> (String, () -> [UInt32])? {
        let v = scalar.value
        if (0xAC00...0xD7A3).contains(v) {
            let open = (v - 0xAC00) % 28 == 0
            return (open ? "hangul-lv" : "hangul-lvt", {
                (UInt32(0xAC00)...0xD7A3).filter { (($0 - 0xAC00) % 28 == 0) == open }
            })
        }
        let category = scalar.properties.generalCategory
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            let block = v >> 7
            return ("block\(block)-\(category)", {
                ((block << 7)..<((block + 1) << 7)).filter { value in
                    Unicode.Scalar(value).map { $0.properties.generalCategory == category } ?? false
                }
            })
        default:
            return nil
        }
    }

    /// Fisher–Yates over 0..<count with the stream named "trace.anonymize/<name>".
    static func permutation(count: Int, seed: UInt64, name: String) -> [Int] {
        var random = SeededStream(seed: seed, replication: 0, name: "trace.anonymize/\(name)")
        var order = Array(0..<count)
        if count > 1 {
            for i in stride(from: count - 1, to: 0, by: -1) {
                order.swapAt(i, random.nextInt(below: i + 1))
            }
        }
        return order
    }
}

/// keysim's named random streams (xoshiro256** seeded through SplitMix64 from seed,
/// replication and the FNV-1a hash of the name), the parts the scrambler needs.
struct SeededStream {
    private var s0, s1, s2, s3: UInt64

    init(seed: UInt64, replication: Int, name: String) {
        var key = Self.mix(seed)
        key = Self.mix(key ^ UInt64(bitPattern: Int64(replication)))
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        key = Self.mix(key ^ hash)
        var state = key
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            return Self.finalize(state)
        }
        s0 = next(); s1 = next(); s2 = next(); s3 = next()
    }

    static func mix(_ x: UInt64) -> UInt64 { finalize(x &+ 0x9E37_79B9_7F4A_7C15) }

    static func finalize(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func nextUInt64() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let shifted = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= shifted
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// Uniform in 0..<n without bias (Lemire).
    mutating func nextInt(below n: Int) -> Int {
        let bound = UInt64(n)
        var product = nextUInt64().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold { product = nextUInt64().multipliedFullWidth(by: bound) }
        }
        return Int(product.high)
    }
}
