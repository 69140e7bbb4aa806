/// The clock and the pending events of one replication.
///
/// The engine only orders events; models decide what an event means. A model's run loop is
///
///     while let event = engine.next() { handle(event, &engine) }
///
/// Time only moves when `next()` pops an event, and it never moves backwards.
public struct Engine<Event> {
    /// The current simulated time: the time of the event last returned by `next()`.
    @inlinable public var now: SimTime { clock }
    /// The events processed so far.
    @inlinable public var eventsProcessed: Int { processed }
    @usableFromInline var clock: SimTime = .zero
    @usableFromInline var processed: Int = 0
    @usableFromInline var queue: EventQueue<Event>
    /// Events posted without a handle, ordered with `queue`'s by the same keys.
    @usableFromInline var posts = PostQueue<Event>()
    @usableFromInline let pendingEventsMax: Int
    /// The latest time and the most events this engine runs to; past either `next()`
    /// returns nil and `limitReached` says which.
    public var limits = RunLimits() {
        didSet { timeMaxNanos = limits.simulatedTimeMax.nanoseconds; eventsMax = limits.eventsMax }
    }
    @usableFromInline var timeMaxNanos = RunLimits().simulatedTimeMax.nanoseconds
    @usableFromInline var eventsMax = RunLimits().eventsMax
    /// Set when an event fell past a limit: it was not handled, and the engine hands out
    /// no more events.
    public private(set) var limitReached: RunLimitError?

    /// Creates an engine at time zero with no pending events.
    /// - Parameter pendingEventsMax: the most events that may be pending at once.
    public init(pendingEventsMax: Int = 1 << 24) {
        queue = EventQueue(capacityMax: pendingEventsMax)
        self.pendingEventsMax = pendingEventsMax
    }

    /// Whether an event at `time` may still be handled; records the limit reached when not.
    @inlinable @inline(__always)
    mutating func allows(_ time: Int64) -> Bool {
        if _fastPath(time <= timeMaxNanos && processed < eventsMax) { return true }
        noteLimit(time)
        return false
    }

    @usableFromInline
    mutating func noteLimit(_ time: Int64) {
        guard limitReached == nil else { return }
        let limit: RunLimitError.Limit = time > timeMaxNanos ? .simulatedTime(limits.simulatedTimeMax) : .events(eventsMax)
        limitReached = RunLimitError(limit: limit, time: SimTime(nanoseconds: time), eventsProcessed: processed)
    }

    /// The number of pending events.
    public var pendingCount: Int { queue.count + posts.count }

    /// Whether nothing is left to happen.
    public var isIdle: Bool { queue.isEmpty && posts.isEmpty }

    /// The time of the next pending event.
    public var nextEventTime: SimTime? { earliestKey.map { SimTime(nanoseconds: EventQueue<Event>.time(ofKey: $0)) } }

    /// The key of the earliest pending event, scheduled or posted.
    @inlinable var earliestKey: UInt128? {
        guard let queued = queue.earliestKey else { return posts.earliestKey }
        return Swift.min(queued, posts.earliest)
    }

    /// Posts an event at an absolute time (not in the past) with no handle: it cannot be
    /// cancelled or moved, and costs less than `schedule` for it. It orders among scheduled
    /// events exactly as if scheduled now.
    /// - Complexity: O(log p) for p posted events pending.
    @inlinable
    public mutating func post(_ event: Event, at time: SimTime) {
        precondition(time >= now, "cannot post in the past: \(time) < \(now)")
        precondition(posts.count < pendingEventsMax, "engine is over its limit of \(pendingEventsMax) posted events")
        posts.insert(event, key: queue.reserveKey(time: time.nanoseconds))
    }

