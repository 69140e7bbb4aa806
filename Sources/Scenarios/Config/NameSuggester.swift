/// "Did you mean …?" for a mistyped name — a scenario field, a command, an option, a format,
/// a policy — and the quoting of names in messages, shortened when they are long.
///
/// Every function is linear in the length of the name it is given, whatever that is: a
/// name is compared only when its length is within the allowed distance of a candidate's
/// and under `comparedCharactersMax` (no candidate is that long), and a long name is quoted
/// by its first `shownCharactersMax` characters. A 5 MB field name in a scenario file costs
/// a length check, not an edit distance.
public enum NameSuggester {
    /// Names longer than this (in UTF-8 bytes) are not compared at all: no field, command
    /// or option is nearly this long, so no candidate could be close.
    public static let comparedBytesMax = 256
    /// Names with more characters than this are quoted shortened.
    public static let quotedCharactersMax = 60
    /// The characters a shortened name keeps before "…".
    public static let shownCharactersMax = 40

    /// The candidate closest to `name` in edit distance (letters, digits and symbols
    /// inserted, deleted, replaced or two neighbours swapped, case ignored) when it is close
    /// enough: at most a quarter of the shorter name's length apart, and at least one edit
    /// allowed. Ties go to the earlier candidate. Failing that, the one candidate `name`
    /// begins (of three characters or more: `--rep` for `--replications`). Nil when none.
    /// - Complexity: O(n + c·k²) for a name of n bytes and c candidates of at most k
    ///   characters; O(n) when the name is longer than `comparedBytesMax`.
    public static func suggestion(for name: String, among candidates: [String]) -> String? {
        guard name.utf8.count <= comparedBytesMax else { return nil }
        let typed = Array(name.lowercased())
        var best: (candidate: String, distance: Int)?
        var prefixed: [String] = []
        for candidate in candidates where candidate.utf8.count <= comparedBytesMax {
            let known = Array(candidate.lowercased())
            if typed.count >= 3, known.count > typed.count, known.starts(with: typed) { prefixed.append(candidate) }
            let allowed = max(1, min(typed.count, known.count) / 4)
            // The distance is at least the difference in length: no need to compute it.
            guard abs(typed.count - known.count) <= allowed else { continue }
            let distance = editDistance(typed, known)
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate ?? (prefixed.count == 1 ? prefixed[0] : nil)
    }

    /// `; did you mean 'X'?` for the closest candidate, or "" when none is close: appended
    /// to a message that already names the problem.
    public static func hint(for name: String, among candidates: [String], quote: (String) -> String = { "'\($0)'" }) -> String {
        suggestion(for: name, among: candidates).map { "; did you mean \(quote($0))?" } ?? ""
    }

    /// The edit distance of two short character arrays, a swap of two neighbours counting
    /// as one edit (optimal string alignment: three rows of the usual table).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = Array(repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = previous
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                row[j] = Swift.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = Swift.min(row[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, row) = (previous, row, beforePrevious)
        }
        return previous[b.count]
    }

    /// `name` as a message shows it: whole when short, else its first `shownCharactersMax`
    /// characters, "…" and its length in bytes: `aaaa…(5242880 bytes)`.
    /// - Complexity: O(1) for a short name or a long native string; never more than O(n).
    public static func shortened(_ name: String) -> String {
        // A name of at most `quotedCharactersMax` bytes has at most as many characters.
        guard name.utf8.count > quotedCharactersMax else { return name }
        var shown = Substring()
        var index = name.startIndex
        var count = 0
        while index < name.endIndex, count < quotedCharactersMax + 1 {
            index = name.index(after: index)
            count += 1
            if count == shownCharactersMax { shown = name[..<index] }
        }
        guard count > quotedCharactersMax else { return name }
        return "\(shown)…(\(name.utf8.count) bytes)"
    }

    /// `name` in single quotes, shortened when long: `'name'`, `'aaaa…(5242880 bytes)'`.
    public static func quoted(_ name: String) -> String { "'\(shortened(name))'" }
}
