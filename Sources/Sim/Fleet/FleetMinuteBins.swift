/// The minutes of one partition while it runs: every session's sink adds to them, and the
/// runner adds the backend's meter at each minute boundary. They are shared by reference
/// without locks, by the sessions stepping on one thread: a helper thread that steps
/// sessions ahead (`FleetHelpers`) has minutes of its own, a lane, added in at the end
/// (`absorb`), which gives the same minutes since everything in them adds.
public final class FleetMinuteBins {
    /// The minutes so far (grown as fleet time passes). Every key a session handles adds to
    /// them, so they go without the run-time check that no two accesses overlap (some 80
    /// instructions per access, two a key): the bins are touched by one thread at a time, and
    /// nothing touches them from inside a change.
    @exclusivity(unchecked)
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

    /// Adds a lane's minutes (made with no replicas) to these, minute by minute.
    public func absorb(_ lane: FleetMinuteBins) {
        precondition(lane.replicas == 0, "a lane adds no replicas")
        if let last = lane.minutes.last { _ = index(Int64(last.minute) * FleetMinute.lengthNanos) }
        for minute in lane.minutes { minutes[minute.minute].merge(minute) }
    }
}
