/// The mean of a sample with the spread a Student-t interval needs: two-sided intervals and
/// one-sided confidence bounds on the true mean at any level.
///
/// The values are independent draws (one per run, or one per pair of runs); the intervals
/// assume their mean is close to normal, which the central limit theorem gives for the run
/// metrics keysim averages once there are a few runs. Sums run in the order given, so the
/// same values give the same bits.
public struct SampleMean: Sendable, Equatable {
    /// Number of values.
    public let count: Int
    /// The sample mean (0 when empty).
    public let mean: Double
    /// The sample standard deviation (divisor n − 1); 0 under two values.
    public let standardDeviation: Double

    /// Summarises `values`, in order.
    public init(_ values: [Double]) {
        count = values.count
        let mean = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
        self.mean = mean
        guard values.count >= 2 else { standardDeviation = 0; return }
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        standardDeviation = variance.squareRoot()
    }

    /// A summary of figures already computed.
    /// - Precondition: `count` ≥ 0 and `standardDeviation` ≥ 0.
    public init(count: Int, mean: Double, standardDeviation: Double) {
        precondition(count >= 0 && standardDeviation >= 0, "a sample has a count and a spread of at least zero")
        self.count = count
        self.mean = mean
        self.standardDeviation = standardDeviation
    }

    /// The standard error of the mean, s/√n; 0 under two values.
    public var standardError: Double {
        count >= 2 ? standardDeviation / Double(count).squareRoot() : 0
    }

    /// Half the width of the two-sided Student-t interval at `confidence` (0 < c < 1):
    /// t₍₁₊c₎/₂,ₙ₋₁ · s/√n; nil under two values, where there is no spread to speak of.
    public func halfWidth(confidence: Double) -> Double? {
        precondition(confidence > 0 && confidence < 1, "a confidence level is between 0 and 1")
        guard count >= 2 else { return nil }
        return StudentT.quantile((1 + confidence) / 2, degreesOfFreedom: count - 1) * standardError
    }

    /// The two-sided interval at `confidence`; nil under two values.
    public func interval(confidence: Double) -> ClosedRange<Double>? {
        halfWidth(confidence: confidence).map { (mean - $0)...(mean + $0) }
    }

    /// The one-sided upper confidence bound at `confidence`: the true mean lies at or below
    /// mean + tc,ₙ₋₁ · s/√n with probability `confidence`. Nil under two values.
    ///
    /// A bound, not half an interval: at 95 % it uses t₀.₉₅ (a two-sided 90 % interval's
    /// upper end), because only one direction is in question — "is the mean under the limit?".
    public func upperBound(confidence: Double) -> Double? {
        oneSidedMargin(confidence).map { mean + $0 }
    }

    /// The one-sided lower confidence bound at `confidence`; nil under two values.
    public func lowerBound(confidence: Double) -> Double? {
        oneSidedMargin(confidence).map { mean - $0 }
    }

    private func oneSidedMargin(_ confidence: Double) -> Double? {
        precondition(confidence > 0 && confidence < 1, "a confidence level is between 0 and 1")
        guard count >= 2 else { return nil }
        return StudentT.quantile(confidence, degreesOfFreedom: count - 1) * standardError
    }
}
