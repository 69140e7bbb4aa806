#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The maximum-likelihood fit, by expectation–maximisation, of one context's typing intervals
/// (their logarithms) to the rhythm model: a normal whose mean moves with the key pair —
/// position in the word, kind of letter pair, and the pair itself, shrunk towards its kind's
/// — mixed with a second, slower normal, the hesitations, the mixture cut at the pause
/// threshold as the typist draws it. Each part can be left out, so that `TypistFitter` keeps
/// only the parts the data supports (by BIC).
///
/// The cut is fitted as missing data (McLachlan and Jones 1988): each interval seen stands for
/// (1 − F(T)) / F(T) more that fell over the threshold T, whose expected share, mean and
/// spread in each component (a normal's above T: the inverse Mills ratio) join the
/// component's sums. Without it a cut lognormal would look like a mixture.
///
/// The pair effects are log-multipliers: positions centred over all intervals, kinds over
/// the intervals between two letters or digits, so that the typing component's mean stays the
/// mean log interval. The letter pairs' own effects are empirical-Bayes estimates: each pair's
/// mean residual shrunk by n τ² / (n τ² + σ²), with τ² the between-pair variance estimated by
/// moments (DerSimonian and Laird 1986); only pairs seen `digraphCountMin` times get one.
struct IntervalMixtureFit {
    /// The parts of the model to fit.
    struct Parts: Equatable {
        var hesitation = false
        var positions = false
        var classes = false
        var digraphs = false
        /// All of them.
        static let all = Parts(hesitation: true, positions: true, classes: true, digraphs: true)
    }

    /// The intervals: their logs (ms) and their pairs' indices (−1 where they have none).
    struct Observations {
        var logMs: [Double] = []
        var position: [Int] = []
        var digraphClass: [Int] = []
        var digraph: [Int] = []
        /// The number of pair indices.
        var digraphCount = 0
        /// The log of the pause threshold (ms): the intervals are those below it.
        var logThreshold = Double.infinity

        /// The number of intervals.
        var count: Int { logMs.count }

        /// Adds an interval.
        mutating func append(logMs value: Double, position p: Int = -1, digraphClass k: Int = -1, digraph d: Int = -1) {
            logMs.append(value)
            position.append(p)
            digraphClass.append(k)
            digraph.append(d)
        }
    }

    /// Letter pairs seen fewer times than this get no effect of their own.
    static let digraphCountMin = 5
    /// The iterations at most; the fit stops earlier, once an iteration gains less than
    /// `tolerance` of log-likelihood an interval.
    static let iterationsMax = 500
    /// The gain of log-likelihood an interval below which an iteration ends the fit.
    static let tolerance = 1e-6

    /// The typing component's mean and σ (of the log, ms).
    private(set) var mu = 0.0, sigma = 1.0
    /// The effects (log-multipliers) by position, kind and pair index.
    private(set) var positionEffects: [Double]
    private(set) var classEffects: [Double]
    private(set) var digraphEffects: [Double]
    /// The hesitation component: share, mean and σ of the log; share 0 without one.
    private(set) var share = 0.0, hesitationMu = 0.0, hesitationSigma = 1.0
    /// The log-likelihood at the end.
    private(set) var logLikelihood = -Double.infinity
    /// Whether the pairs' mean residuals differ more than chance allows: Cochran's Q over
    /// the pairs seen twice or more beyond the χ² quantile at 99 % (the test that their
    /// variance τ² is 0).
    private(set) var digraphsDiffer = false
    /// The parameters the fit cost (the pairs' effects as one: their variance).
    private(set) var parameterCount = 2.0

    private let parts: Parts
    /// Each interval's offset (the sum of its effects) and typing-component weight.
    private var offsets: [Double]
    private var weights: [Double]
    /// For each interval, the expected number of typing intervals cut over the threshold
    /// that it stands for, their expected log and its variance; and of hesitations cut, with
    /// the hesitations' mean and variance above the threshold.
    private var cutTyping: [Double], cutTypingMean: [Double], cutTypingVariance: [Double]
    private var cutSlow: [Double]
    private var cutSlowMean = 0.0, cutSlowVariance = 0.0

