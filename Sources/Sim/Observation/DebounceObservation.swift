/// What happened to the debounce timer in front of the cloud checker.
public enum DebounceEvent: String, Sendable, Equatable, CaseIterable, BitwiseCopyable {
    /// An edit armed the timer, which was not armed.
    case arm
    /// An edit moved the armed timer to a new time (the seed keyboard's every key does).
    case rearm
    /// The armed timer was stopped before it fired: a kill, or the keyboard hidden or the
    /// field changed under `cancel`.
    case cancel
    /// The timer fired: at its time, or early when the keyboard was hidden or the field
    /// changed under `send`.
    case fire
}

/// One arm, re-arm, cancel or fire of the debounce timer: what the timelines draw as the
/// timer's slices and instants, and what links an edit to the request its timer sent.
public struct DebounceObservation: Sendable, Equatable, BitwiseCopyable {
    /// When it happened.
    public var time: SimTime
    /// What happened.
    public var event: DebounceEvent
    /// When the timer is due: the new time for an arm or re-arm, the time it had for a
    /// cancel or fire (a fire earlier than this was brought forward).
    public var due: SimTime
    /// The key whose edit armed the timer: this edit's for an arm or re-arm, the last arming
    /// edit's for a cancel or fire; nil for dictated text or an applied fix.
    public var keyIndex: Int?
    /// Why the timer was armed, as the request it sends will say.
    public var trigger: RequestTrigger
    /// The request a fire sent; nil for a fire that sent nothing (the text had not changed)
    /// and for the other events.
    public var requestID: Int?

    /// A record of `event` at `time`.
    public init(time: SimTime, event: DebounceEvent, due: SimTime, keyIndex: Int?, trigger: RequestTrigger, requestID: Int? = nil) {
        self.time = time
        self.event = event
        self.due = due
        self.keyIndex = keyIndex
        self.trigger = trigger
        self.requestID = requestID
    }
}
