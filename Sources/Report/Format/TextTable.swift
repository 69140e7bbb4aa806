import Scenarios

/// A plain-text table for terminals: left-aligned first column, right-aligned numbers.
public struct TextTable {
    /// Column headers.
    public var headers: [String]
    /// Rows of cells, each as many as headers.
    public private(set) var rows: [[String]] = []

    /// Creates a table with headers.
    public init(headers: [String]) { self.headers = headers }

    /// Adds a row; it must have one cell per header.
    public mutating func add(_ row: [String]) {
        precondition(row.count == headers.count, "a row needs \(headers.count) cells")
        rows.append(row)
    }

    /// The table as lines of text, columns two spaces apart.
    public func render() -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        var lines = [line(headers)]
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        lines += rows.map(line)
        return lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.joined(separator: "\n") + "\n"
    }

    /// Formats a number with a fixed count of decimals: `NumberText.fixed`, the one
    /// formatter of every figure keysim shows (fixed point, never an exponent, no `-0.00`).
    public static func fixed(_ x: Double, _ decimals: Int = 2) -> String { NumberText.fixed(x, decimals) }

    /// Formats a share as a percentage with one decimal.
    public static func percent(_ share: Double) -> String { fixed(share * 100, 1) + "%" }
}
