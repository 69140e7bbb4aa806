/// Transcription latency as a function of clip length: measured points, each a clip length
/// with the fastest and slowest latency seen, linear in between and extended linearly
/// beyond the first and last points (never below zero).
///
/// A draw takes one uniform `u` and returns `min(L) + u · (max(L) − min(L))`, so a sweep
/// over the clip length moves each draw monotonically.
public struct TranscriptionCurve: Sendable, Equatable {
    /// One measurement.
    public struct Point: Sendable, Equatable {
        /// The clip length, in milliseconds.
        public var clipMs: Double
        /// The fastest transcription of such a clip, in milliseconds.
        public var minMs: Double
        /// The slowest, in milliseconds.
        public var maxMs: Double
        /// Creates a point.
        public init(clipMs: Double, minMs: Double, maxMs: Double) {
            self.clipMs = clipMs
            self.minMs = minMs
            self.maxMs = maxMs
        }
    }

    /// The points, by increasing clip length.
    public var points: [Point]

    /// Creates a curve; see `problem` for what makes one valid.
    public init(_ points: [Point]) { self.points = points }

    /// The seed's Neural Engine: a 3.4 s clip in 53–72 ms, a 20.6 s clip in 185–263 ms.
    public static let seedNeuralEngine = TranscriptionCurve([
        Point(clipMs: 3400, minMs: 53, maxMs: 72), Point(clipMs: 20600, minMs: 185, maxMs: 263),
    ])
    /// The seed's CPU: a 3.4 s clip in 111–120 ms, a 20.6 s clip in 285–291 ms.
    public static let seedCPU = TranscriptionCurve([
        Point(clipMs: 3400, minMs: 111, maxMs: 120), Point(clipMs: 20600, minMs: 285, maxMs: 291),
    ])

    /// Why the curve is unusable, or `nil`: it needs at least one point, finite values,
    /// clip lengths that increase, and `0 <= minMs <= maxMs` at every point.
    public var problem: String? {
        guard !points.isEmpty else { return "needs at least one point" }
        for (i, p) in points.enumerated() {
            guard p.clipMs.isFinite, p.minMs.isFinite, p.maxMs.isFinite, p.clipMs >= 0 else {
                return "point \(i): values must be finite and clipMs not negative"
            }
            guard p.minMs >= 0, p.maxMs >= p.minMs else { return "point \(i): needs 0 <= minMs <= maxMs" }
            if i > 0, p.clipMs <= points[i - 1].clipMs { return "point \(i): clipMs must increase" }
        }
        return nil
    }

    /// The fastest and slowest latency for a clip of `clipMs` milliseconds.
    public func range(clipMs: Double) -> (min: Double, max: Double) {
        precondition(problem == nil, "invalid transcription curve: \(problem!)")
        guard points.count > 1 else { return (points[0].minMs, points[0].maxMs) }
        // The segment that holds clipMs, or the first or last one to extrapolate.
        var upper = 1
        while upper < points.count - 1 && clipMs > points[upper].clipMs { upper += 1 }
        let a = points[upper - 1], b = points[upper]
        let t = (clipMs - a.clipMs) / (b.clipMs - a.clipMs)
        let low = Swift.max(0, a.minMs + t * (b.minMs - a.minMs))
        let high = Swift.max(low, a.maxMs + t * (b.maxMs - a.maxMs))
        return (low, high)
    }

    /// The latency for a clip of `clip`, with `u` in [0, 1) placing it in the range.
    public func latency(clip: SimDuration, u: Double) -> SimDuration {
        let (low, high) = range(clipMs: clip.milliseconds)
        return SimDuration(milliseconds: low + u * (high - low))
    }
}
