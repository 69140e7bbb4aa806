/// Hit-testing on a `KeyboardLayout`: which key a touch point lands on, plainly or with the
/// boundaries around one predicted key moved outwards.
///
/// Every key of the layer takes part (the character keys, then shift, backspace, 123, globe,
/// space and return), addressed by a small index into `keys`. A key's rectangle is its width
/// (gap included) by the row pitch (54 pt), centred on its centre, half-open on the right and
/// bottom: a point exactly on the boundary between two keys belongs to the right or lower one.
/// A point in no rectangle (in a gap beside shift, or outside the view) hits the key whose
/// rectangle is nearest, ties going to the lower index.
///
/// The drawn keys never move: a shift only changes which key a point is decided to hit.
public struct TouchGeometry: Sendable {
    /// A rectangle in points.
    public struct Rectangle: Sendable, Equatable {
        /// Left edge.
        public var minX: Double
        /// Right edge (not included).
        public var maxX: Double
        /// Top edge.
        public var minY: Double
        /// Bottom edge (not included).
        public var maxY: Double

        /// Whether `point` lies inside (left and top edges included, right and bottom not).
        @inline(__always) public func contains(_ point: TouchPoint) -> Bool {
            point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
        }

        /// The distance from `point` to the rectangle, squared (0 inside).
        @inline(__always) func distanceSquared(_ point: TouchPoint) -> Double {
            let dx = point.x < minX ? minX - point.x : (point.x > maxX ? point.x - maxX : 0)
            let dy = point.y < minY ? minY - point.y : (point.y > maxY ? point.y - maxY : 0)
            return dx * dx + dy * dy
        }
    }

    /// Sides of a key's rectangle, as bits of `facingSides`.
    public struct Sides: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let left = Sides(rawValue: 1)
        public static let right = Sides(rawValue: 2)
        public static let top = Sides(rawValue: 4)
        public static let bottom = Sides(rawValue: 8)
    }

    /// The layer.
    public let layout: KeyboardLayout
    /// Every key, by index: the character keys in layout order, then shift, backspace, 123,
    /// globe, space, return.
    public let keys: [KeyboardLayout.Key]
    /// The drawn rectangle of each key, by index.
    public let rectangles: [Rectangle]
    /// The sides of each key that face another key: only those move under a shift (the
    /// outer edges of the keyboard have no neighbour to take room from).
    public let facingSides: [Sides]
    /// Key index of each ASCII character (lower and upper case letters alike), -1 for none.
    private let asciiKey: [Int16]

    /// The index of the space key.
    public var spaceIndex: Int { keys.count - 2 }
    /// The index of the backspace key.
    public var backspaceIndex: Int { keys.count - 5 }

    /// Builds the geometry of `layout`.
    public init(_ layout: KeyboardLayout) {
        self.layout = layout
        let all = layout.characterKeys + [layout.shift, layout.backspace, layout.numbers, layout.globe, layout.space, layout.returnKey]
        keys = all
        let rows = all.map { key in
            Rectangle(minX: key.center.x - key.width / 2, maxX: key.center.x + key.width / 2,
                      minY: key.center.y - KeyboardLayout.rowPitchPoints / 2, maxY: key.center.y + KeyboardLayout.rowPitchPoints / 2)
        }
        rectangles = rows
        facingSides = all.indices.map { i in
            var sides: Sides = []
            let a = rows[i]
            for j in all.indices where j != i {
                let b = rows[j]
                let sameRow = all[j].row == all[i].row
                // A key beside this one, in its row, within a key pitch.
                if sameRow && b.maxX <= a.minX + 1e-9 && a.minX - b.maxX < KeyboardLayout.keyPitchPoints { sides.insert(.left) }
                if sameRow && b.minX >= a.maxX - 1e-9 && b.minX - a.maxX < KeyboardLayout.keyPitchPoints { sides.insert(.right) }
                // A key in the row above or below whose rectangle overlaps this one's horizontally.
                let overlaps = b.minX < a.maxX && b.maxX > a.minX
                if overlaps && all[j].row == all[i].row - 1 { sides.insert(.top) }
                if overlaps && all[j].row == all[i].row + 1 { sides.insert(.bottom) }
            }
            return sides
        }
        var ascii = [Int16](repeating: -1, count: 128)
        for (index, key) in all.enumerated() {
            guard let scalar = key.label.unicodeScalars.first, key.label.unicodeScalars.count == 1, scalar.value < 128 else { continue }
            ascii[Int(scalar.value)] = Int16(index)
            if let upper = key.label.uppercased().unicodeScalars.first, upper.value < 128, upper != scalar {
                ascii[Int(upper.value)] = Int16(index)
            }
        }
        asciiKey = ascii
    }

    /// The index of the key that types `text` (one character, either case), or `nil`.
    /// ASCII text is found by table lookup; other text by the layout's search.
    public func keyIndex(typing text: String) -> Int? {
        var bytes = text.utf8.makeIterator()
        if let first = bytes.next(), first < 128 {
            guard bytes.next() == nil else { return nil }
            let index = asciiKey[Int(first)]
            return index < 0 ? nil : Int(index)
        }
        guard text.count == 1, let key = layout.key(for: text.first!) else { return nil }
        return keys.firstIndex(of: key)
    }

    /// The index of the key labelled `label`, or `nil`.
    public func keyIndex(label: String) -> Int? { keys.firstIndex { $0.label == label } }

    /// The key a point hits on the drawn layout.
    /// - Complexity: O(keys), about 33 comparisons, no allocation.
    public func plainHit(_ point: TouchPoint) -> Int {
        var best = 0
        var bestDistance = Double.infinity
        for index in rectangles.indices {
            let rectangle = rectangles[index]
            if rectangle.contains(point) { return index }
            let distance = rectangle.distanceSquared(point)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }

    /// The rectangle of `key` grown by `shift` points on every side that faces another key:
    /// the boundary between the key and each neighbour moved `shift` points into the neighbour.
    public func rectangle(_ key: Int, grownBy shift: Double) -> Rectangle {
        var r = rectangles[key]
        let sides = facingSides[key]
        if sides.contains(.left) { r.minX -= shift }
        if sides.contains(.right) { r.maxX += shift }
        if sides.contains(.top) { r.minY -= shift }
        if sides.contains(.bottom) { r.maxY += shift }
        return r
    }

    /// The key a point hits when the predicted key `favoured` has its boundaries moved
    /// `shift` points outwards: `favoured` if the point is in its grown rectangle, otherwise
    /// what the plain layout decides.
    public func hit(_ point: TouchPoint, favouring favoured: Int, shift: Double) -> Int {
        if shift > 0 && rectangle(favoured, grownBy: shift).contains(point) { return favoured }
        return plainHit(point)
    }
}

extension KeyboardLayout {
    /// The layer named `name` ("qwerty", "russian", "symbols"), or `nil`.
    public static func named(_ name: String) -> KeyboardLayout? {
        switch name {
        case "qwerty": .qwerty
        case "russian": .russian
        case "symbols": .symbols
        default: nil
        }
    }

    /// The names `named(_:)` knows.
    public static let names = ["qwerty", "russian", "symbols"]
}
