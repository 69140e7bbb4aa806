/// A point on the simulated clock, in integer nanoseconds since the start of a replication.
///
/// Time is never a `Double` inside keysim: sums of floating-point milliseconds drift, and
/// drift breaks the promise that the same inputs give the same report on every machine.
public struct SimTime: Comparable, Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Nanoseconds since the start of the replication.
    public var nanoseconds: Int64

    /// The start of every replication.
    public static let zero = SimTime(nanoseconds: 0)
    /// A time later than any event can be scheduled; used as "never".
    public static let never = SimTime(nanoseconds: .max)

    /// Creates a time from integer nanoseconds.
    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Creates a time from (possibly fractional) milliseconds, rounded to the nearest nanosecond.
    public init(milliseconds: Double) {
        self.nanoseconds = SimDuration(milliseconds: milliseconds).nanoseconds
    }

    /// The time in milliseconds, for display and reports only.
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    @inlinable public static func < (lhs: SimTime, rhs: SimTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    @inlinable public static func + (lhs: SimTime, rhs: SimDuration) -> SimTime {
        SimTime(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }
    @inlinable public static func - (lhs: SimTime, rhs: SimDuration) -> SimTime {
        SimTime(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }
    @inlinable public static func - (lhs: SimTime, rhs: SimTime) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    public var description: String { "\(milliseconds) ms" }
}

/// A span of simulated time, in integer nanoseconds.
public struct SimDuration: Comparable, Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// The length in nanoseconds; negative only as the result of a subtraction.
    public var nanoseconds: Int64

    /// No time at all.
    public static let zero = SimDuration(nanoseconds: 0)

    /// Creates a duration from integer nanoseconds.
    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Creates a duration from (possibly fractional) milliseconds, rounded to the nearest
    /// nanosecond and clamped to about 106 days so that no sample can overflow the clock.
    public init(milliseconds: Double) {
        precondition(!milliseconds.isNaN, "a duration cannot be NaN")
        // Clamped first (then whole, so rounding leaves the clamp alone) and rounded half away
        // from zero as `rounded()` does, but inline: the library call cost a tenth of a
        // keyboard task. `clamped − truncated` is exact for every double.
        let limit = Double(SimDuration.maxNanoseconds)
        let clamped = Swift.max(-limit, Swift.min(limit, milliseconds * 1_000_000))
        let truncated = Int64(clamped)
        let fraction = clamped - Double(truncated)
        self.nanoseconds = truncated + (fraction >= 0.5 ? 1 : fraction <= -0.5 ? -1 : 0)
    }

    /// Creates a duration from whole milliseconds.
    @inlinable public static func milliseconds(_ ms: Int64) -> SimDuration {
        SimDuration(nanoseconds: ms * 1_000_000)
    }
    /// Creates a duration from whole microseconds.
    @inlinable public static func microseconds(_ us: Int64) -> SimDuration {
        SimDuration(nanoseconds: us * 1_000)
    }
    /// Creates a duration from whole seconds.
    @inlinable public static func seconds(_ s: Int64) -> SimDuration {
        SimDuration(nanoseconds: s * 1_000_000_000)
    }

    /// The longest duration a single sample may take (2^53 ns, about 104 days): keeps every
    /// `SimTime + SimDuration` far from `Int64` overflow.
    public static let maxNanoseconds: Int64 = 1 << 53

    /// The duration in milliseconds, for display and reports only.
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    @inlinable public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    @inlinable public static func + (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }
    @inlinable public static func - (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }
    @inlinable public static func * (lhs: SimDuration, rhs: Int64) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds * rhs)
    }

    public var description: String { "\(milliseconds) ms" }
}
