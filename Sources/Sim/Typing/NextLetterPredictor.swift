/// A character n-gram model of the next letter, built from a word list weighted by count
/// (the "dictionary's text"), with every prediction precomputed.
///
/// Each word is spelled with `order − 1` word-start markers before it and one word-end
/// marker after it (both the boundary symbol, code 0); every position contributes the
/// word's count to the counts of its next symbol after each context of length 0 … order − 1.
/// For every context seen, the table keeps the most frequent next symbol (ties to the lower
/// code, that is, the symbol met first) and its probability, count ÷ the context's total.
/// A prediction uses the longest context of the typed word that the table holds, backing
/// off one symbol at a time (the empty context always exists): a plain "stupid backoff"
/// without discounting, so every probability is a count ratio that a test can check exactly.
///
/// Symbols are small integer codes (`symbols[code]`); contexts are packed into a `UInt64`
/// (16 bits a symbol, the length in the top byte), so predicting is one hash lookup per
/// backoff step on an integer key, with no `String` work.
public struct NextLetterPredictor: Sendable, Equatable {
    /// A predicted next symbol.
    public struct Prediction: Sendable, Equatable {
        /// The symbol's code (`NextLetterPredictor.boundary` for the end of the word).
        public var symbol: UInt16
        /// Its probability after the context used.
        public var probability: Double
        /// The length of the context used (after backoff).
        public var contextLength: Int
    }

    /// The code of the word boundary (start and end markers).
    public static let boundary: UInt16 = 0
    /// The orders accepted: 1 (letter frequencies) to 4 (three letters of context).
    public static let orderRange = 1...4

    /// The n-gram order: contexts of up to `order − 1` symbols.
    public let order: Int
    /// The symbol of each code; code 0 is the boundary, shown as a space.
    public let symbols: [Character]
    /// Code of each ASCII byte (upper case folded to lower), 0xFFFF for none.
    private let asciiCodes: [UInt16]
    /// Codes of the other symbols, by lower-cased character.
    private let otherCodes: [Character: UInt16]
    /// The best next symbol after each context seen, by packed context.
    private let table: [UInt64: Prediction]
    /// A digest of the word list and order, for equality.
    public let fingerprint: UInt64

