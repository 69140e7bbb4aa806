import Scenarios
import Sim

extension FleetResult {
    /// The fleet run a report holds, as its metrics and day page read it. The report keeps
    /// no span of the day, so its minutes are read as a whole day from midnight: every
    /// minute is the span's, and a day's cost is the minutes' cost scaled by represents ÷ users.
    init(_ report: FleetReport) {
        self.init(scenarioName: report.scenarioName, fingerprint: report.fingerprint, seed: report.seed, users: report.users,
                  represents: report.represents, partitionCount: report.partitionCount, partitions: report.partitions,
                  spanMinutes: report.minutes.count, startHour: 0, dayShare: 1, minutes: report.minutes, sessions: report.sessions,
                  sessionsOpenMax: report.sessionsOpenMax)
    }
}