    /// Fits `observations` with `parts`, starting from `start`'s parameters (those of
    /// `parts`) when given: a fit of a few parts fewer converges from the fuller one's in a
    /// fraction of the iterations.
    /// - Precondition: there are observations, as many as `start` was fitted to.
    init(_ observations: Observations, parts: Parts, start: IntervalMixtureFit? = nil) {
        precondition(observations.count > 0, "a fit needs intervals")
        self.parts = parts
        positionEffects = Array(repeating: 0, count: KeyPair.Position.allCases.count)
        classEffects = Array(repeating: 0, count: KeyPair.DigraphClass.allCases.count)
        digraphEffects = Array(repeating: 0, count: observations.digraphCount)
        offsets = Array(repeating: 0, count: observations.count)
        weights = Array(repeating: 1, count: observations.count)
        cutTyping = Array(repeating: 0, count: observations.count)
        cutTypingMean = cutTyping
        cutTypingVariance = cutTyping
        cutSlow = cutTyping
        let n = Double(observations.count)
        mu = observations.logMs.reduce(0, +) / n
        sigma = max(1e-3, (observations.logMs.reduce(0) { $0 + ($1 - mu) * ($1 - mu) } / n).squareRoot())
        if parts.hesitation {
            // Start the slow component in the upper tail, where hesitations are.
            share = 0.05
            hesitationMu = mu + 2 * sigma
            hesitationSigma = sigma
        }
        if let start {
            precondition(start.offsets.count == observations.count, "a start fitted to the same intervals")
            mu = start.mu
            sigma = start.sigma
            if parts.positions { positionEffects = start.positionEffects }
            if parts.classes { classEffects = start.classEffects }
            if parts.digraphs { digraphEffects = start.digraphEffects }
            if parts.hesitation && start.parts.hesitation {
                (share, hesitationMu, hesitationSigma) = (start.share, start.hesitationMu, start.hesitationSigma)
            }
            updateOffsets(observations)
        }
        var previous = -Double.infinity
        for _ in 0..<Self.iterationsMax {
            logLikelihood = expectation(observations)
            if abs(logLikelihood - previous) < Self.tolerance * n { break }
            previous = logLikelihood
            maximisation(observations)
        }
        let kinds = Set(observations.digraphClass.filter { $0 >= 0 }).count
        parameterCount = 2 + (parts.hesitation ? 3 : 0) + (parts.positions ? Double(positionEffects.count - 1) : 0)
            + (parts.classes ? Double(max(0, kinds - 1)) : 0) + (parts.digraphs ? 1 : 0)
    }

    /// Whether the slow component is a real one: slower than typing by at least one σ and a
    /// minority of the intervals.
    var hasHesitation: Bool {
        share > 1e-4 && share <= 0.5 && hesitationMu > mu + sigma
    }

    /// The posterior weight of the typing component of each interval, and what each stands
    /// for over the threshold; returns the log-likelihood of the cut mixture.
    private mutating func expectation(_ o: Observations) -> Double {
        var total = 0.0
        let slowCut = share > 0 ? Self.above(o.logThreshold, hesitationMu, hesitationSigma) : (mass: 0, mean: 0, variance: 0)
        cutSlowMean = slowCut.mean
        cutSlowVariance = slowCut.variance
        for i in 0..<o.count {
            let typing = (1 - share) * Self.density(o.logMs[i], mu + offsets[i], sigma)
            let slow = share > 0 ? share * Self.density(o.logMs[i], hesitationMu, hesitationSigma) : 0
            let sum = max(typing + slow, 1e-300)
            weights[i] = typing / sum
            let typingCut = Self.above(o.logThreshold, mu + offsets[i], sigma)
            let typingAbove = (1 - share) * typingCut.mass, slowAbove = share * slowCut.mass
            let kept = max(1 - typingAbove - slowAbove, 1e-12)
            cutTyping[i] = typingAbove / kept
            cutTypingMean[i] = typingCut.mean
            cutTypingVariance[i] = typingCut.variance
            cutSlow[i] = slowAbove / kept
            total += log(sum) - log(kept)
        }
        return total
    }

