import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the XML that `xcrun xctrace export --input X.trace --xpath
/// '/trace-toc/run/data/table[@schema="os-signpost-interval"]'` writes: a
/// `trace-query-result` of `node`s, each a `schema` (its `col`umns' `mnemonic`s) and `row`s
/// whose children are the columns in order.
///
/// The format's rules, all handled: a value written once with `id="N"` is later written as
/// an empty element with `ref="N"` (of any element, in any later row); a missing value is a
/// `<sentinel/>` (an interval that has not ended has a sentinel duration: left out and
/// counted); durations are integer nanoseconds; the interval's name is the `name` column.
/// Xcode versions have named the table `os-signpost-interval`, `os-signpost-intervals`
/// and `OSSignpostIntervals`; all are accepted. Any other table, a row with a `ref` to an
/// unknown `id`, or a duration that is not an integer of nanoseconds within `ValueLimits`
/// (at most about 104 days) is an error with its line and column.
public enum InstrumentsReader {
    /// The schema names of the signpost interval table across Xcode versions.
    public static let schemaNames = ["os-signpost-interval", "os-signpost-intervals", "OSSignpostIntervals"]

    /// Reads `path`.
    public static func read(path: String) throws(InputError) -> CostReading {
        let bytes = try CostFile.bytes(path: path)
        let parser = XMLParser(data: Data(bytes))
        let delegate = Delegate(path: path, bytes: bytes)
        parser.delegate = delegate
        let ok = parser.parse()
        if let failure = delegate.failure { throw failure }
        if !ok {
            let message = parser.parserError.map { "not well-formed XML: \(($0 as NSError).localizedDescription)" } ?? "not well-formed XML"
            throw InputError(.invalidContent, file: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1), message: message)
        }
        guard delegate.tableCount > 0 else {
            throw InputError(.invalidContent, file: path,
                             message: "no signpost interval table (expected a trace-query-result with a schema named \(schemaNames.joined(separator: ", ")))")
        }
        var remarks: [String] = []
        if delegate.openIntervals > 0 { remarks.append("\(delegate.openIntervals) interval(s) without an end (a sentinel duration) left out") }
        return CostReading(file: path, format: .instruments, series: delegate.collector.series(file: path, format: .instruments),
                           remarks: remarks)
    }

    /// One column value of a row as written: an element with text, a reference, or a sentinel.
    private struct Cell {
        var element: String
        var id: String?
        var ref: String?
        var fmt: String?
        var text = ""
        var line: Int
        var column: Int
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        let path: String
        var failure: InputError?
        var collector = SeriesCollector()
        var tableCount = 0
        var openIntervals = 0

        private var stack: [String] = []
        private var columns: [String] = []
        private var mnemonic: String?
        private var inSchema = false
        private var rowDepth: Int?
        private var cells: [Cell] = []
        private var rowStart = (line: 1, column: 1)
        /// Elements with an id still open inside the current row: (stack depth, id, text, fmt).
        private var valued: [(depth: Int, id: String?, text: String, fmt: String?)] = []
        /// Every value written with an id: its text and fmt.
        private var values: [String: (text: String, fmt: String?)] = [:]

        /// The byte offset at which each line starts.
        private let lineStarts: [Int]
        private let bytes: [UInt8]

        init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
            var starts = [0]
            for (index, byte) in bytes.enumerated() where byte == 0x0A { starts.append(index + 1) }
            lineStarts = starts
        }

        /// The parser reports the position just after a tag; errors point at the tag's `<`.
        private func tagStart(_ parser: XMLParser) -> (line: Int, column: Int) {
            let line = max(parser.lineNumber, 1)
            let column = max(parser.columnNumber, 1)
            guard line <= lineStarts.count else { return (line, column) }
            var index = min(lineStarts[line - 1] + column - 1, bytes.count - 1)
            while index > lineStarts[line - 1] && bytes[index] != UInt8(ascii: "<") { index -= 1 }
            return (line, index - lineStarts[line - 1] + 1)
        }

        private func fail(_ parser: XMLParser, _ message: String, at position: (line: Int, column: Int)? = nil) {
            guard failure == nil else { return }
            let at = position ?? tagStart(parser)
            failure = InputError(.invalidContent, file: path, line: at.line, column: at.column, message: message)
            parser.abortParsing()
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            stack.append(name)
            let depth = stack.count
            if name == "schema" {
                let schema = attributes["name"] ?? ""
                guard InstrumentsReader.schemaNames.contains(schema) else {
                    fail(parser, "table schema \"\(schema)\" is not a signpost interval table (expected \(InstrumentsReader.schemaNames.joined(separator: ", ")); export with --xpath '/trace-toc/run/data/table[@schema=\"os-signpost-interval\"]')")
                    return
                }
                inSchema = true
                columns = []
                tableCount += 1
            } else if inSchema && name == "mnemonic" {
                mnemonic = ""
            } else if name == "row" && rowDepth == nil {
                guard tableCount > 0 else { fail(parser, "a row before any schema"); return }
                rowDepth = depth
                rowStart = tagStart(parser)
                cells = []
            } else if let rowDepth {
                if depth == rowDepth + 1 {
                    let at = tagStart(parser)
                    cells.append(Cell(element: name, id: attributes["id"], ref: attributes["ref"], fmt: attributes["fmt"],
                                      line: at.line, column: at.column))
                }
                if let ref = attributes["ref"], values[ref] == nil {
                    fail(parser, "ref=\"\(ref)\" names no earlier id")
                    return
                }
                valued.append((depth, attributes["id"], "", attributes["fmt"]))
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if mnemonic != nil { mnemonic! += string }
            if !valued.isEmpty, valued[valued.count - 1].depth == stack.count { valued[valued.count - 1].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            defer { stack.removeLast() }
            let depth = stack.count
            if name == "schema" && inSchema {
                inSchema = false
                for required in ["duration", "name"] where !columns.contains(required) {
                    fail(parser, "the signpost interval schema has no \"\(required)\" column (columns: \(columns.joined(separator: ", ")))")
                }
            } else if name == "mnemonic", let text = mnemonic {
                columns.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
                mnemonic = nil
            } else if let rowDepth, depth == rowDepth, name == "row" {
                self.rowDepth = nil
                finishRow(parser)
            } else if rowDepth != nil, let last = valued.last, last.depth == depth {
                valued.removeLast()
                let text = last.text.trimmingCharacters(in: .whitespacesAndNewlines)
                if let id = last.id { values[id] = (text, last.fmt) }
                if depth == rowDepth! + 1, !cells.isEmpty { cells[cells.count - 1].text = text }
            }
        }

        private func finishRow(_ parser: XMLParser) {
            guard cells.count == columns.count else {
                fail(parser, "a row with \(cells.count) values where the schema has \(columns.count) columns", at: rowStart)
                return
            }
            func resolved(_ mnemonic: String) -> (text: String, fmt: String?, cell: Cell)? {
                let cell = cells[columns.firstIndex(of: mnemonic)!]
                if cell.element == "sentinel" { return nil }
                if let ref = cell.ref, let value = values[ref] { return (value.text, value.fmt, cell) }
                return (cell.text, cell.fmt, cell)
            }
            guard let duration = resolved("duration") else { openIntervals += 1; return }
            guard let nanos = Int64(duration.text), nanos >= 0 else {
                fail(parser, "duration \"\(duration.text)\" is not a non-negative integer of nanoseconds",
                     at: (duration.cell.line, duration.cell.column))
                return
            }
            if let problem = ValueLimits.durationProblem(nanoseconds: nanos) {
                fail(parser, "duration " + problem, at: (duration.cell.line, duration.cell.column))
                return
            }
            let name = resolved("name").map { $0.text.isEmpty ? ($0.fmt ?? "") : $0.text } ?? ""
            collector.add(name.isEmpty ? "(unnamed)" : name, ms: Double(nanos) / 1e6)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            fail(parser, "not well-formed XML: \((parseError as NSError).localizedDescription)",
                 at: (max(parser.lineNumber, 1), max(parser.columnNumber, 1)))
        }
    }
}
