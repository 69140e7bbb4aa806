/// The parameters of the adaptive debounce policy (`debounce.policy: "adaptive"`), which
/// learns the typist's rhythm as they type: it asks the cloud when the current pause has
/// outlasted a quantile of this person's own recent pauses inside a sentence, and at once
/// when an edit ends a sentence.
///
/// A fixed timer waits as long for a typist who pauses 300 ms between words as for one who
/// pauses a second: it fires in the slow typist's ordinary pauses (requests for half-typed
/// sentences) and leaves the fast one waiting. Measured against the person's own pauses, one
/// quantile means "has stopped for longer than they usually do" for both.
public struct AdaptiveDebounce: Sendable, Equatable {
    /// Which quantile of the recent pauses the current pause must outlast, in (0, 1].
    public var quantile: Double
    /// The learned quantile is multiplied by this before use (1: the quantile itself).
    public var scale: Double
    /// The shortest wait, however fast the typist.
    public var minimum: SimDuration
    /// The longest wait, however slow the typist; also the wait until `warmup` pauses are known.
    public var maximum: SimDuration
    /// How many recent pauses are kept (older ones are forgotten, so a typist who slows
    /// down or warms up is followed).
    public var window: Int
    /// Pauses needed before the learned quantile is used instead of `maximum`.
    public var warmup: Int
    /// The wait after an edit that leaves the text ending a sentence (`.` `!` `?`, trailing
    /// white space ignored); zero sends at once.
    public var sentenceEnd: SimDuration

    /// The documented defaults (docs/models.md, "The adaptive policy"): the 90th percentile
    /// of the last 64 pauses, scaled by 1.5, between 400 ms and 2 s, after 10 pauses; a
    /// sentence end sends at once.
    public static let defaults = AdaptiveDebounce(
        quantile: 0.9, scale: 1.5, minimum: .milliseconds(400), maximum: .milliseconds(2000), window: 64, warmup: 10,
        sentenceEnd: .zero)

    /// The most pauses a window may keep.
    public static let windowMax = 4096

    /// Creates the parameters.
    /// - Precondition: `0 < quantile <= 1`, `scale > 0`, `0 <= minimum <= maximum`,
    ///   `1 <= window <= windowMax`, `0 <= warmup <= window`, `sentenceEnd >= 0`.
    public init(quantile: Double, scale: Double, minimum: SimDuration, maximum: SimDuration, window: Int, warmup: Int,
                sentenceEnd: SimDuration) {
        precondition(quantile > 0 && quantile <= 1, "the quantile is in (0, 1]")
        precondition(scale > 0 && scale.isFinite, "the scale is a positive number")
        precondition(minimum >= .zero && minimum <= maximum, "0 <= minimum <= maximum")
        precondition(window >= 1 && window <= Self.windowMax && warmup >= 0 && warmup <= window, "1 <= window <= windowMax, 0 <= warmup <= window")
        precondition(sentenceEnd >= .zero, "the sentence-end wait is not negative")
        self.quantile = quantile
        self.scale = scale
        self.minimum = minimum
        self.maximum = maximum
        self.window = window
        self.warmup = warmup
        self.sentenceEnd = sentenceEnd
    }

    /// The wait after an edit inside a sentence, given the pauses learned so far.
    func wait(after pauses: PauseWindow) -> SimDuration {
        guard pauses.count >= max(warmup, 1), let learned = pauses.quantile(quantile) else { return maximum }
        // Scaled in doubles (nanoseconds up to about 2^53 are exact), clamped in integers.
        let scaled = SimDuration(nanoseconds: Int64(min(Double(maximum.nanoseconds), (Double(learned.nanoseconds) * scale).rounded())))
        return min(maximum, max(minimum, scaled))
    }
}