    /// A normal's mass above `limit`, and the mean and variance of its part there.
    static func above(_ limit: Double, _ mean: Double, _ sd: Double) -> (mass: Double, mean: Double, variance: Double) {
        let alpha = (limit - mean) / sd
        // Nine σ below the limit leaves under 1e-19 above it: nothing a double would keep.
        guard alpha < 9 else { return (0, mean, sd * sd) }
        let mass = StandardNormal.cdf(-alpha)
        guard mass > 1e-300, alpha.isFinite else { return (0, mean, sd * sd) }
        let mills = density(alpha, 0, 1) / mass
        return (mass, mean + sd * mills, sd * sd * max(0, 1 + alpha * mills - mills * mills))
    }

    /// One backfitting sweep of the typing component's effects, then its σ and the
    /// hesitation component, by the weights (the intervals seen, and those they stand for
    /// over the threshold).
    private mutating func maximisation(_ o: Observations) {
        let n = o.count
        var typingWeight = 0.0, sum = 0.0
        for i in 0..<n {
            typingWeight += weights[i] + cutTyping[i]
            sum += weights[i] * (o.logMs[i] - offsets[i]) + cutTyping[i] * (cutTypingMean[i] - offsets[i])
        }
        typingWeight = max(typingWeight, 1e-12)
        mu = sum / typingWeight
        if parts.positions {
            positionEffects = groupEffects(o, o.position, positionEffects)
            // Centred over every interval: the mean moves into mu.
            let centre = weightedMean(o.position, positionEffects)
            for index in positionEffects.indices { positionEffects[index] -= centre }
            mu += centre
            updateOffsets(o)
        }
        if parts.classes {
            classEffects = groupEffects(o, o.digraphClass, classEffects)
            // Centred over the intervals that have a kind: the kinds say nothing of the
            // letters' level against the word's end, which is the positions' to say.
            let centre = weightedMean(o.digraphClass, classEffects)
            for index in classEffects.indices { classEffects[index] -= centre }
            updateOffsets(o)
        }
        var squares = 0.0
        for i in 0..<n {
            let r = o.logMs[i] - mu - offsets[i], cut = cutTypingMean[i] - mu - offsets[i]
            squares += weights[i] * r * r + cutTyping[i] * (cut * cut + cutTypingVariance[i])
        }
        sigma = max(1e-3, (squares / typingWeight).squareRoot())
        if parts.digraphs && !digraphEffects.isEmpty {
            shrinkDigraphs(o)
            updateOffsets(o)
        }
        if parts.hesitation {
            var slowWeight = 0.0, cutWeight = 0.0, mean = 0.0
            for i in 0..<n {
                slowWeight += 1 - weights[i] + cutSlow[i]
                cutWeight += cutTyping[i] + cutSlow[i]
                mean += (1 - weights[i]) * o.logMs[i] + cutSlow[i] * cutSlowMean
            }
            share = min(0.95, max(0, slowWeight / (Double(n) + cutWeight)))
            guard slowWeight > 1e-9 else { return }
            mean /= slowWeight
            var spread = 0.0
            for i in 0..<n {
                spread += (1 - weights[i]) * (o.logMs[i] - mean) * (o.logMs[i] - mean)
                    + cutSlow[i] * ((cutSlowMean - mean) * (cutSlowMean - mean) + cutSlowVariance)
            }
            hesitationMu = mean
            hesitationSigma = max(0.05, (spread / slowWeight).squareRoot())
        }
    }

