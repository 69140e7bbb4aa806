import Sim

/// One problem found in a trace: an error (the trace cannot be replayed as it is) or a
/// warning (it can, but probably not as its author meant).
public struct TraceProblem: Sendable, Equatable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Equatable {
        /// The trace is invalid: a reader refuses it.
        case error
        /// The trace replays, but something looks wrong.
        case warning
    }

    /// How serious it is.
    public var severity: Severity
    /// The file, as the user named it.
    public var file: String
    /// The 1-based line, when known.
    public var line: Int?
    /// The 1-based byte column, when known.
    public var column: Int?
    /// What is wrong, a sentence fragment without a trailing period.
    public var message: String

    /// Creates a problem.
    public init(_ severity: Severity, file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        // A problem with a line as a whole points at its first byte (see `InputError`).
        self.column = column ?? (line == nil ? nil : 1)
        self.message = message
    }

    /// An error from a reader.
    public init(_ error: InputError) {
        self.init(.error, file: error.file, line: error.line, column: error.column, message: error.message)
    }

    /// `file:line:column: error: message`, like a compiler.
    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return "\(location): \(severity.rawValue): \(message)"
    }
}

/// What `TraceValidator` found in one trace file.
public struct TraceValidation: Sendable {
    /// The file, as the user named it.
    public var path: String
    /// The header, when the first line was a valid one.
    public var header: TraceHeader?
    /// The number of event lines that decoded successfully.
    public var eventCount = 0
    /// Measured durations (`"type":"measure"` lines), which are not events.
    public var measurementCount = 0
    /// The number of lines read, header included.
    public var lineCount = 0
    /// The time of the last valid event.
    public var lastTime: SimTime?
    /// The problems kept, in line order (at most `maxProblems`).
    public var problems: [TraceProblem] = []
    /// Errors found, including those not kept.
    public var errorCount = 0
    /// Warnings found, including those not kept.
    public var warningCount = 0

    /// Whether the trace has no errors (warnings allowed).
    public var isValid: Bool { errorCount == 0 }
    /// Problems found but not kept because of the limit.
    public var omittedCount: Int { errorCount + warningCount - problems.count }
}

/// Checks a whole trace and reports every problem with its line, rather than stopping at
/// the first as `TraceFileReader` does.
///
/// Besides what the line decoder checks (syntax, fields, types, times that go backwards),
/// the validator applies the rules that span lines (`TraceRules`, which every reader of
/// traces applies too: a `dictation.stop` needs a `dictation.start`, …) and checks the files
/// a trace refers to: a WAV file named by `audio` must exist beside the trace and be PCM.
///
/// A bad line does not stop the check: the next line is read as usual (a line with an error
/// does not count as the previous event, so one bad time is reported once). A damaged zstd
/// stream or a read error ends it, since nothing after that point can be trusted, and so
/// does a header whose format version is unknown.
///
/// Memory stays flat: one line at a time, plus at most `maxProblems` problems.
public enum TraceValidator {
    /// The default number of problems kept per file; the rest are only counted.
    public static let defaultMaxProblems = 1000

    /// Validates the trace at `path`.
    /// - Parameters:
    ///   - maxProblems: problems to keep (the rest are counted in `omittedCount`).
    ///   - checksAudio: whether to open the WAV files that dictations refer to.
    public static func validate(path: String, maxProblems: Int = defaultMaxProblems,
                                checksAudio: Bool = true) -> TraceValidation {
        precondition(maxProblems >= 0, "maxProblems must not be negative")
        var result = TraceValidation(path: path)
        func report(_ problem: TraceProblem) {
            switch problem.severity {
            case .error: result.errorCount += 1
            case .warning: result.warningCount += 1
            }
            if result.problems.count < maxProblems { result.problems.append(problem) }
        }

        let lines: LineReader
        do {
            // The decoder checks UTF-8 as it parses every string, and anything else that is
            // not ASCII is a syntax error, so the reader need not check it first.
            lines = try LineReader(path: path, validatesUTF8: false)
        } catch {
            report(TraceProblem(error))
            return result
        }
        var decoder = TraceLineDecoder()
        var rules = TraceRules()
        var audioChecked: [String: Bool] = [:]
        let folder = directory(of: path)

        while true {
            let next: (number: Int, bytes: UnsafeBufferPointer<UInt8>)?
            do {
                next = try lines.nextLine()
            } catch {
                report(TraceProblem(error))
                // A bad line (too long, say) is skipped; a broken stream ends the check.
                if error.kind == .lineTooLong || error.kind == .invalidUTF8 { result.lineCount = lines.lineNumber; continue }
                break
            }
            guard let (number, bytes) = next else { break }
            result.lineCount = number
            if number == 1 {
                do {
                    result.header = try decoder.decodeHeader(bytes)
                } catch {
                    report(TraceProblem(.error, file: path, line: number, column: error.column, message: error.message))
                    // A version this build does not know: its lines may mean other things.
                    if error.message.hasPrefix("trace format version") { break }
                }
                continue
            }
            let event: TraceEvent
            do {
                switch try decoder.decodeLine(bytes) {
                case .event(let decoded):
                    event = decoded
                case .measurement(let measurement):
                    result.measurementCount += 1
                    result.lastTime = measurement.time
                    continue
                }
            } catch {
                report(TraceProblem(.error, file: path, line: number, column: error.column, message: error.message))
                continue
            }
            result.eventCount += 1
            result.lastTime = event.time
            if let problem = rules.check(event.kind, line: number) {
                report(TraceProblem(problem.severity, file: path, line: number, message: problem.message))
            }
            if checksAudio, case .dictationStart(.wavFile(let audioPath, _)) = event.kind {
                if audioChecked[audioPath] == nil {
                    var ok = true
                    do {
                        _ = try WAVFile.read(path: folder + audioPath)
                    } catch {
                        ok = false
                        let reason = error.kind == .noSuchFile ? "no such file" : error.message
                        report(TraceProblem(.error, file: path, line: number,
                                            message: "audio \"\(audioPath)\": \(reason) (looked for \(folder + audioPath))"))
                    }
                    audioChecked[audioPath] = ok
                } else if audioChecked[audioPath] == false {
                    report(TraceProblem(.error, file: path, line: number,
                                        message: "audio \"\(audioPath)\" is missing or not a PCM WAV file (see above)"))
                }
            }
        }
        if result.lineCount == 0 && result.errorCount == 0 {
            report(TraceProblem(.error, file: path, message: "empty trace: expected a header line"))
        }
        if let (open, problem) = rules.finish() {
            report(TraceProblem(problem.severity, file: path, line: open, message: problem.message))
            // Keep the problems in line order; the sort is by (line, position found).
            result.problems = result.problems.enumerated().sorted { a, b in
                (a.element.line ?? Int.max, a.offset) < (b.element.line ?? Int.max, b.offset)
            }.map(\.element)
        }
        return result
    }

    /// The folder of `path` with a trailing slash, or "" for a bare file name: audio paths
    /// are relative to it.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }
}
