/// The most one replication may grow: a limit on its simulated time and on the events it
/// processes, so that a scenario whose costs run away (a key that costs days, a token
/// refresh that never catches up) ends with a clear error instead of a hang or a clock
/// that overflows.
///
/// The defaults are far above any real trace (hours of typing are a few million events):
/// 30 days of simulated time and 200 million events.
public struct RunLimits: Sendable, Equatable {
    /// The latest simulated time an event may be handled at.
    public var simulatedTimeMax: SimTime
    /// The most events one replication may process.
    public var eventsMax: Int

    /// The default simulated-time limit, in hours (30 days).
    public static let simulatedHoursMaxDefault = 720
    /// The largest simulated-time limit accepted, in hours (10 years): with every draw capped
    /// at `SimDuration.maxNanoseconds`, times stay far from `Int64.max`.
    public static let simulatedHoursMaxLimit = 87_600
    /// The default event limit.
    public static let eventsMaxDefault = 200_000_000

    /// Creates limits; the defaults unless told otherwise.
    public init(simulatedTimeMax: SimTime = SimTime(nanoseconds: Int64(simulatedHoursMaxDefault) * 3_600_000_000_000),
                eventsMax: Int = eventsMaxDefault) {
        self.simulatedTimeMax = simulatedTimeMax
        self.eventsMax = eventsMax
    }
}

/// A replication stopped at one of its `RunLimits`.
public struct RunLimitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which limit was reached.
    public enum Limit: Sendable, Equatable {
        /// An event fell after `RunLimits.simulatedTimeMax`.
        case simulatedTime(SimTime)
        /// `RunLimits.eventsMax` events were processed.
        case events(Int)
        /// More tasks than the thread's limit waited at once.
        case queuedTasks(thread: String, limit: Int)
    }

    /// The limit reached.
    public var limit: Limit
    /// The simulated time of the event that reached it.
    public var time: SimTime
    /// The events processed by then.
    public var eventsProcessed: Int

    /// Creates an error.
    public init(limit: Limit, time: SimTime, eventsProcessed: Int) {
        self.limit = limit
        self.time = time
        self.eventsProcessed = eventsProcessed
    }

    public var description: String {
        let seconds = Double(time.nanoseconds) / 1e9
        let at = seconds < 3600 ? "\(seconds.formatted1) s" : "\((seconds / 3600).formatted1) h"
        switch limit {
        case .simulatedTime(let max):
            return "the replication passed its limit of \(max.nanoseconds / 3_600_000_000_000) hours of simulated time "
                + "(an event at \(at), after \(eventsProcessed) events): a cost or delay is far too large; "
                + "raise limits.simulatedHoursMax if the trace is really that long"
        case .events(let max):
            return "the replication passed its limit of \(max) events (at \(at) of simulated time): "
                + "something schedules work without end; raise limits.eventsMax if the trace is really that long"
        case .queuedTasks(let thread, let max):
            return "more than \(max) tasks waited at once on the \(thread) thread (at \(at) of simulated time): "
                + "the trace holds more work at one time than a keyboard could queue, or a cost is far too large"
        }
    }
}

private extension Double {
    /// One decimal, without Foundation.
    var formatted1: String {
        let tenths = (self * 10).rounded()
        guard tenths.isFinite, abs(tenths) < 1e15 else { return "\(self)" }
        let whole = Int64(tenths)
        return "\(whole / 10).\(abs(whole % 10))"
    }
}
