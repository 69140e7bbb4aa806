/// The minutes of one partition while it runs: every session's sink adds to them, and the
/// runner adds the backend's meter at each minute boundary. One partition runs on one
/// thread, so its minutes are shared by reference without locks.
public final class FleetMinuteBins {
    /// The minutes so far (grown as fleet time passes).
    public private(set) var minutes: [FleetMinute]
    /// The partition's replicas.
    public let replicas: Int

    /// The span's minutes, empty.
    public init(spanMinutes: Int, replicas: Int) {
        self.replicas = replicas
        minutes = (0..<spanMinutes).map { FleetMinute(minute: $0, replicas: replicas) }
    }

    /// The minute holding fleet time `nanos`, grown when past the last.
    public func index(_ nanos: Int64) -> Int {
        let index = Int(max(0, nanos) / FleetMinute.lengthNanos)
        while minutes.count <= index { minutes.append(FleetMinute(minute: minutes.count, replicas: replicas)) }
        return index
    }

    /// Changes the minute holding fleet time `nanos`.
    public func update(at nanos: Int64, _ change: (inout FleetMinute) -> Void) {
        change(&minutes[index(nanos)])
    }

    /// Adds ∫ open sessions over [from, to) (fleet nanoseconds), cut at minute boundaries.
    public func addOpen(from: Int64, to: Int64) {
        var start = from
        while start < to {
            let minute = index(start)
            let end = min(to, Int64(minute + 1) * FleetMinute.lengthNanos)
            minutes[minute].openSessionNanos += end - start
            start = end
        }
    }
}
