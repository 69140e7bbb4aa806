/// keysim's reference phone keyboard: where each key sits, in points from the top-left
/// corner of the keyboard view, as the synthesiser places touches and touch models read them.
///
/// The geometry is documented under "Keyboard layout" in `docs/trace-format.md`: a view
/// 330 pt wide and 216 pt high, four rows 54 pt apart, keys 33 pt apart on the QWERTY
/// letter rows (the pitch includes the gap between keys), 30 pt on the 11-key Russian rows.
/// Key rectangles are the pitch wide and the row pitch high, centred on the key's centre.
public struct KeyboardLayout: Sendable {
    /// One key.
    public struct Key: Sendable, Equatable {
        /// What the key types in lower case ("q", "й", "1", "."), or its name in brackets for
        /// keys that type no character ("[shift]", "[backspace]", "[123]", "[globe]").
        public var label: String
        /// The key's centre.
        public var center: TouchPoint
        /// The key's width including the gap, in points.
        public var width: Double
        /// The row, 0 at the top.
        public var row: Int
        /// The position in its row, 0 at the left.
        public var column: Int
    }

    /// The width of the keyboard view, in points.
    public static let widthPoints = 330.0
    /// The height of the letter area (four rows), in points.
    public static let heightPoints = 216.0
    /// The distance between the centres of neighbouring QWERTY keys, gap included.
    public static let keyPitchPoints = 33.0
    /// The distance between the centres of neighbouring rows.
    public static let rowPitchPoints = 54.0

    /// The layout's name ("qwerty", "russian", "symbols").
    public let name: String
    /// The keys that type characters, row by row.
    public let characterKeys: [Key]
    /// Shift, backspace, 123, globe, space and return.
    public let shift: Key, backspace: Key, numbers: Key, globe: Key, space: Key, returnKey: Key

    /// The English letter layer.
    public static let qwerty = KeyboardLayout(name: "qwerty", rows: [
        ("qwertyuiop", 16.5, 33), ("asdfghjkl", 33, 33), ("zxcvbnm", 66, 33),
    ], shiftCenterX: 21, shiftWidth: 42, backspaceCenterX: 309, backspaceWidth: 42)

    /// The Russian letter layer (ЙЦУКЕН), 11 keys to a row; ё is a long press on е, ъ on ь.
    public static let russian = KeyboardLayout(name: "russian", rows: [
        ("йцукенгшщзх", 15, 30), ("фывапролджэ", 15, 30), ("ячсмитьбю", 45, 30),
    ], shiftCenterX: 15, shiftWidth: 30, backspaceCenterX: 315, backspaceWidth: 30)

    /// The numbers and punctuation layer behind the 123 key.
    public static let symbols = KeyboardLayout(name: "symbols", rows: [
        ("1234567890", 16.5, 33), ("-/:;()$&@\"", 16.5, 33), (".,?!'", 72.6, 46.2),
    ], shiftCenterX: 21, shiftWidth: 42, backspaceCenterX: 309, backspaceWidth: 42)

    /// Letters typed by a long press on another key of a layout: ё on е, ъ on ь.
    public static let longPressAlternates: [Character: Character] = ["ё": "е", "ъ": "ь"]

    private init(name: String, rows: [(String, Double, Double)], shiftCenterX: Double, shiftWidth: Double,
                 backspaceCenterX: Double, backspaceWidth: Double) {
        self.name = name
        var keys: [Key] = []
        for (row, (letters, firstX, pitch)) in rows.enumerated() {
            for (column, letter) in letters.enumerated() {
                keys.append(Key(label: String(letter), center: Self.point(firstX + Double(column) * pitch, row),
                                width: pitch, row: row, column: column))
            }
        }
        characterKeys = keys
        var firstKeys: [String: Int] = [:]
        for (index, key) in keys.enumerated() where firstKeys[key.label] == nil { firstKeys[key.label] = index }
        firstKeyByLabel = firstKeys
        shift = Key(label: "[shift]", center: Self.point(shiftCenterX, 2), width: shiftWidth, row: 2, column: -1)
        backspace = Key(label: "[backspace]", center: Self.point(backspaceCenterX, 2), width: backspaceWidth, row: 2, column: 99)
        numbers = Key(label: "[123]", center: Self.point(20.625, 3), width: 41.25, row: 3, column: 0)
        globe = Key(label: "[globe]", center: Self.point(61.875, 3), width: 41.25, row: 3, column: 1)
        space = Key(label: " ", center: Self.point(165, 3), width: 165, row: 3, column: 2)
        returnKey = Key(label: "\n", center: Self.point(288.75, 3), width: 82.5, row: 3, column: 3)
    }

    private static func point(_ x: Double, _ row: Int) -> TouchPoint {
        TouchPoint(x: x, y: rowPitchPoints / 2 + Double(row) * rowPitchPoints)
    }

    /// The key that types `character` on this layer (letters in either case, space and
    /// return on every layer), or `nil`.
    public func key(for character: Character) -> Key? {
        if character == " " { return space }
        if character == "\n" { return returnKey }
        // The first character key whose label equals the lower case (a dictionary's keys
        // compare as `==` does, canonically).
        return firstKeyByLabel[String(character).lowercased()].map { characterKeys[$0] }
    }

    /// The index in `characterKeys` of the first key with each label, so that `key(for:)`
    /// hashes a character once instead of comparing it with every label.
    private let firstKeyByLabel: [String: Int]

    /// The keys next to `key` a finger slips onto, with weights: the keys left and right
    /// (weight 2) and the keys above and below that overlap it (weight 1). Only keys of the
    /// three character rows.
    public func neighbours(of key: Key) -> [(key: Key, weight: Int)] {
        characterKeys.compactMap { other in
            if other == key { return nil }
            if other.row == key.row && abs(other.column - key.column) == 1 { return (other, 2) }
            if abs(other.row - key.row) == 1 && abs(other.center.x - key.center.x) < (key.width + other.width) / 2 {
                return (other, 1)
            }
            return nil
        }
    }
}
