import Scenarios
import Sim

// An hour's verdict coverage, as the busiest-hour metric reads it (the hours are
// `FleetResult+Hours`).

extension FleetResult {
    /// The verdict coverage of the underlines ending in an hour of the day; nil for none.
    public func verdictCoverage(inHourOfDay hour: Int) -> Double? {
        let minutes = minutes(inHourOfDay: hour)
        let ended = minutes.reduce(0) { $0 + $1.underlinesEnded }
        return ended == 0 ? nil : Double(minutes.reduce(0) { $0 + $1.underlinesWithVerdict }) / Double(ended)
    }
}
