import Sim

/// What a number read from any input may be: the one place that says what a duration, a
/// count and a range of durations are, checked by every reader of them — scenario files,
/// traces (`t`, `up`, `durationMs`, …) and every calibration input (CSV, Instruments,
/// unified log, MetricKit, trace `measure` lines) — so that a value one reader accepts no
/// other refuses. Documented in docs/scenario-format.md ("Limits"), docs/trace-format.md
/// ("Limits") and docs/calibration.md ("Inputs").
///
/// - A **duration** (a time, a delay, a timeout, a constant cost, a sample, a quantile, a
///   shift, a measured duration) is finite, not negative and at most `durationNanosMax`:
///   2^53 ns = 9007199254.740992 ms, about 104 days. That is the longest single sample the
///   engine's clock takes (`SimDuration.maxNanoseconds`: every `time + duration` stays far
///   from `Int64` overflow), so a duration past it could only be clamped silently.
/// - A distribution's **scale parameters** (`meanMs`, `stddevMs`, `scaleMs`, `medianMs`,
///   `p99Ms`, `mu`, `sigma`) are finite, with no upper limit: a fitted gamma's scale may
///   well exceed every measured duration, and each draw is clamped to the duration limit.
/// - A **count** (a histogram bucket's count, the durations one name has in one input) is
///   a whole number from 0 to `countMax` (10^12): sums of millions of them stay exact in a
///   `Double` and far from `Int` overflow.
/// - A **range** of durations (a histogram bucket, a uniform distribution's `minMs`…`maxMs`)
///   has two durations for ends, the lower not above the upper.
public enum ValueLimits {
    /// The longest duration (and the latest time) any input may hold, in nanoseconds.
    public static let durationNanosMax: Int64 = SimDuration.maxNanoseconds
    /// `durationNanosMax` in milliseconds: 9007199254.740992.
    public static let durationMsMax = Double(durationNanosMax) / 1_000_000
    /// The limit as messages quote it.
    public static let durationLimitText = "at most 9007199254.740992 ms, about 104 days"
    /// The largest count of durations: a bucket's, or one name's in one input.
    public static let countMax = 1_000_000_000_000

    /// Whether `ms` is a duration: finite, not negative, at most `durationMsMax`.
    @inlinable public static func isDuration(ms: Double) -> Bool {
        ms >= 0 && ms <= durationMsMax
    }

    /// Whether `nanoseconds` is a duration: from 0 to `durationNanosMax`.
    @inlinable public static func isDuration(nanoseconds: Int64) -> Bool {
        nanoseconds >= 0 && nanoseconds <= durationNanosMax
    }

    /// Whether `x` is a count: a whole number from 0 to `countMax`.
    @inlinable public static func isCount(_ x: Double) -> Bool {
        x >= 0 && x <= Double(countMax) && x == x.rounded()
    }

    /// What is wrong with `ms` as a duration, `nil` when nothing is: a sentence fragment
    /// that follows the value's name, quoting the value as the input wrote it (`text`) and
    /// the limit: `1.2e29 ms is out of range (at most 9007199254.740992 ms, about 104 days)`.
    public static func durationProblem(ms: Double, text: String) -> String? {
        if ms.isNaN { return "must be a number of milliseconds, found \(text)" }
        if ms < 0 { return "must not be negative (found \(text) ms)" }
        if ms > durationMsMax { return "\(text) ms is out of range (\(durationLimitText))" }
        return nil
    }

    /// `durationProblem` for a value the input wrote in nanoseconds.
    public static func durationProblem(nanoseconds: Int64) -> String? {
        if nanoseconds < 0 { return "must not be negative (found \(nanoseconds) ns)" }
        if nanoseconds > durationNanosMax { return "\(nanoseconds) ns is out of range (\(durationLimitText))" }
        return nil
    }
}
