import Sim

/// The rules of a trace that span lines, which no single line can break on its own: one
/// checker, fed every event in order, used both by `TraceValidator` (which reports every
/// problem) and by `TraceFileReader` (which stops at the first error), so that every
/// command that reads a trace — `run`, `compare`, `gate`, `sweep`, `trace stats`, `trace fit`,
/// `trace compare`, `trace anonymize`, `calibrate` and `{type: "measured"}` distributions —
/// agrees with `trace validate` on what a trace is.
///
/// - `dictation.stop` without a `dictation.start` before it: an error;
/// - `dictation.start` while another dictation is still running: an error;
/// - a `field` event that clears the field but carries `text`: a warning;
/// - a dictation still running at the end of the trace: a warning (`finish`).
///
/// Time that goes backwards is the line decoder's to find (it keeps the previous time), and
/// the WAV files dictations name are opened by the validator and by the replay itself.
/// - Complexity: O(1) per event, no allocation unless there is a problem.
public struct TraceRules: Sendable {
    /// One problem an event brings.
    public struct Problem: Sendable, Equatable {
        /// An error (no reader accepts the trace) or a warning.
        public var severity: TraceProblem.Severity
        /// What is wrong, a sentence fragment.
        public var message: String
    }

    /// The line of the dictation still running, if any.
    public private(set) var dictationStartLine: Int?

    /// A checker at the start of a trace.
    public init() {}

    /// Follows `kind`, the event on line `line`, and returns what it breaks, if anything.
    public mutating func check(_ kind: TraceEvent.Kind, line: Int) -> Problem? {
        switch kind {
        case .dictationStart:
            defer { dictationStartLine = line }
            if let open = dictationStartLine {
                return Problem(severity: .error,
                               message: "dictation.start while the dictation started on line \(open) is still running (a dictation.stop must come first)")
            }
            return nil
        case .dictationStop:
            defer { dictationStartLine = nil }
            if dictationStartLine == nil {
                return Problem(severity: .error, message: "dictation.stop without a dictation.start before it")
            }
            return nil
        case .field(let field) where field.change == .cleared && !field.text.isEmpty:
            return Problem(severity: .warning,
                           message: "a cleared field has no text; \"text\" is ignored (use \"opened\" or \"replaced\" for a field with text)")
        default:
            return nil
        }
    }

    /// What the end of the trace leaves: a dictation never stopped, with its line.
    public func finish() -> (line: Int, problem: Problem)? {
        guard let open = dictationStartLine else { return nil }
        return (open, Problem(severity: .warning, message: "the dictation started here is never stopped (the trace ends first)"))
    }
}
