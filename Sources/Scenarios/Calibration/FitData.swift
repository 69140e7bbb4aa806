import Foundation
import Sim

/// The measurements of one series as the likelihood sees them: individual values (a zero
/// counts as one nanosecond, where every family has density) and censored buckets.
struct FitData {
    /// Individual values in milliseconds, all > 0.
    var exact: [Double]
    /// Buckets with a positive width and count.
    var censored: [CostBucket]

    /// The smallest duration the likelihood uses: 1 ns.
    static let floorMs = 1e-6

    init(_ cdf: MeasuredCDF) {
        exact = cdf.sortedSamplesMs.map { Swift.max($0, Self.floorMs) }
        censored = cdf.buckets
    }

    private init(exact: [Double], censored: [CostBucket]) {
        self.exact = exact
        self.censored = censored
    }

    var total: Double { Double(exact.count) + censored.reduce(0.0) { $0 + Double($1.count) } }

    /// At most `count` of the (sorted) individual values, evenly spaced in rank, and every
    /// bucket.
    func thinned(to count: Int) -> FitData {
        guard exact.count > count else { return self }
        let step = Double(exact.count - 1) / Double(count - 1)
        return FitData(exact: (0..<count).map { exact[Int((Double($0) * step).rounded())] }, censored: censored)
    }

    /// The data with `shift` taken off every value and bucket edge.
    func shifted(by shift: Double) -> FitData {
        FitData(exact: exact.map { Swift.max($0 - shift, Self.floorMs) },
                censored: censored.map { CostBucket(lowerMs: Swift.max($0.lowerMs - shift, 0), upperMs: $0.upperMs - shift, count: $0.count) })
    }

    /// Weighted points for the starting fit: the values, and each bucket's midpoint.
    var pointsForStart: [(x: Double, w: Double)] {
        exact.map { ($0, 1) } + censored.map { (Swift.max(0.5 * ($0.lowerMs + $0.upperMs), Self.floorMs), Double($0.count)) }
    }

    /// log L: Σ log f(x) over the values plus Σ count · log(F(upper) − F(lower)).
    func logLikelihood(_ d: Distribution) -> Double {
        var sum = 0.0
        for x in exact { sum += d.logDensity(x) ?? -.infinity }
        for bucket in censored {
            let p = d.cdf(bucket.upperMs) - d.cdf(bucket.lowerMs)
            sum += Double(bucket.count) * log(Swift.max(p, 1e-300))
        }
        return sum
    }
}
