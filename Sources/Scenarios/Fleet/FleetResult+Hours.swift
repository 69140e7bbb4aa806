import Sim

// The hours of a fleet's span, one rule for the summary, the by-hour table and the
// busiest-hour metrics: the span's whole hours from `startHour`, the minutes past the span
// (the last sessions draining) belonging to its last hour.

extension FleetResult {
    /// The span's hours: at least one.
    public var spanHourCount: Int { max(1, spanMinutes / 60) }

    /// The 0-based hour of the span that `minutes[minute]` belongs to.
    public func spanHour(ofMinute minute: Int) -> Int { min(minute / 60, spanHourCount - 1) }

    /// The minutes of an hour of the day (0…23); none when the span does not cover it.
    public func minutes(inHourOfDay hour: Int) -> [FleetMinute] {
        let index = ((hour - startHour) % 24 + 24) % 24
        guard index < spanHourCount else { return [] }
        return minutes.filter { spanHour(ofMinute: $0.minute) == index }
    }
}
