import Sim

/// Replaces every letter and digit of a text by another of the same class and script, the
/// same way every time for the same seed, so that an anonymised trace keeps word lengths,
/// spaces, punctuation, sentence ends, emoji and the shape of its edits but not its words.
///
/// Each class of characters is shuffled by a permutation drawn from the seed:
/// - Latin letters a–z, with capitals following their small letter (if `a` becomes `q`,
///   `A` becomes `Q`);
/// - Russian letters а–я and ё, capitals likewise;
/// - digits 0–9;
/// - Hangul syllables, those without a final consonant among themselves and those with one
///   among themselves;
/// - any other letter or decimal digit: the scalars of the same Unicode general category
///   (upper case, lower case, other letter, decimal digit…) within the same aligned block
///   of 128 code points, which keeps a Greek letter Greek and a CJK ideograph CJK. These
///   classes follow the standard library's Unicode tables.
///
/// Everything else stays: white space, punctuation, symbols, combining marks (so a letter
/// with a combining accent keeps its accent) and every grapheme cluster that is an emoji
/// (keycaps such as 1️⃣ included). The mapping is a bijection within each class: distinct
/// words stay distinct. Anyone who knows the seed can undo it: keep the seed secret.
public struct TextAnonymizer: Sendable {
    /// The seed the permutations come from.
    public let seed: UInt64
    private let latin: [Int]
    private let russian: [Int]
    private let digits: [Int]
    /// Permutations of the other classes, built when first needed (looked up, never
    /// iterated, so their order cannot reach any output).
    private var generic: [ClassKey: [UInt32: UInt32]] = [:]

    private static let russianLower: [UInt32] = Array(0x430...0x44F) + [0x451]
    private static let russianUpper: [UInt32] = Array(0x410...0x42F) + [0x401]

    /// Creates the anonymizer for `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        latin = Self.permutation(count: 26, seed: seed, name: "latin")
        russian = Self.permutation(count: 33, seed: seed, name: "russian")
        digits = Self.permutation(count: 10, seed: seed, name: "digits")
    }

    /// The text with every letter and digit replaced.
    public mutating func anonymize(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for character in text {
            if Self.isEmoji(character) {
                result.append(contentsOf: character.unicodeScalars)
                continue
            }
            for scalar in character.unicodeScalars { result.append(anonymize(scalar)) }
        }
        return String(result)
    }

    /// The replacement of one scalar (itself when it is neither a letter nor a digit).
    public mutating func anonymize(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let v = scalar.value
        switch v {
        case 0x61...0x7A: return Unicode.Scalar(0x61 + UInt32(latin[Int(v - 0x61)]))!
        case 0x41...0x5A: return Unicode.Scalar(0x41 + UInt32(latin[Int(v - 0x41)]))!
        case 0x30...0x39: return Unicode.Scalar(0x30 + UInt32(digits[Int(v - 0x30)]))!
        case 0x430...0x44F, 0x451:
            let index = v == 0x451 ? 32 : Int(v - 0x430)
            return Unicode.Scalar(Self.russianLower[russian[index]])!
        case 0x410...0x42F, 0x401:
            let index = v == 0x401 ? 32 : Int(v - 0x410)
            return Unicode.Scalar(Self.russianUpper[russian[index]])!
        case 0x00...0x7F:
            return scalar
        default:
            guard let key = Self.classKey(of: scalar) else { return scalar }
            if generic[key] == nil {
                let members = key.members()
                let order = Self.permutation(count: members.count, seed: seed, name: key.name)
                var table: [UInt32: UInt32] = [:]
                table.reserveCapacity(members.count)
                for (index, member) in members.enumerated() { table[member] = members[order[index]] }
                generic[key] = table
            }
            return generic[key]![v].flatMap(Unicode.Scalar.init) ?? scalar
        }
    }

    /// Whether a grapheme cluster is (or contains) an emoji: kept whole.
    static func isEmoji(_ character: Character) -> Bool {
        // No ASCII scalar has Emoji_Presentation: the table is looked up only past ASCII.
        character.unicodeScalars.contains { scalar in
            (!scalar.isASCII && scalar.properties.isEmojiPresentation) || scalar.value == 0xFE0F || scalar.value == 0x20E3
                || scalar.value == 0x200D || (0x1F3FB...0x1F3FF).contains(scalar.value)
        }
    }

    /// A class of interchangeable scalars other than the fixed tables: a Hangul kind, or a
    /// general category within an aligned block of 128 code points. Cheap to make and to
    /// hash, so that callers can keep what they build for a class by its key.
    struct ClassKey: Hashable {
        /// The Hangul kind (with or without a final consonant), or `nil` for a block.
        var hangulOpen: Bool?
        /// The block number (code point / 128).
        var block: UInt32
        /// The general category shared by the members.
        var category: Unicode.GeneralCategory

        /// The class's name, which names its random stream: "hangul-lv", "block7-lowercaseLetter".
        var name: String {
            if let open = hangulOpen { return open ? "hangul-lv" : "hangul-lvt" }
            return "block\(block)-\(category)"
        }

        /// The class's scalars, in code point order.
        func members() -> [UInt32] {
            if let open = hangulOpen { return (UInt32(0xAC00)...0xD7A3).filter { (($0 - 0xAC00) % 28 == 0) == open } }
            return ((block << 7)..<((block + 1) << 7)).filter { value in
                Unicode.Scalar(value).map { $0.properties.generalCategory == category } ?? false
            }
        }
    }

    static func classKey(of scalar: Unicode.Scalar) -> ClassKey? {
        let v = scalar.value
        if (0xAC00...0xD7A3).contains(v) {
            // Syllable index % 28 == 0: no final consonant. The two kinds join a following
            // jamo differently, so each is shuffled only among its own kind.
            return ClassKey(hangulOpen: (v - 0xAC00) % 28 == 0, block: 0, category: .otherLetter)
        }
        let category = scalar.properties.generalCategory
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            return ClassKey(hangulOpen: nil, block: v >> 7, category: category)
        default:
            return nil
        }
    }

    /// A permutation of 0..<count drawn from (seed, name): Fisher–Yates on a named stream.
    static func permutation(count: Int, seed: UInt64, name: String) -> [Int] {
        var random = RandomStream(seed: seed, replication: 0, name: "trace.anonymize/\(name)")
        var order = Array(0..<count)
        if count > 1 {
            for i in stride(from: count - 1, to: 0, by: -1) {
                order.swapAt(i, random.nextInt(below: i + 1))
            }
        }
        return order
    }
}
