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

    /// Formats a number with a fixed count of decimals.
    public static func fixed(_ x: Double, _ decimals: Int = 2) -> String {
        guard x.isFinite else { return x.isNaN ? "-" : (x > 0 ? "inf" : "-inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (x * scale).rounded()
        let rounded = scaled / scale
        var text = String(rounded)
        // Swift writes a number under 10⁻⁴ as "5.3e-05": spell it from the whole number of
        // the last decimal instead (a cost of $0.000053).
        if text.contains("e"), Swift.abs(scaled) < 1e15 {
            let digits = String(Int64(Swift.abs(scaled)))
            let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
            let whole = padded.dropLast(decimals), fraction = padded.suffix(decimals)
            return (scaled < 0 ? "-" : "") + whole + (decimals > 0 ? "." + fraction : "")
        }
        if let dot = text.firstIndex(of: ".") {
            let have = text.distance(from: dot, to: text.endIndex) - 1
            if have < decimals { text += String(repeating: "0", count: decimals - have) }
            if decimals == 0 { text = String(text[..<dot]) }
        } else if decimals > 0 {
            text += "." + String(repeating: "0", count: decimals)
        }
        return text
    }

    /// Formats a share as a percentage with one decimal.
    public static func percent(_ share: Double) -> String { fixed(share * 100, 1) + "%" }
}
