import Sim

/// One character of a typist's script with what the typist asks of it, looked up once: its
/// Unicode properties (letter, white space, number, upper case), its script (Latin or
/// Cyrillic letter, as `TypingLanguages` asks) and its keys on the two letter layers
/// (`Planner.key(for:letterLayout:)`).
///
/// Those questions cost hundreds of instructions each through `Character`'s properties and
/// the layouts' string search, and a fleet asks them of every character of every session. A
/// character that is one Unicode scalar of ASCII, Latin-1, Latin Extended or Cyrillic is
/// answered from tables built once per process, by the very functions they stand for, so the
/// answers are the same by construction; any other character (emoji, clusters of several
/// scalars, "\r\n") is asked directly.
struct TypedCharacter: Sendable {
    /// The character.
    let character: Character
    /// Its Unicode and script properties.
    let properties: Properties

    /// The properties of a character the typist asks about.
    struct Properties: Sendable, Equatable {
        /// `Character.isLetter`, `isWhitespace`, `isNumber`, `isUppercase`.
        let isLetter: Bool, isWhitespace: Bool, isNumber: Bool, isUppercase: Bool
        /// `TypingLanguages.isLatinLetter` and `isCyrillicLetter`.
        let isLatinLetter: Bool, isCyrillicLetter: Bool

        /// The properties of `c`, asked of the standard library.
        init(of c: Character) {
            isLetter = c.isLetter
            isWhitespace = c.isWhitespace
            isNumber = c.isNumber
            isUppercase = c.isUppercase
            isLatinLetter = TypingLanguages.isLatinLetter(c)
            isCyrillicLetter = TypingLanguages.isCyrillicLetter(c)
        }
    }

    /// A key of `Planner.key(for:letterLayout:)`: the key, whether it is a long press, on the
    /// letter layer, on the symbols layer.
    typealias KeyLookup = (key: KeyboardLayout.Key?, longPress: Bool, letterLayer: Bool, symbols: Bool)

    /// `c` with its properties.
    init(_ c: Character) {
        self.init(c, scalar: Self.singleScalar(of: c))
    }

    /// `c` with its properties, read from a table block already at hand.
    private init(_ c: Character, properties: Properties, tableScalar: Int32, touches: (qwerty: Touch, russian: Touch)) {
        character = c
        self.properties = properties
        self.tableScalar = tableScalar
        self.touches = touches
    }

    /// `c`, which is the one scalar `scalar` when that is not `nil`.
    private init(_ c: Character, scalar: UInt32?) {
        character = c
        if let scalar, let table = Self.table(of: scalar) {
            tableScalar = Int32(scalar)
            properties = table.block.properties[table.offset]
            touches = (table.block.qwertyTouches[table.offset], table.block.russianTouches[table.offset])
        } else {
            tableScalar = -1
            properties = Properties(of: c)
            touches = nil
        }
    }