    /// Schedules an event at an absolute time, which must not be in the past.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func schedule(_ event: Event, at time: SimTime) -> TimerHandle {
        precondition(time >= now, "cannot schedule in the past: \(time) < \(now)")
        return queue.schedule(event, at: time.nanoseconds)
    }

    /// Schedules an event a non-negative duration from now.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func schedule(_ event: Event, after delay: SimDuration) -> TimerHandle {
        precondition(delay.nanoseconds >= 0, "negative delay \(delay)")
        return queue.schedule(event, at: now.nanoseconds + delay.nanoseconds)
    }

    /// Cancels a pending event; `false` if it already fired or was cancelled.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func cancel(_ handle: TimerHandle) -> Bool { queue.cancel(handle) }

    /// Moves a pending event to a new time (not in the past), replacing the event when one is
    /// given; `false` if it is no longer pending.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public mutating func reschedule(_ handle: TimerHandle, to time: SimTime, event: Event? = nil) -> Bool {
        precondition(time >= now, "cannot reschedule into the past: \(time) < \(now)")
        return queue.reschedule(handle, to: time.nanoseconds, payload: event)
    }

    /// Whether the handle's event is still pending.
    @inlinable public func isPending(_ handle: TimerHandle) -> Bool { queue.isPending(handle) }

    /// The time a pending event will fire at.
    public func fireTime(of handle: TimerHandle) -> SimTime? {
        queue.time(of: handle).map(SimTime.init(nanoseconds:))
    }

    /// Pops the earliest event and advances the clock to its time.
    /// - Complexity: O(log n)
    @inlinable @inline(__always)
    public mutating func next() -> Event? {
        // `posts.earliest` is UInt128.max when nothing is posted, later than any real key.
        guard posts.isEmpty || queue.earliestKey.map({ $0 < posts.earliest }) == true else { return nextPosted() }
        guard let key = queue.earliestKey, allows(EventQueue<Event>.time(ofKey: key)),
              let (time, event) = queue.popEarliest() else { return nil }
        advance(to: time)
        return event
    }

    /// Pops the earliest posted event. Kept out of `next()` so that `next()` stays small
    /// enough to inline into a caller's loop.
    @usableFromInline
    mutating func nextPosted() -> Event? {
        let time = EventQueue<Event>.time(ofKey: posts.earliest)
        guard allows(time) else { return nil }
        let event = posts.removeEarliest()
        advance(to: time)
        return event
    }

    @inlinable @inline(__always)
    mutating func advance(to time: Int64) {
        precondition(time >= now.nanoseconds, "time went backwards")
        clock = SimTime(nanoseconds: time)
        processed += 1
    }

    /// A place in the event order kept for an event that is not in the queue: the next
    /// event of a stream read one at a time, such as a trace. It orders among the queued
    /// events exactly as if it had been scheduled when reserved.
    public struct Reservation: Sendable {
        @usableFromInline let key: UInt128
        @usableFromInline init(key: UInt128) { self.key = key }
    }

    /// What `next(or:)` found first.
    public enum Step {
        /// A queued event, now removed from the queue.
        case event(Event)
        /// The reserved event: it is due now.
        case reserved
    }

    /// Reserves the place of an event at `time` (not in the past) without queueing it. A
    /// model that streams its input keeps one reservation for the input's next event instead
    /// of scheduling it: the same order for no heap work and no payload to store.
    @inlinable
    public mutating func reserve(at time: SimTime) -> Reservation {
        precondition(time >= now, "cannot reserve in the past: \(time) < \(now)")
        return Reservation(key: queue.reserveKey(time: time.nanoseconds))
    }

    /// Advances to whichever comes first, the earliest queued event or `reserved`: pops and
    /// returns the event, or returns `.reserved`. Either counts as an event processed; `nil`
    /// when nothing is queued and nothing reserved.
    /// - Complexity: O(log n) for a queued event, O(1) for the reserved one.
    @inlinable @inline(__always)
    public mutating func next(or reserved: Reservation?) -> Step? {
        if let reserved, reserved.key < earliestKey ?? .max {
            let time = EventQueue<Event>.time(ofKey: reserved.key)
            guard allows(time) else { return nil }
            advance(to: time)
            return .reserved
        }
        // Unwrapped here, not mapped with `Step.event`: a function reference is a closure,
        // called through a thunk on every event.
        guard let event = next() else { return nil }
        return .event(event)
    }

    /// Pops the earliest event only if it fires at or before `limit`.
    @inlinable
    public mutating func next(notAfter limit: SimTime) -> Event? {
        guard let key = earliestKey, EventQueue<Event>.time(ofKey: key) <= limit.nanoseconds else { return nil }
        return next()
    }
}

/// A one-shot timer that can be armed, re-armed and cancelled, as a debounce timer is.
///
/// Keeps the handle of its pending event so that re-arming moves the same event in
/// O(log n) instead of leaving stale events behind.
public struct SimTimer: Sendable {
    @usableFromInline var handle: TimerHandle?

    /// Creates a disarmed timer.
    public init() {}

    /// Arms the timer to fire `event` at `time`, moving it if it is already armed.
    @inlinable
    public mutating func arm<Event>(_ event: Event, at time: SimTime, in engine: inout Engine<Event>) {
        if let handle, engine.reschedule(handle, to: time, event: event) { return }
        handle = engine.schedule(event, at: time)
    }

    /// Disarms the timer; nothing happens if it is not armed.
    @inlinable
    public mutating func cancel<Event>(in engine: inout Engine<Event>) {
        if let handle { engine.cancel(handle) }
        handle = nil
    }

    /// Whether the timer is armed and has not fired yet.
    @inlinable
    public func isArmed<Event>(in engine: Engine<Event>) -> Bool {
        guard let handle else { return false }
        return engine.isPending(handle)
    }

    /// The time the timer fires at, if armed.
    public func fireTime<Event>(in engine: Engine<Event>) -> SimTime? {
        guard let handle else { return nil }
        return engine.fireTime(of: handle)
    }
}
