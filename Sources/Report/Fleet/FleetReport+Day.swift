import Scenarios
import Sim

/// The hours of a fleet report's day, for the by-hour table and the `--json` document's
/// `hours`; the day's figures are `FleetResult.summary`.
extension FleetReport {
    /// The span's hours, each with its hour of the day (0…23); minutes past the span (the
    /// last sessions draining) belong to the last hour (`FleetResult.spanHour(ofMinute:)`).
    public var hours: [(hourOfDay: Int, span: FleetSpan)] {
        let minutes = result.minutes
        guard !minutes.isEmpty else { return [] }
        let count = min(result.spanHourCount, (minutes.count + 59) / 60)
        return (0..<count).map { hour in
            let end = hour == count - 1 ? minutes.count : (hour + 1) * 60
            return ((result.startHour + hour) % 24, FleetSpan(minutes[hour * 60..<end]))
        }
    }
}
