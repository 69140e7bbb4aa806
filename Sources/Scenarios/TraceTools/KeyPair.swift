import Sim

/// What the within-word rhythm knows about the interval before a key typed inside a word:
/// where in the word the key falls, and the pair of letters the interval joins. Shared by
/// the typist that draws the interval and the fitter that measures it, as `TypingContext`
/// is, so that a profile fitted from a synthesised trace measures what the typist drew.
///
/// The kind of a letter pair comes from keysim's layouts and the touch-typing assignment of
/// key columns to fingers (`docs/trace-format.md`, "The within-word rhythm"): the same key,
/// another key under the same finger, another finger of the same hand, or the other hand.
struct KeyPair: Sendable, Equatable {
    /// Where the key falls in its word.
    enum Position: String, Sendable, CaseIterable {
        /// The word's second letter or digit: the interval after its first.
        case second
        /// A later letter or digit.
        case inside
        /// The space or mark that ends the word.
        case end
    }

    /// The kind of a pair of letters, by the keys and fingers that type them.
    enum DigraphClass: String, Sendable, CaseIterable {
        /// The same letter twice (the same key).
        case repeated
        /// Two keys under the same finger.
        case sameFinger
        /// Two fingers of the same hand.
        case sameHand
        /// One letter with each hand.
        case alternating
        /// A letter or digit that is not on a letter layout (a digit, an accented letter),
        /// or letters of two scripts.
        case unmapped
    }

    /// Where the key falls in its word.
    var position: Position
    /// The kind of the pair; `nil` at the word's end.
    var digraphClass: DigraphClass?
    /// The two letters, lower-cased, when both are letters; `nil` otherwise.
    var digraph: String?

    /// The pair of the interval before `kind`, a `withinWord` edit, with the text as it was
    /// before `kind`; `nil` when `kind` is not a key or the text does not end in a letter or
    /// digit.
    static func of(_ kind: TraceEvent.Kind, text: ReplayedText) -> KeyPair? {
        guard case .key(let inserted, _, _) = kind, let next = inserted.first,
              let previous = text.characterBeforeCursor, previous.isLetter || previous.isNumber else { return nil }
        guard next.isLetter || next.isNumber else { return KeyPair(position: .end, digraphClass: nil, digraph: nil) }
        let position: Position = text.wordLengthBeforeCursor(limit: 2) == 1 ? .second : .inside
        let digraph = previous.isLetter && next.isLetter ? (String(previous) + String(next)).lowercased() : nil
        return KeyPair(position: position, digraphClass: digraphClass(previous, next), digraph: digraph)
    }

    /// The kind of the pair `a` then `b` on the QWERTY or the Russian letter layer.
    static func digraphClass(_ a: Character, _ b: Character) -> DigraphClass {
        guard let first = letterKey(a), let second = letterKey(b), first.layout == second.layout else { return .unmapped }
        if first.key == second.key { return .repeated }
        let fingerA = finger(ofColumn: first.key.column), fingerB = finger(ofColumn: second.key.column)
        if fingerA == fingerB { return .sameFinger }
        return (fingerA < 4) == (fingerB < 4) ? .sameHand : .alternating
    }

    /// The finger of a letter key's column, 0–3 the left hand's little to index finger, 4–7
    /// the right hand's index to little finger: the touch-typing assignment, in which each
    /// column of the staggered rows belongs to one finger, the index fingers taking two
    /// columns each and the right little finger the rest. It holds for QWERTY's ten, nine
    /// and seven keys a row and ЙЦУКЕН's eleven and nine.
    static func finger(ofColumn column: Int) -> Int {
        let fingers = [0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 7]
        return fingers[max(0, min(column, fingers.count - 1))]
    }

    private static func letterKey(_ c: Character) -> (key: KeyboardLayout.Key, layout: String)? {
        guard c.isLetter else { return nil }
        if let key = KeyboardLayout.qwerty.key(for: c) { return (key, "qwerty") }
        if let key = KeyboardLayout.russian.key(for: c) { return (key, "russian") }
        return nil
    }
}