    /// The characters of `text`, as `Array(text)` splits them. A run of ASCII is split byte
    /// by byte without asking where its clusters end: two scalars below U+0300 always have a
    /// cluster break between them, except CR LF (Unicode's rules GB3–GB5 and GB9–GB9c).
    static func characters(of text: String) -> [TypedCharacter] {
        let ascii = Self.ascii
        let split: [TypedCharacter]? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var characters: [TypedCharacter] = []
            characters.reserveCapacity(bytes.count)
            var offset = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                let next = offset + 1 < bytes.count ? bytes[offset + 1] : 0
                if byte < 0x80 && next < 0x80 && !(byte == 0x0D && next == 0x0A) {
                    characters.append(ascii.typed[Int(byte)])
                    offset += 1
                } else {
                    let c = text[text.utf8.index(text.utf8.startIndex, offsetBy: offset)]
                    characters.append(TypedCharacter(c))
                    offset += c.utf8.count
                }
            }
            return characters
        }
        return split ?? text.map(TypedCharacter.init)
    }

    /// The ASCII character `byte`, built once.
    static func asciiCharacter(_ byte: UInt8) -> Character {
        ascii.characters[Int(byte)]
    }

    /// Where a character's key is touched and whether it is on the letter layer: what typing
    /// it without a slip asks of `key(onRussian:)`, in plain values (no key label to copy).
    struct Touch: Sendable {
        /// The centre of the key, or `nil` when the character is not on the keyboard.
        let center: TouchPoint?
        /// Whether the key is on the letter layer, where slips happen.
        let letterLayer: Bool

        init(_ lookup: KeyLookup) {
            center = lookup.key?.center
            letterLayer = lookup.letterLayer
        }
    }

    /// `Touch` of `key(onRussian:)`.
    func touch(onRussian: Bool) -> Touch {
        guard let touches else { return Touch(key(onRussian: onRussian)) }
        return onRussian ? touches.russian : touches.qwerty
    }

    /// The properties of the ASCII character `byte`.
    static func properties(ofASCII byte: UInt8) -> Properties {
        ascii.properties[Int(byte)]
    }

    /// The key of the character on the Russian letter layer when `onRussian`, else on
    /// QWERTY's, or on the 123 layer, as `Planner.key(for:letterLayout:)` finds it.
    func key(onRussian: Bool) -> KeyLookup {
        guard tableScalar >= 0, let table = Self.table(of: UInt32(tableScalar)) else {
            return Planner.key(for: character, letterLayout: onRussian ? .russian : .qwerty)
        }
        return onRussian ? table.block.russianKeys[table.offset] : table.block.qwertyKeys[table.offset]
    }

    /// The character's one byte when it is ASCII (one scalar below U+0080), else `nil`.
    var asciiByte: UInt8? { tableScalar >= 0 && tableScalar < 0x80 ? UInt8(tableScalar) : nil }

    /// The character's scalar when the tables answer for it, else -1.
    private let tableScalar: Int32
    /// `touch(onRussian:)` on each layer when the tables answer for the character.
    private let touches: (qwerty: Touch, russian: Touch)?

    /// The scalar of `c` when it is one scalar below U+0800, read from its UTF-8 (one byte,
    /// or a two-byte sequence, which is always one scalar), else `nil`.
    private static func singleScalar(of c: Character) -> UInt32? {
        var bytes = c.utf8.makeIterator()
        guard let first = bytes.next() else { return nil }
        if first < 0x80 { return bytes.next() == nil ? UInt32(first) : nil }
        guard first & 0xE0 == 0xC0, let second = bytes.next(), bytes.next() == nil else { return nil }
        return UInt32(first & 0x1F) << 6 | UInt32(second & 0x3F)
    }

    /// The answers for a range of scalars, each asked of the function it stands for.
    final class TableBlock: Sendable {
        let characters: [Character]
        let properties: [Properties]
        let qwertyKeys: [KeyLookup]
        let russianKeys: [KeyLookup]
        let qwertyTouches: [Touch]
        let russianTouches: [Touch]
        /// Each scalar's character with its answers, as `TypedCharacter(_:)` builds it.
        let typed: [TypedCharacter]

        init(_ scalars: Range<UInt32>) {
            // No surrogates below U+0800: every scalar of the range exists.
            characters = scalars.map { Character(Unicode.Scalar($0)!) }
            properties = characters.map(Properties.init(of:))
            qwertyKeys = characters.map { Planner.key(for: $0, letterLayout: .qwerty) }
            russianKeys = characters.map { Planner.key(for: $0, letterLayout: .russian) }
            qwertyTouches = qwertyKeys.map(Touch.init)
            russianTouches = russianKeys.map(Touch.init)
            var typed: [TypedCharacter] = []
            typed.reserveCapacity(characters.count)
            for (offset, scalar) in scalars.enumerated() {
                typed.append(TypedCharacter(characters[offset], properties: properties[offset], tableScalar: Int32(scalar),
                                            touches: (qwertyTouches[offset], russianTouches[offset])))
            }
            self.typed = typed
        }
    }

    /// The blocks, each built on first use (a block of letters other than ASCII costs some
    /// thirty thousand instructions a scalar to build, so a text asks only for its own):
    /// ASCII, Latin-1, Latin Extended-A and -B, Cyrillic and its supplement.
    private static let ascii = TableBlock(0..<0x80)
    private static let latin1 = TableBlock(0x80..<0x100)
    private static let latinExtended = TableBlock(0x100..<0x250)
    private static let cyrillic = TableBlock(0x400..<0x530)

    private static func table(of scalar: UInt32) -> (block: TableBlock, offset: Int)? {
        switch scalar {
        case 0..<0x80: (ascii, Int(scalar))
        case 0x80..<0x100: (latin1, Int(scalar - 0x80))
        case 0x100..<0x250: (latinExtended, Int(scalar - 0x100))
        case 0x400..<0x530: (cyrillic, Int(scalar - 0x400))
        default: nil
        }
    }
}
