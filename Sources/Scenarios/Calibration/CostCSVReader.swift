/// Reads measured durations from CSV: a header line `kind,duration_ms`, then one
/// `name,milliseconds` row per duration. Fields may be quoted ("a,b"); blank lines are
/// skipped; a duration that is not a number, or not a duration `ValueLimits` accepts (finite,
/// not negative, at most about 104 days), is an error with its line and column.
public enum CostCSVReader {
    /// The header the file must start with.
    public static let header = ["kind", "duration_ms"]

    /// Reads `path`.
    public static func read(path: String) throws(InputError) -> CostReading {
        let lines = try LineReader(path: path)
        var collector = SeriesCollector()
        var sawHeader = false
        while let (number, bytes) = try lines.nextLine() {
            let text = String(decoding: bytes, as: UTF8.self)
            if text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            let fields = try split(text, path: path, line: number)
            if !sawHeader {
                guard fields.map({ $0.text.trimmingSpaces().lowercased() }) == header else {
                    throw InputError(.invalidContent, file: path, line: number, column: 1,
                                     message: "expected the header 'kind,duration_ms', found '\(text.trimmingSpaces())'")
                }
                sawHeader = true
                continue
            }
            guard fields.count == 2 else {
                throw InputError(.invalidContent, file: path, line: number, column: fields.count > 2 ? fields[2].column : nil,
                                 message: "expected 2 fields (kind,duration_ms), found \(fields.count)")
            }
            let name = fields[0].text.trimmingSpaces()
            guard !name.isEmpty else {
                throw InputError(.invalidContent, file: path, line: number, column: fields[0].column, message: "empty kind")
            }
            let valueText = fields[1].text.trimmingSpaces()
            guard let value = Double(valueText), value.isFinite, value >= 0 else {
                throw InputError(.invalidContent, file: path, line: number, column: fields[1].column,
                                 message: "duration_ms must be a non-negative number of milliseconds, found '\(valueText)'")
            }
            if let problem = ValueLimits.durationProblem(ms: value, text: valueText) {
                throw InputError(.invalidContent, file: path, line: number, column: fields[1].column, message: "duration_ms " + problem)
            }
            collector.add(name, ms: value)
        }
        guard sawHeader else {
            throw InputError(.invalidContent, file: path, message: "empty file: expected the header 'kind,duration_ms'")
        }
        return CostReading(file: path, format: .csv, series: collector.series(file: path, format: .csv))
    }

    /// The fields of one line with their 1-based byte columns; `""` inside quotes is a quote.
    static func split(_ line: String, path: String, line number: Int) throws(InputError) -> [(text: String, column: Int)] {
        var fields: [(text: String, column: Int)] = []
        var current = ""
        var start = 1
        var column = 1
        var inQuotes = false
        var quoteColumn = 0
        var iterator = Array(line.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil
        while let scalar = pending ?? iterator.next() {
            pending = nil
            let width = String(scalar).utf8.count
            defer { column += width }
            if inQuotes {
                if scalar == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { current.unicodeScalars.append("\""); column += 1; continue }
                        pending = next
                    }
                    inQuotes = false
                } else {
                    current.unicodeScalars.append(scalar)
                }
            } else if scalar == "," {
                fields.append((current, start))
                current = ""
                start = column + 1
            } else if scalar == "\"" && current.trimmingSpaces().isEmpty {
                inQuotes = true
                quoteColumn = column
                current = ""
            } else if scalar != "\r" {
                current.unicodeScalars.append(scalar)
            }
        }
        if inQuotes {
            throw InputError(.invalidContent, file: path, line: number, column: quoteColumn, message: "unterminated quoted field")
        }
        fields.append((current, start))
        return fields
    }
}
