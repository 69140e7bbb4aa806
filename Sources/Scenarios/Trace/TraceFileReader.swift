import Sim

/// Streams the events of a trace file (`.jsonl`, or `.jsonl.zst` decompressed on the fly),
/// holding one line at a time: memory stays flat whatever the trace's length.
///
/// Every problem is an `InputError` naming the file, line and column: a malformed line, and
/// an event that breaks one of the rules spanning lines (`TraceRules`), as `trace validate`
/// reports them.
public struct TraceFileReader: TraceEventSource {
    /// The file, as the user named it.
    public let path: String
    /// The trace's header (its first line).
    public let header: TraceHeader
    private let lines: LineReader
    private var decoder = TraceLineDecoder()
    private var rules = TraceRules()

    /// Opens a trace and reads its header.
    public init(path: String) throws(InputError) {
        self.path = path
        // The decoder validates UTF-8 as it parses, so the reader need not do it twice.
        lines = try LineReader(path: path, validatesUTF8: true)
        guard let (number, bytes) = try lines.nextLine() else {
            throw InputError(.invalidContent, file: path, message: "empty trace: expected a header line")
        }
        do {
            header = try decoder.decodeHeader(bytes)
        } catch {
            throw InputError(.invalidContent, file: path, line: number, column: error.column, message: error.message)
        }
    }

    /// The line number of the event last returned.
    public var lineNumber: Int { lines.lineNumber }

    /// The next event, or `nil` at the end of the file.
    public mutating func next() throws -> TraceEvent? {
        try nextEvent()
    }

    /// The next event with a typed error. Measured durations (`"type":"measure"`) are
    /// skipped: a replay never sees them.
    public mutating func nextEvent() throws(InputError) -> TraceEvent? {
        while let line = try nextLine() {
            if case .event(let event) = line { return event }
        }
        return nil
    }

    /// The next line after the header, event or measurement, with a typed error. An event
    /// that breaks a rule spanning lines (`TraceRules`: a `dictation.stop` with no start, …)
    /// is an error here as in `trace validate`; the rules' warnings are left to the validator.
    public mutating func nextLine() throws(InputError) -> TraceLine? {
        guard let (number, bytes) = try lines.nextLine() else { return nil }
        let line: TraceLine
        do {
            line = try decoder.decodeLine(bytes)
        } catch {
            throw InputError(.invalidContent, file: path, line: number, column: error.column, message: error.message)
        }
        if case .event(let event) = line, let problem = rules.check(event.kind, line: number), problem.severity == .error {
            throw InputError(.invalidContent, file: path, line: number, message: problem.message)
        }
        return line
    }
}
