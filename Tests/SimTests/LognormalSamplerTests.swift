import XCTest
@testable import Sim

/// `Distribution.Lognormal` draws what `Distribution.lognormal(mu:sigma:)` draws, bit for bit:
/// through `sample(_:)`, and through its standard normal and `value(standardNormal:)`, from
/// tiny to overflowing sigmas (the clamp included), over seeds.
final class LognormalSamplerTests: XCTestCase {
    func testTheSamplerDrawsTheEnumsBits() {
        var compared = 0
        for mu in [-3.0, 0, 4.442651256490317, 5.5, 12, 700] {
            for sigma in [1e-9, 0.25, 0.45, 1, 3, 30] {
                let sampler = Distribution.Lognormal(mu: mu, sigma: sigma)
                let distribution = Distribution.lognormal(mu: mu, sigma: sigma)
                for seed: UInt64 in 0..<12 {
                    var enumDraws = RandomStream(seed: seed, replication: 0, name: "test.lognormal")
                    var samplerDraws = enumDraws
                    var normalDraws = enumDraws
                    for draw in 0..<250 {
                        let expected = distribution.sample(&enumDraws)
                        let sampled = sampler.sample(&samplerDraws)
                        let z = Distribution.Lognormal.standardNormal(&normalDraws)
                        let valued = sampler.value(standardNormal: z)
                        let context = "mu \(mu), sigma \(sigma), seed \(seed), draw \(draw)"
                        XCTAssertEqual(sampled.bitPattern, expected.bitPattern, context)
                        XCTAssertEqual(valued.bitPattern, expected.bitPattern, context)
                        compared += 1
                    }
                }
            }
        }
        XCTAssertEqual(compared, 6 * 6 * 12 * 250)
    }

    /// The standard normal does not depend on the lognormal: one draw serves every `mu`.
    func testTheStandardNormalIsTheQuantileOfTheUniform() {
        for seed: UInt64 in 0..<20 {
            var random = RandomStream(seed: seed, replication: 0, name: "test.lognormal.normal")
            var uniforms = random
            for _ in 0..<500 {
                let z = Distribution.Lognormal.standardNormal(&random)
                XCTAssertEqual(z.bitPattern, SpecialFunctions.normalQuantile(uniforms.nextOpenUnit()).bitPattern, "seed \(seed)")
            }
        }
    }
}
