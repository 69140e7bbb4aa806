extension Distribution {
    /// The draws of `Distribution.lognormal(mu:sigma:)` taken apart, for a caller that draws
    /// many times from the same lognormal or draws it again with another `mu` from the same
    /// uniforms: the standard normal a draw makes of its uniform (`standardNormal(_:)`), and
    /// the value for that standard normal (`value(standardNormal:)`). Its `sample(_:)` is the
    /// enum's, bit for bit, without matching a case on every draw: both go through
    /// `lognormalValue(mu:sigma:standardNormal:)` and `clamped(_:)`.
    public struct Lognormal: Sendable, Equatable {
        /// The mean of the logarithm.
        public let mu: Double
        /// The standard deviation of the logarithm.
        public let sigma: Double

        /// The lognormal exp(N(mu, sigma²)).
        /// - Precondition: as for `Distribution.lognormal(mu:sigma:)`, `validate()` would
        ///   report no problems (not checked).
        public init(mu: Double, sigma: Double) {
            self.mu = mu
            self.sigma = sigma
        }

        /// The standard normal that a lognormal draw makes of the next uniform of `rng`
        /// (Φ⁻¹ of it): the same number whatever the lognormal's parameters.
        @inline(__always)
        public static func standardNormal(_ rng: inout RandomStream) -> Double {
            SpecialFunctions.normalQuantile(rng.nextOpenUnit())
        }

        /// The draw whose standard normal is `z`: `Distribution.lognormal(mu:sigma:).sample`
        /// when its uniform gave `z`.
        @inline(__always)
        public func value(standardNormal z: Double) -> Double {
            Distribution.clamped(Distribution.lognormalValue(mu: mu, sigma: sigma, standardNormal: z), kindName: "lognormal")
        }

        /// One draw, in milliseconds: `Distribution.lognormal(mu:sigma:).sample(&rng)`.
        @inline(__always)
        public func sample(_ rng: inout RandomStream) -> Double {
            value(standardNormal: Self.standardNormal(&rng))
        }
    }

    /// A lognormal's value before the clamp for the standard normal `z`.
    @inline(__always)
    static func lognormalValue(mu: Double, sigma: Double, standardNormal z: Double) -> Double {
        CMath.exp(mu + sigma * z)
    }

    /// A draw clamped to [0, greatestFiniteMagnitude], as `sample(_:)` returns it.
    /// - Precondition: `value` is not NaN.
    @inline(__always)
    static func clamped(_ value: Double, kindName: @autoclosure () -> String) -> Double {
        precondition(!value.isNaN, "a \(kindName()) distribution sampled NaN: call validate() before sampling")
        return Swift.min(Swift.max(value, 0), .greatestFiniteMagnitude)
    }
}
