/// Which measured names calibrate which target: `--map NAME=kind` pairs and mapping files,
/// plus every target's own name ("lookup" measures the lookup), which needs no mapping.
public struct NameMapping: Sendable, Equatable {
    /// Explicit pairs, in the order given; a later pair for the same name wins.
    public private(set) var pairs: [(name: String, target: CalibrationTarget)] = []

    /// An empty mapping: only the targets' own names map.
    public init() {}

    /// Whether two mappings have the same pairs in the same order.
    public static func == (a: NameMapping, b: NameMapping) -> Bool {
        a.pairs.map(\.name) == b.pairs.map(\.name) && a.pairs.map(\.target) == b.pairs.map(\.target)
    }

    /// Adds one `NAME=kind` pair; the name may itself contain `=` (the last one splits).
    /// - Returns: a message for a malformed pair or an unknown target, `nil` when added.
    public mutating func add(_ text: String) -> String? {
        guard let equals = text.lastIndex(of: "=") else { return "expected NAME=kind, found '\(text)'" }
        let name = String(text[..<equals]).trimmingSpaces()
        let targetName = String(text[text.index(after: equals)...]).trimmingSpaces()
        guard !name.isEmpty else { return "empty signpost name in '\(text)'" }
        guard let target = CalibrationTarget(name: targetName) else {
            return "unknown kind '\(targetName)' (expected one of \(CalibrationTarget.all.map(\.name).joined(separator: ", ")))"
        }
        pairs.removeAll { $0.name == name }
        pairs.append((name, target))
        return nil
    }

    /// Adds the pairs of a mapping file: one `NAME=kind` per line; blank lines and lines
    /// starting with `#` are skipped.
    public mutating func add(file path: String) throws(InputError) {
        let lines = try LineReader(path: path)
        while let (number, bytes) = try lines.nextLine() {
            let text = String(decoding: bytes, as: UTF8.self).trimmingSpaces()
            if text.isEmpty || text.hasPrefix("#") { continue }
            if let problem = add(text) {
                throw InputError(.invalidContent, file: path, line: number, column: 1, message: problem)
            }
        }
    }

    /// The target `name` calibrates, or `nil` when it is not mapped.
    public func target(for name: String) -> CalibrationTarget? {
        pairs.last { $0.name == name }?.target ?? CalibrationTarget(name: name)
    }
}
