/// When to ask the cloud checker, given the edits so far. Named in scenario files by `name`.
public enum DebouncePolicy: Sendable, Equatable {
    /// The seed keyboard's policy: `sentenceEnd` after an edit that leaves the text ending
    /// in `.`, `!` or `?` (trailing white space ignored), `otherwise` after any other edit;
    /// every edit re-arms the timer.
    case sentenceAware(sentenceEnd: SimDuration, otherwise: SimDuration)
    /// One delay after every edit, re-armed by each.
    case fixed(delay: SimDuration)
    /// lodash's `debounce(wait, {leading, trailing, maxWait})`: with `leading`, the first
    /// edit of a burst sends at once; with `trailing`, the burst's last edit sends after
    /// `wait`; `maxWait` bounds how long a continuous burst may delay a send.
    case edges(wait: SimDuration, leading: Bool, trailing: Bool, maxWait: SimDuration?)
    /// At most one send per `interval`: the first edit sends at once, later edits within the
    /// interval send once at its end.
    case throttle(interval: SimDuration)
    /// Send when an edit finishes a word (or only a sentence), after `delay`.
    case boundary(sentencesOnly: Bool, delay: SimDuration)
    /// Learns the typist's rhythm: after an edit inside a sentence, waits for a quantile of
    /// this typist's recent pauses inside sentences; after one that ends a sentence, for
    /// `sentenceEnd` (at once by default). See `AdaptiveDebounce`.
    case adaptive(AdaptiveDebounce)

    /// The seed keyboard's defaults: 400 ms and 2 s.
    public static let seedDefault = DebouncePolicy.sentenceAware(sentenceEnd: .milliseconds(400), otherwise: .milliseconds(2000))

    /// The name used in scenario files and reports.
    public var name: String {
        switch self {
        case .sentenceAware: "sentence-aware"
        case .fixed: "fixed"
        case .edges: "edges"
        case .throttle: "throttle"
        case .boundary: "boundary"
        case .adaptive: "adaptive"
        }
    }
}

/// What an edit or a timer asks the keyboard to do.
public struct DebounceDecision: Sendable, Equatable {
    /// Send a request now, for this trigger.
    public var sendNow: RequestTrigger?
    /// Arm (or re-arm) the timer for this time and trigger; `nil` leaves it as it is.
    public var arm: (time: SimTime, trigger: RequestTrigger)?

    static let nothing = DebounceDecision(sendNow: nil, arm: nil)

    public static func == (a: DebounceDecision, b: DebounceDecision) -> Bool {
        a.sendNow == b.sendNow && a.arm?.time == b.arm?.time && a.arm?.trigger == b.arm?.trigger
    }
}

/// The state machine of a debounce policy. It decides; the keyboard owns the timer and
/// sends the requests (only when the text changed since the last one).
public struct Debouncer: Sendable {
    /// The policy.
    public let policy: DebouncePolicy
    private var burstStart: SimTime?
    private var lastSend: SimTime?
    private var pendingInBurst = false
    private var timerTime: SimTime?
    /// The adaptive policy's learned pauses inside sentences (empty for the others).
    private var pauses: PauseWindow
    /// The adaptive policy's last edit, and whether it left the text ending a sentence
    /// (then the pause after it is not one inside a sentence).
    private var lastEdit: (time: SimTime, endedSentence: Bool)?

    /// Whether `edit` reads `endsSentence`; when not, callers may pass `false` and spare a
    /// look at the text on every key.
    public let readsSentenceEnd: Bool
    /// Whether `edit` reads `endedSentence` and `endedWord`.
    public let readsBoundaries: Bool

    /// Creates the state machine of a policy.
    public init(_ policy: DebouncePolicy) {
        self.policy = policy
        switch policy {
        case .sentenceAware, .adaptive: (readsSentenceEnd, readsBoundaries) = (true, false)
        case .boundary: (readsSentenceEnd, readsBoundaries) = (false, true)
        case .fixed, .edges, .throttle: (readsSentenceEnd, readsBoundaries) = (false, false)
        }
        if case .adaptive(let parameters) = policy { pauses = PauseWindow(capacity: parameters.window) } else { pauses = PauseWindow(capacity: 1) }
    }

    /// The state after the field changed or pending work was cancelled: what a fresh
    /// debouncer has, except what the adaptive policy learned of the typist, which the
    /// keyboard's process still remembers. (A kill forgets it: make a new `Debouncer`.)
    public func startingOver() -> Debouncer {
        var fresh = Debouncer(policy)
        fresh.pauses = pauses
        return fresh
    }

    /// How many pauses the adaptive policy has learned (0 for the other policies).
    public var pausesLearned: Int { pauses.count }

    /// An edit landed at `now`. `endsSentence`: the text now ends a sentence (trailing white
    /// space ignored); `endedSentence`/`endedWord`: this very edit typed the boundary.
    @inline(__always)
    public mutating func edit(at now: SimTime, endsSentence: Bool, endedSentence: Bool, endedWord: Bool) -> DebounceDecision {
        switch policy {
        case .sentenceAware(let sentenceEnd, let otherwise):
            return arm(now + (endsSentence ? sentenceEnd : otherwise), endsSentence ? .sentenceEnd : .idle)
        case .fixed(let delay):
            return arm(now + delay, .fixed)
        case .edges(let wait, let leading, let trailing, let maxWait):
            let isBurstStart = timerTime == nil
            if isBurstStart { burstStart = now }
            var decision = DebounceDecision.nothing
            if isBurstStart && leading {
                decision.sendNow = .leadingEdge
                pendingInBurst = false
            } else {
                pendingInBurst = true
            }
            var fire = now + wait
            if let maxWait, let start = burstStart, start + maxWait < fire { fire = start + maxWait }
            if trailing || maxWait != nil || leading {
                decision.arm = (fire, .trailingEdge)
                timerTime = fire
            }
            return decision
        case .throttle(let interval):
            if let last = lastSend, now < last + interval {
                pendingInBurst = true
                if timerTime == nil { return arm(last + interval, .throttle) }
                return .nothing
            }
            lastSend = now
            return DebounceDecision(sendNow: .throttle, arm: nil)
        case .boundary(let sentencesOnly, let delay):
            guard endedSentence || (!sentencesOnly && endedWord) else { return .nothing }
            if delay == .zero { return DebounceDecision(sendNow: .boundary, arm: nil) }
            return arm(now + delay, .boundary)
        case .adaptive(let parameters):
            if let last = lastEdit, !last.endedSentence { pauses.add(now - last.time) }
            lastEdit = (now, endsSentence)
            if endsSentence { return arm(now + parameters.sentenceEnd, .sentenceEnd) }
            return arm(now + parameters.wait(after: pauses), .idle)
        }
    }

    /// The timer fired at `now`. Returns the trigger to send for, if any.
    public mutating func timerFired(at now: SimTime, trigger: RequestTrigger) -> RequestTrigger? {
        timerTime = nil
        switch policy {
        case .edges(_, _, let trailing, let maxWait):
            let send = pendingInBurst && (trailing || maxWait != nil)
            pendingInBurst = false
            burstStart = nil
            return send ? trigger : nil
        case .throttle:
            guard pendingInBurst else { return nil }
            pendingInBurst = false
            lastSend = now
            return trigger
        default:
            return trigger
        }
    }

    private mutating func arm(_ time: SimTime, _ trigger: RequestTrigger) -> DebounceDecision {
        timerTime = time
        return DebounceDecision(sendNow: nil, arm: (time, trigger))
    }
}