    /// One group's effects refitted as the weighted mean residual of its intervals, the
    /// other effects held.
    private func groupEffects(_ o: Observations, _ group: [Int], _ effects: [Double]) -> [Double] {
        var sums = [Double](repeating: 0, count: effects.count), totals = sums
        for i in 0..<o.count where group[i] >= 0 {
            let g = group[i], base = mu + offsets[i] - effects[g]
            sums[g] += weights[i] * (o.logMs[i] - base) + cutTyping[i] * (cutTypingMean[i] - base)
            totals[g] += weights[i] + cutTyping[i]
        }
        return effects.indices.map { totals[$0] > 1e-9 ? sums[$0] / totals[$0] : 0 }
    }

    /// The weighted mean of `effects` over the intervals that have a `group`.
    private func weightedMean(_ group: [Int], _ effects: [Double]) -> Double {
        var sum = 0.0, total = 0.0
        for i in group.indices where group[i] >= 0 {
            sum += (weights[i] + cutTyping[i]) * effects[group[i]]
            total += weights[i] + cutTyping[i]
        }
        return total > 1e-12 ? sum / total : 0
    }

    private mutating func updateOffsets(_ o: Observations) {
        for i in 0..<o.count {
            var offset = 0.0
            if o.position[i] >= 0 { offset += positionEffects[o.position[i]] }
            if o.digraphClass[i] >= 0 { offset += classEffects[o.digraphClass[i]] }
            if o.digraph[i] >= 0 { offset += digraphEffects[o.digraph[i]] }
            offsets[i] = offset
        }
    }

    /// The pairs' empirical-Bayes effects from their residuals (their kind's and position's
    /// effects taken out).
    private mutating func shrinkDigraphs(_ o: Observations) {
        var sums = [Double](repeating: 0, count: digraphEffects.count), pairWeights = sums
        var counts = [Int](repeating: 0, count: digraphEffects.count)
        for i in 0..<o.count where o.digraph[i] >= 0 {
            let d = o.digraph[i], base = mu + offsets[i] - digraphEffects[d]
            sums[d] += weights[i] * (o.logMs[i] - base) + cutTyping[i] * (cutTypingMean[i] - base)
            pairWeights[d] += weights[i] + cutTyping[i]
            counts[d] += 1
        }
        let seen = pairWeights.indices.filter { counts[$0] >= 2 && pairWeights[$0] > 1e-9 }
        guard seen.count >= 2 else {
            for d in digraphEffects.indices { digraphEffects[d] = 0 }
            return
        }
        let totalWeight = seen.reduce(0) { $0 + pairWeights[$1] }
        let grandMean = seen.reduce(0) { $0 + sums[$1] } / totalWeight
        let variance = sigma * sigma
        var q = 0.0, squaredWeights = 0.0
        for d in seen {
            let mean = sums[d] / pairWeights[d]
            q += pairWeights[d] * (mean - grandMean) * (mean - grandMean) / variance
            squaredWeights += pairWeights[d] * pairWeights[d]
        }
        let tau2 = max(0, (q - Double(seen.count - 1)) * variance / (totalWeight - squaredWeights / totalWeight))
        digraphsDiffer = q > Self.chiSquared99(degreesOfFreedom: Double(seen.count - 1))
        for d in digraphEffects.indices {
            guard tau2 > 0, counts[d] >= Self.digraphCountMin, pairWeights[d] > 1e-9 else {
                digraphEffects[d] = 0
                continue
            }
            let shrinkage = pairWeights[d] * tau2 / (pairWeights[d] * tau2 + variance)
            digraphEffects[d] = shrinkage * (sums[d] / pairWeights[d] - grandMean)
        }
    }

    /// The 99th percentile of χ² with `k` degrees of freedom, by Wilson and Hilferty's cube
    /// (1931): within 1 % of it from k = 3 on.
    static func chiSquared99(degreesOfFreedom k: Double) -> Double {
        let c = 2 / (9 * k)
        let root = 1 - c + 2.3263478740408408 * c.squareRoot()
        return k * root * root * root
    }

    /// The normal density of `x` with mean `mean` and σ `sd`.
    static func density(_ x: Double, _ mean: Double, _ sd: Double) -> Double {
        let z = (x - mean) / sd
        return 0.39894228040143267794 * exp(-0.5 * z * z) / sd
    }
}
