import Foundation

/// The numerical pieces of the fits: ψ and ψ′ for the gamma likelihood equations, and a
/// small Nelder–Mead minimiser for the likelihoods without closed forms (bucketed data).
/// Everything runs a bounded number of steps and is deterministic.
enum FitMath {
    /// log Γ(x) through the reentrant `lgamma_r` (plain `lgamma` writes a global).
    static func logGamma(_ x: Double) -> Double {
        var sign: Int32 = 0
        return lgamma_r(x, &sign)
    }

    /// The digamma function ψ(x) = d/dx log Γ(x) for x > 0: the recurrence up to x ≥ 6, then
    /// the asymptotic series (error below 1e-12).
    static func digamma(_ x: Double) -> Double {
        var x = x
        var result = 0.0
        while x < 6 { result -= 1 / x; x += 1 }
        let r = 1 / (x * x)
        result += log(x) - 0.5 / x - r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r * (1.0 / 240 - r / 132))))
        return result
    }

    /// The trigamma function ψ′(x) for x > 0, the same way.
    static func trigamma(_ x: Double) -> Double {
        var x = x
        var result = 0.0
        while x < 6 { result += 1 / (x * x); x += 1 }
        let r = 1 / (x * x)
        result += 1 / x + r / 2 + (1 / x) * r * (1.0 / 6 - r * (1.0 / 30 - r * (1.0 / 42 - r / 30)))
        return result
    }

    /// The point near `start` where `f` is smallest, by Nelder–Mead (reflection 1,
    /// expansion 2, contraction ½, shrink ½), from a simplex of steps `step` along each axis.
    /// Stops when the simplex's values agree to `tolerance` or after `iterationsMax` steps.
    /// A non-finite value counts as +∞, so that the search stays inside the valid region.
    static func minimise(_ f: ([Double]) -> Double, start: [Double], step: Double = 0.3,
                         tolerance: Double = 1e-10, iterationsMax: Int = 2_000) -> [Double] {
        let n = start.count
        func value(_ x: [Double]) -> Double {
            let y = f(x)
            return y.isFinite ? y : .infinity
        }
        var simplex: [(point: [Double], value: Double)] = [(start, value(start))]
        for axis in 0..<n {
            var point = start
            point[axis] += step
            simplex.append((point, value(point)))
        }
        for _ in 0..<iterationsMax {
            simplex.sort { $0.value < $1.value }
            let best = simplex[0].value, worst = simplex[n].value
            if worst.isFinite && abs(worst - best) <= tolerance * (abs(best) + tolerance) { break }
            var centroid = [Double](repeating: 0, count: n)
            for vertex in simplex.dropLast() {
                for i in 0..<n { centroid[i] += vertex.point[i] / Double(n) }
            }
            func along(_ t: Double) -> [Double] {
                (0..<n).map { centroid[$0] + t * (simplex[n].point[$0] - centroid[$0]) }
            }
            let reflected = along(-1)
            let reflectedValue = value(reflected)
            if reflectedValue < simplex[0].value {
                let expanded = along(-2)
                let expandedValue = value(expanded)
                simplex[n] = expandedValue < reflectedValue ? (expanded, expandedValue) : (reflected, reflectedValue)
            } else if reflectedValue < simplex[n - 1].value {
                simplex[n] = (reflected, reflectedValue)
            } else {
                let contracted = reflectedValue < simplex[n].value ? along(-0.5) : along(0.5)
                let contractedValue = value(contracted)
                if contractedValue < min(reflectedValue, simplex[n].value) {
                    simplex[n] = (contracted, contractedValue)
                } else {
                    let anchor = simplex[0].point
                    for j in 1...n {
                        let point = (0..<n).map { anchor[$0] + 0.5 * (simplex[j].point[$0] - anchor[$0]) }
                        simplex[j] = (point, value(point))
                    }
                }
            }
        }
        return simplex.min { $0.value < $1.value }!.point
    }
}
