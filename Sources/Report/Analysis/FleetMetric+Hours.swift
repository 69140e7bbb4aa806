import Scenarios
import Sim

// The hours of a fleet's day, as the busiest-hour metrics read them.

extension FleetResult {
    /// The minutes of an hour of the day (0…23), as `FleetSummary` counts them: the drain
    /// after the span belongs to the span's last hour.
    public func minutes(inHourOfDay hour: Int) -> [FleetMinute] {
        let hours = max(1, spanMinutes / 60)
        let index = ((hour - startHour) % 24 + 24) % 24
        guard index < hours else { return [] }
        return minutes.filter { min($0.minute / 60, hours - 1) == index }
    }

    /// The verdict coverage of the underlines ending in an hour of the day; nil for none.
    public func verdictCoverage(inHourOfDay hour: Int) -> Double? {
        let minutes = minutes(inHourOfDay: hour)
        let ended = minutes.reduce(0) { $0 + $1.underlinesEnded }
        return ended == 0 ? nil : Double(minutes.reduce(0) { $0 + $1.underlinesWithVerdict }) / Double(ended)
    }
}
