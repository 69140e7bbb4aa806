/// Why a request was sent.
public enum RequestTrigger: String, Sendable, Equatable, CaseIterable, BitwiseCopyable {
    /// The short timer after an edit that left the text ending a sentence.
    case sentenceEnd = "sentence-end"
    /// The long timer after any other edit.
    case idle
    /// A single fixed-delay timer.
    case fixed
    /// The leading edge of a burst.
    case leadingEdge = "leading-edge"
    /// The trailing edge (or maximum wait) of a burst.
    case trailingEdge = "trailing-edge"
    /// A throttle interval.
    case throttle
    /// A word or sentence boundary.
    case boundary
}

/// How a request ended.
public enum RequestOutcome: String, Sendable, Equatable, CaseIterable {
    /// The answer arrived.
    case answered
    /// Every attempt failed (timed out, lost, or no network).
    case failed
    /// Abandoned in flight when the system killed the extension.
    case killed
    /// Refused because the user logged out: the device token is revoked.
    case revoked
    /// Abandoned in flight because the keyboard was hidden or the field changed
    /// (`cloud.whenHidden`, `cloud.whenFieldChanges`: `cancel`).
    case cancelled
    /// Its last attempt was refused (a limit's 429, an overloaded provider's 503 or 529)
    /// and the retry policy gave up; its text goes with the next request.
    case rejected
    /// Dropped after an attempt failed, because a newer request carries all its text
    /// (`cloud.retry.dropSuperseded`).
    case superseded
}

/// One request to the cloud checker, over all its attempts.
public struct RequestObservation: Sendable, Equatable {
    /// 0-based index among the replication's requests.
    public var id: Int
    /// Which timer sent it.
    public var trigger: RequestTrigger
    /// When it first left the keyboard.
    public var sent: SimTime
    /// The text version it carried.
    public var textVersion: Int
    /// Characters sent: the text changed since the last confirmed state (the token proxy).
    public var characters: Int
    /// Words it asked about.
    public var words: Int
    /// Attempts made (1 + retries).
    public var attempts: Int
    /// Attempts that timed out.
    public var timeouts: Int
    /// Attempts that failed at once for lack of a network.
    public var offlineFailures: Int
    /// Network round trip of the answered attempt.
    public var networkRoundTrip: SimDuration
    /// Time the cloud model took on the answered attempt.
    public var service: SimDuration
    /// When it ended (answer arrived, or the last attempt failed).
    public var end: SimTime
    /// How it ended.
    public var outcome: RequestOutcome
    /// Answered for a text version older than the current one.
    public var stale: Bool
    /// Words of an answered request that had changed or gone when the answer arrived: their
    /// verdicts were lost (0 for a reconciled answer).
    public var lostWords: Int = 0
    /// Input tokens its served attempts were billed (the cached ones included): the system
    /// prompt and the text, once an attempt; a request retried after a timeout pays twice,
    /// as providers bill whatever they served.
    public var inputTokens = 0
    /// Input tokens read from the provider's prompt cache.
    public var cachedTokens = 0
    /// Output tokens billed.
    public var outputTokens = 0
    /// What its served attempts cost, picodollars (10⁻¹² USD).
    public var costPicoUSD: Int64 = 0
    /// Attempts the backend refused.
    public var rejections = 0
    /// The last refusal's reason, `nil` when none was refused.
    public var rejection: RejectionReason?
    /// Time refusals added: from each refused attempt's start to the next attempt (or the end).
    public var limitWait = SimDuration.zero
    /// Time the answered attempt waited in the backend's queue (0 for the private backend).
    public var queueWait = SimDuration.zero
    /// Arrival to first token of the answered attempt (0 when none was served): a fleet's
    /// first-token percentiles come from it.
    public var firstToken = SimDuration.zero
    /// First send to end.
    public var roundTrip: SimDuration { end - sent }
    /// What its served attempts cost, USD: the exact picodollars ÷ 10¹².
    public var costUSD: Double { Double(costPicoUSD) / 1e12 }
}
