/// Reads one calibration input in whichever format it is, chosen by the file name and,
/// failing that, by its first bytes.
public enum CostInputReader {
    /// The format of `path`: `.xml` Instruments, `.ndjson` unified log, `.csv` CSV, `.json`
    /// MetricKit, `.jsonl` (or `.jsonl.zst`) a keysim trace; otherwise by the first line: `<`
    /// XML, a `"keysim"` header a trace, an `"eventType"` field a unified log, `{` or `[`
    /// MetricKit, anything else CSV.
    public static func format(of path: String) throws(InputError) -> CostFormat {
        let name = path.hasSuffix(".zst") ? String(path.dropLast(4)) : path
        let byExtension: [(String, CostFormat)] = [
            (".xml", .instruments), (".ndjson", .unifiedLog), (".csv", .csv), (".json", .metricKit), (".jsonl", .trace),
        ]
        if let match = byExtension.first(where: { name.lowercased().hasSuffix($0.0) }) { return match.1 }
        let lines = try LineReader(path: path, validatesUTF8: false)
        guard let (_, bytes) = try lines.nextLine() else {
            throw InputError(.invalidContent, file: path, message: "empty file")
        }
        let first = String(decoding: bytes, as: UTF8.self)
        let trimmed = first.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("<") { return .instruments }
        if trimmed.hasPrefix("{") && first.contains("\"keysim\"") { return .trace }
        if trimmed.hasPrefix("{") && first.contains("\"eventType\"") { return .unifiedLog }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return .metricKit }
        return .csv
    }

    /// Reads `path` in `format`, or in the format `format(of:)` finds.
    public static func read(path: String, format: CostFormat? = nil) throws(InputError) -> CostReading {
        var chosen: CostFormat
        if let format { chosen = format } else { chosen = try self.format(of: path) }
        switch chosen {
        case .instruments: return try InstrumentsReader.read(path: path)
        case .unifiedLog: return try SignpostLogReader.read(path: path)
        case .metricKit: return try MetricKitReader.read(path: path)
        case .csv: return try CostCSVReader.read(path: path)
        case .trace: return try TraceCostReader.read(path: path)
        }
    }
}
