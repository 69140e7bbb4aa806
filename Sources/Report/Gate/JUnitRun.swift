import Foundation

/// When, where and for how long a gate ran: the attributes CI test reporters show beside a
/// JUnit test run (`timestamp`, `hostname`, `time`).
///
/// They change from run to run, so they go into the JUnit file only; every other output of
/// a gate (report, summary, JSON verdict) stays the same for the same inputs.
public struct JUnitRun: Sendable, Equatable {
    /// The start, ISO 8601 in UTC to the second (`2026-12-01T14:59:33Z`).
    public var timestamp: String
    /// The machine's host name.
    public var hostname: String
    /// Wall-clock seconds from the start to the verdict.
    public var seconds: Double

    /// A run's attributes as given.
    public init(timestamp: String, hostname: String, seconds: Double) {
        self.timestamp = timestamp
        self.hostname = hostname
        self.seconds = seconds
    }

    /// The run that started at `start` and ends now, on this machine.
    public init(startedAt start: Date, now: Date = Date(), hostname: String = ProcessInfo.processInfo.hostName) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        self.init(timestamp: formatter.string(from: start), hostname: hostname, seconds: max(0, now.timeIntervalSince(start)))
    }

    /// Seconds with three decimals, as JUnit's `time` (Surefire's schema allows at most three).
    var time: String { String(format: "%.3f", seconds) }
}