    /// Builds the model of `words` (word, count ≥ 1; lower-cased as given) at `order`.
    /// - Precondition: `order` is in `orderRange`.
    public init(words: [(word: String, count: Int)], order: Int) {
        precondition(Self.orderRange.contains(order), "predictor order out of range")
        self.order = order
        var symbols: [Character] = [" "]
        var codes: [Character: UInt16] = [:]
        var digest = RandomStream.fnv1a64("order \(order)")
        var counts: [UInt64: [UInt16: Int]] = [:]
        var encoded: [UInt16] = []
        for (word, count) in words {
            digest = Self.mix(digest, RandomStream.fnv1a64("\(word)\t\(count)"))
            encoded.removeAll(keepingCapacity: true)
            encoded.append(contentsOf: repeatElement(Self.boundary, count: order - 1))
            for character in word {
                let lower = Character(character.lowercased())
                if let code = codes[lower] {
                    encoded.append(code)
                } else if symbols.count < Int(UInt16.max) {
                    codes[lower] = UInt16(symbols.count)
                    encoded.append(UInt16(symbols.count))
                    symbols.append(lower)
                }
            }
            encoded.append(Self.boundary)
            for position in (order - 1)..<encoded.count {
                let next = encoded[position]
                for length in 0..<order {
                    let key = Self.pack(encoded[(position - length)..<position])
                    counts[key, default: [:]][next, default: 0] += count
                }
            }
        }
        var table: [UInt64: Prediction] = [:]
        for (key, nexts) in counts {
            let total = nexts.values.reduce(0, +)
            let best = nexts.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }!
            table[key] = Prediction(symbol: best.key, probability: Double(best.value) / Double(total),
                                    contextLength: Int(key >> 56))
        }
        self.symbols = symbols
        self.table = table
        self.fingerprint = digest
        otherCodes = codes.filter { $0.key.unicodeScalars.count != 1 || $0.key.unicodeScalars.first!.value >= 128 }
        var ascii = [UInt16](repeating: .max, count: 128)
        for (character, code) in codes where character.unicodeScalars.count == 1 {
            let value = character.unicodeScalars.first!.value
            guard value < 128 else { continue }
            ascii[Int(value)] = code
            if let upper = Character(character.uppercased()).asciiValue, Int(upper) != Int(value) { ascii[Int(upper)] = code }
        }
        asciiCodes = ascii
    }

    /// Models are equal when built from the same words, counts and order.
    public static func == (a: NextLetterPredictor, b: NextLetterPredictor) -> Bool {
        a.order == b.order && a.fingerprint == b.fingerprint && a.symbols == b.symbols
    }

    /// The code of an ASCII byte, either case, or `nil` when the model never saw it.
    @inline(__always) public func code(ascii byte: UInt8) -> UInt16? {
        guard byte < 128 else { return nil }
        let code = asciiCodes[Int(byte)]
        return code == .max ? nil : code
    }

    /// The code of a character, either case, or `nil` when the model never saw it.
    public func code(of character: Character) -> UInt16? {
        if let ascii = character.asciiValue { return code(ascii: ascii) }
        return otherCodes[Character(character.lowercased())]
    }

    /// The most likely next symbol after the word typed so far (`word`'s codes, oldest
    /// first; empty at a word start), with backoff to shorter contexts.
    /// - Complexity: at most `order` integer-keyed lookups.
    public func predict(after word: WordContext) -> Prediction? {
        var length = order - 1
        while length >= 0 {
            if let hit = table[word.key(length: length)] { return hit }
            length -= 1
        }
        return nil
    }

    /// The prediction after `word` (its letters' codes), for tests and tools.
    public func predict(after word: String) -> Prediction? {
        var context = WordContext()
        for character in word {
            if let code = code(of: character) { context.push(code) } else { context.reset() }
        }
        return predict(after: context)
    }

    /// Packs up to three codes and their count into an integer key.
    @inline(__always) static func pack<C: Collection>(_ codes: C) -> UInt64 where C.Element == UInt16 {
        var key = UInt64(codes.count) << 56
        for code in codes { key = (key & ~(0xFFFF_FFFF_FFFF as UInt64)) | ((key << 16) & 0xFFFF_FFFF_FFFF) | UInt64(code) }
        return key
    }

    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 { (a ^ b) &* 0x100_0000_01B3 }
}

/// The letters of the word being typed, as predictor codes: what the next-letter predictor
/// reads. Only the last three letters matter (order 4 at most); older ones are kept as a
/// count so that backspace can tell a word start from a long word.
public struct WordContext: Sendable, Equatable {
    /// The last codes, newest in the low 16 bits.
    private var recent: UInt64 = 0
    /// Letters typed in the current word (the recent ones and older).
    public private(set) var length = 0

    /// A context at a word start.
    public init() {}

    /// Appends a letter.
    @inline(__always) public mutating func push(_ code: UInt16) {
        recent = ((recent << 16) | UInt64(code)) & 0xFFFF_FFFF_FFFF
        length += 1
    }

    /// Removes the last letter (backspace). The letter before the three kept is unknown
    /// after that, so it reads as a word-start marker: a small approximation after
    /// deleting into a long word.
    @inline(__always) public mutating func pop() {
        guard length > 0 else { return }
        recent >>= 16
        length -= 1
    }

    /// Back to a word start.
    @inline(__always) public mutating func reset() {
        recent = 0
        length = 0
    }

    /// The packed key of the last `length` symbols, word-start markers (code 0) standing in
    /// for letters before the word.
    @inline(__always) func key(length count: Int) -> UInt64 {
        guard count > 0 else { return 0 }
        let mask: UInt64 = count >= 3 ? 0xFFFF_FFFF_FFFF : (1 << (16 * UInt64(count))) - 1
        return (UInt64(count) << 56) | (recent & mask)
    }
}
