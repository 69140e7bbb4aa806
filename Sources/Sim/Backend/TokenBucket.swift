/// A token bucket refilled continuously, in integer arithmetic: `ratePerMinute` tokens a
/// minute flow in, up to `capacity`; taking `n` tokens needs `n` in the bucket. Its level is
/// kept in units of a sixty-billionth of a token (one token is 60 × 10⁹ units), so that a
/// nanosecond adds exactly `ratePerMinute` units and no rounding ever happens.
///
/// A bucket of capacity B refilled at N a minute admits at most N + B − 1 tokens' worth in
/// any 60 s window (half-open): with B = 1, at most N requests a minute, evenly spaced at
/// best.
struct TokenBucket: Sendable, Equatable {
    /// Units in one token: nanoseconds in a minute.
    static let unitsPerToken: Int64 = 60_000_000_000
    /// The largest rate and capacity, tokens: keeps every level below 2⁶³.
    static let tokensMax: Int64 = 100_000_000

    /// Tokens added a minute.
    let ratePerMinute: Int64
    /// The most tokens the bucket holds.
    let capacity: Int64
    /// Units in the bucket at `updated`.
    private(set) var levelUnits: Int64
    private(set) var updated: SimTime

    /// A full bucket at time zero.
    init(ratePerMinute: Int64, capacity: Int64) {
        precondition(ratePerMinute >= 1 && ratePerMinute <= Self.tokensMax, "a rate of 1 to 10⁸ tokens a minute")
        precondition(capacity >= 1 && capacity <= Self.tokensMax, "a capacity of 1 to 10⁸ tokens")
        self.ratePerMinute = ratePerMinute
        self.capacity = capacity
        levelUnits = capacity * Self.unitsPerToken
        updated = .zero
    }

    /// Refills up to `now` (which must not go backwards).
    mutating func refill(to now: SimTime) {
        precondition(now >= updated, "a bucket's time never goes backwards")
        let missing = capacity * Self.unitsPerToken - levelUnits
        let elapsed = (now - updated).nanoseconds
        // `elapsed × rate` is computed only when it is below `missing`, so it cannot overflow.
        levelUnits = elapsed >= (missing + ratePerMinute - 1) / ratePerMinute ? capacity * Self.unitsPerToken
            : levelUnits + elapsed * ratePerMinute
        updated = now
    }

    /// How long after the last refill `tokens` tokens will be in the bucket: zero when they
    /// are now, `nil` when they never will be (more than the capacity).
    func wait(for tokens: Int64) -> SimDuration? {
        guard tokens <= capacity else { return nil }
        let short = tokens * Self.unitsPerToken - levelUnits
        return short <= 0 ? .zero : SimDuration(nanoseconds: (short + ratePerMinute - 1) / ratePerMinute)
    }

    /// Takes `tokens` tokens, which must be in the bucket.
    mutating func take(_ tokens: Int64) {
        precondition(tokens * Self.unitsPerToken <= levelUnits, "a bucket gives only what it holds")
        levelUnits -= tokens * Self.unitsPerToken
    }

    /// Checks that the level lies between empty and full.
    func checkInvariants() {
        precondition(levelUnits >= 0 && levelUnits <= capacity * Self.unitsPerToken, "a bucket's level lies between empty and full")
    }
}
