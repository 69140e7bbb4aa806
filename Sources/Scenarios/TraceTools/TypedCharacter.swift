import Sim

/// One character of a typist's script with what the typist asks of it, looked up once: its
/// Unicode properties (letter, white space, number, upper case), its script (Latin or
/// Cyrillic letter, as `TypingLanguages` asks) and its keys on the two letter layers
/// (`Planner.key(for:letterLayout:)`).
///
/// Those questions cost hundreds of instructions each through `Character`'s properties and
/// the layouts' string search, and a fleet asks them of every character of every session. A
/// character that is one Unicode scalar below `tableScalarLimit` (ASCII, Latin-1, Latin
/// Extended, Greek, Cyrillic) is answered from tables built once, by the very functions they
/// stand for, so the answers are the same by construction; any other character (emoji,
/// clusters of several scalars, "\r\n") is asked directly.
struct TypedCharacter: Sendable {
    /// The character.
    let character: Character
    /// Its Unicode and script properties.
    let properties: Properties
    /// The scalar's index in the tables, or -1 when the character is not in them.
    private let tableIndex: Int

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

    /// Scalars below this are answered from the tables: up to the end of Cyrillic
    /// Supplement, past every letter of keysim's layouts.
    static let tableScalarLimit = 0x530

    /// `c` with its properties.
    init(_ c: Character) {
        character = c
        tableIndex = Self.singleScalar(of: c).map(Int.init) ?? -1
        properties = tableIndex >= 0 ? Self.propertyTable[tableIndex] : Properties(of: c)
    }

    /// The characters of `text`.
    static func characters(of text: String) -> [TypedCharacter] {
        text.map(TypedCharacter.init)
    }

    /// The key of the character on `letterLayout` (QWERTY or Russian) or the 123 layer, as
    /// `Planner.key(for:letterLayout:)` finds it.
    func key(on letterLayout: KeyboardLayout) -> KeyLookup {
        guard tableIndex >= 0 else { return Planner.key(for: character, letterLayout: letterLayout) }
        switch letterLayout.name {
        case KeyboardLayout.qwerty.name: return Self.qwertyTable[tableIndex]
        case KeyboardLayout.russian.name: return Self.russianTable[tableIndex]
        default: return Planner.key(for: character, letterLayout: letterLayout)
        }
    }

    /// The scalar of `c` when it is one scalar below `tableScalarLimit`, read from its UTF-8
    /// (one byte, or a two-byte sequence, which is always one scalar), else `nil`.
    private static func singleScalar(of c: Character) -> UInt32? {
        var bytes = c.utf8.makeIterator()
        guard let first = bytes.next() else { return nil }
        if first < 0x80 { return bytes.next() == nil ? UInt32(first) : nil }
        guard first & 0xE0 == 0xC0, let second = bytes.next(), bytes.next() == nil else { return nil }
        let scalar = UInt32(first & 0x1F) << 6 | UInt32(second & 0x3F)
        return scalar < tableScalarLimit ? scalar : nil
    }

    /// The characters of the tables, by scalar (nothing is missing below the limit: no
    /// surrogates there).
    private static func tableCharacter(_ scalar: Int) -> Character {
        Character(Unicode.Scalar(UInt32(scalar))!)
    }

    private static let propertyTable: [Properties] = (0..<tableScalarLimit).map { Properties(of: tableCharacter($0)) }
    private static let qwertyTable: [KeyLookup] = (0..<tableScalarLimit).map {
        Planner.key(for: tableCharacter($0), letterLayout: .qwerty)
    }
    private static let russianTable: [KeyLookup] = (0..<tableScalarLimit).map {
        Planner.key(for: tableCharacter($0), letterLayout: .russian)
    }
}
