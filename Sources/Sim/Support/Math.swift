// The one file in Sim that reaches the C math library (libm), so that the rest of the
// module stays on the standard library alone. Not Foundation: Sim does no I/O.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Elementary functions for the models, named as in C.
enum CMath {
    @inline(__always) static func log(_ x: Double) -> Double { libm_log(x) }
    @inline(__always) static func exp(_ x: Double) -> Double { libm_exp(x) }
    @inline(__always) static func pow(_ x: Double, _ y: Double) -> Double { libm_pow(x, y) }
    @inline(__always) static func sqrt(_ x: Double) -> Double { x.squareRoot() }
    @inline(__always) static func erf(_ x: Double) -> Double { libm_erf(x) }
    @inline(__always) static func erfc(_ x: Double) -> Double { libm_erfc(x) }
    @inline(__always) static func cos(_ x: Double) -> Double { libm_cos(x) }
    @inline(__always) static func sin(_ x: Double) -> Double { libm_sin(x) }
    /// `log(1 + x)`, accurate when `x` is near zero (where `log(1 + x)` loses every digit).
    @inline(__always) static func log1p(_ x: Double) -> Double { libm_log1p(x) }
    /// `exp(x) - 1`, accurate when `x` is near zero.
    @inline(__always) static func expm1(_ x: Double) -> Double { libm_expm1(x) }
    /// `log|Γ(x)|` through the reentrant `lgamma_r`: plain `lgamma` writes the global
    /// `signgam`, a data race when replications run on several threads.
    @inline(__always) static func logGamma(_ x: Double) -> Double { libm_lgamma_r(x) }
}

@inline(__always) private func libm_log(_ x: Double) -> Double { log(x) }
@inline(__always) private func libm_exp(_ x: Double) -> Double { exp(x) }
@inline(__always) private func libm_pow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
@inline(__always) private func libm_erf(_ x: Double) -> Double { erf(x) }
@inline(__always) private func libm_erfc(_ x: Double) -> Double { erfc(x) }
@inline(__always) private func libm_cos(_ x: Double) -> Double { cos(x) }
@inline(__always) private func libm_sin(_ x: Double) -> Double { sin(x) }
@inline(__always) private func libm_log1p(_ x: Double) -> Double { log1p(x) }
@inline(__always) private func libm_expm1(_ x: Double) -> Double { expm1(x) }
@inline(__always) private func libm_lgamma_r(_ x: Double) -> Double {
    var sign: Int32 = 0
    return lgamma_r(x, &sign)
}
