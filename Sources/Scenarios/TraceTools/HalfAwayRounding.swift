/// `Double.rounded()` (to nearest, ties away from zero) without the call into the C library
/// that it compiles to on this target: the typist rounds every interval it draws to the
/// microsecond and every touch to a tenth of a point. The same result, bit for bit
/// (`HalfAwayRoundingTests`, over millions of values, ties, signed zeros and huge ones).
enum HalfAwayRounding {
    /// `Int64(x.rounded())`; traps where that traps (NaN, out of range).
    @inline(__always)
    static func int64(_ x: Double) -> Int64 {
        // Below 2⁵² in magnitude the fraction x − trunc(x) is exact; above, x is an integer
        // and the fraction is zero (so ±1 never overflows). Without branches: a drawn
        // interval's fraction is as likely over ½ as under, a branch the processor would
        // guess wrong half the time.
        let truncated = Int64(x)
        let fraction = x - Double(truncated)
        return truncated &+ Int64(fraction >= 0.5 ? 1 : 0) &- Int64(fraction <= -0.5 ? 1 : 0)
    }

    /// `x.rounded()`.
    @inline(__always)
    static func double(_ x: Double) -> Double {
        guard x.magnitude < 0x1p52 else { return x.rounded() }
        let rounded = int64(x)
        // A value rounded to zero keeps its sign, as C's round does.
        return rounded == 0 ? (x.sign == .minus ? -0.0 : 0.0) : Double(rounded)
    }
}
