/// When to ask the cloud checker, given the edits so far.
///
/// A policy is a small state machine: every edit may arm (or re-arm) the timer, and when
/// the timer fires a request is sent if the text changed since the last request.
public enum DebouncePolicy: Sendable, Equatable {
    /// The seed keyboard's policy: `sentenceEnd` after an edit that leaves the text ending
    /// in `.`, `!` or `?` (trailing white space ignored), `otherwise` after any other edit;
    /// every edit re-arms the timer.
    case sentenceAware(sentenceEnd: SimDuration, otherwise: SimDuration)
    /// One delay after every edit, re-armed by each.
    case fixed(delay: SimDuration)

    /// The seed keyboard's defaults: 400 ms and 2 s.
    public static let seedDefault = DebouncePolicy.sentenceAware(sentenceEnd: .milliseconds(400), otherwise: .milliseconds(2000))

    /// The name used in scenario files and reports.
    public var name: String {
        switch self {
        case .sentenceAware: "sentence-aware"
        case .fixed: "fixed"
        }
    }

    /// The delay and trigger an edit arms, given whether the text now ends a sentence.
    public func delay(afterEditEndingSentence endsSentence: Bool) -> (delay: SimDuration, trigger: RequestTrigger) {
        switch self {
        case .sentenceAware(let sentenceEnd, let otherwise):
            endsSentence ? (sentenceEnd, .sentenceEnd) : (otherwise, .idle)
        case .fixed(let delay):
            (delay, .fixed)
        }
    }
}
