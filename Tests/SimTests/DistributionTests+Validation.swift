import XCTest
@testable import Sim

/// Validation: each bad parameter, sample set, quantile table and mixture is a problem
/// that names its field.
extension DistributionTests {
    private func problems(_ distribution: Distribution) -> [String] {
        distribution.validate().map(\.description)
    }

    func testValidDistributionsHaveNoProblems() {
        let valid: [Distribution] = [
            .constant(0), .uniform(min: 3, max: 3), .normal(mean: 0, stddev: 1),
            .lognormal(mu: -2, sigma: 0.1), .exponential(mean: 1), .gamma(shape: 1e6, scale: 1),
            .pareto(scale: 1, shape: 0.5), .empirical(samples: [0]), .quantileTable(Self.tableWithAtom),
            Self.cloudLatency,
        ]
        for distribution in valid {
            XCTAssertEqual(distribution.validate(), [], "\(distribution)")
        }
    }

    func testValidateCatchesBadScalarParameters() {
        XCTAssertEqual(problems(.constant(-1)), ["value: must be >= 0"])
        XCTAssertEqual(problems(.constant(.nan)), ["value: must be finite"])
        XCTAssertEqual(problems(.uniform(min: 10, max: 5)), ["max: must be >= min"])
        XCTAssertEqual(problems(.uniform(min: -1, max: .infinity)), ["min: must be >= 0", "max: must be finite"])
        XCTAssertEqual(problems(.normal(mean: 100, stddev: 0)), ["stddev: must be > 0"])
        XCTAssertEqual(problems(.normal(mean: -5, stddev: .nan)), ["mean: must be >= 0", "stddev: must be finite"])
        XCTAssertEqual(problems(.lognormal(mu: .infinity, sigma: -1)), ["mu: must be finite", "sigma: must be > 0"])
        XCTAssertEqual(problems(.exponential(mean: 0)), ["mean: must be > 0"])
        XCTAssertEqual(problems(.gamma(shape: 0, scale: -1)), ["shape: must be > 0", "scale: must be > 0"])
        XCTAssertEqual(problems(.gamma(shape: 2e6, scale: 1)), ["shape: must be <= 1e6 (use normal for a nearly constant value)"])
        XCTAssertEqual(problems(.pareto(scale: 0, shape: .nan)), ["scale: must be > 0", "shape: must be finite"])
    }

    func testValidateCatchesBadSamples() {
        XCTAssertEqual(problems(.empirical(samples: [])), ["samples: must not be empty"])
        XCTAssertEqual(problems(.empirical(samples: [1, -2, .nan, 3])), ["samples[1]: must be finite and >= 0 (1 more samples are not)"])
        XCTAssertEqual(problems(.empirical(samples: [1, .infinity])), ["samples[1]: must be finite and >= 0"])
    }

    func testValidateCatchesBadQuantileTables() {
        func table(_ points: [(Double, Double)]) -> Distribution {
            .quantileTable(points.map { QuantilePoint(p: $0.0, value: $0.1) })
        }
        XCTAssertEqual(problems(table([(0, 1)])), ["points: needs at least 2 points (p = 0 and p = 1)"])
        XCTAssertEqual(problems(table([(0.1, 1), (1, 2)])), ["points[0].p: must be 0"])
        XCTAssertEqual(problems(table([(0, 1), (0.99, 2)])), ["points[1].p: must be 1"])
        XCTAssertEqual(problems(table([(0, 1), (0.5, 2), (0.5, 3), (1, 4)])), ["points[2].p: must be > points[1].p"])
        XCTAssertEqual(problems(table([(0, 1), (0.6, 2), (0.4, 3), (1, 4)])), ["points[2].p: must be > points[1].p"])
        XCTAssertEqual(problems(table([(0, 1), (0.5, 5), (1, 4)])), ["points[2].value: must be >= points[1].value"])
        XCTAssertEqual(problems(table([(0, -1), (1.5, .nan)])), [
            "points[0].value: must be >= 0", "points[1].p: must be in [0, 1]", "points[1].value: must be finite",
        ])
    }

    func testValidateCatchesBadMixturesWithFieldPaths() {
        XCTAssertEqual(problems(.mixture([])), ["components: must not be empty"])
        XCTAssertEqual(problems(.mixture([
            MixtureComponent(weight: 1, distribution: .constant(1)),
            MixtureComponent(weight: 2, distribution: .lognormal(mu: 1, sigma: 0)),
        ])), ["components[1].distribution.sigma: must be > 0"])
        XCTAssertEqual(problems(.mixture([
            MixtureComponent(weight: 0, distribution: .mixture([
                MixtureComponent(weight: 1, distribution: .constant(1)),
                MixtureComponent(weight: -1, distribution: .uniform(min: 2, max: 1)),
            ])),
        ])), [
            "components[0].weight: must be > 0",
            "components[0].distribution.components[1].weight: must be > 0",
            "components[0].distribution.components[1].distribution.max: must be >= min",
        ])
    }

    func testValidateLognormalNamesTheInputsTheUserWrote() {
        XCTAssertEqual(Distribution.validateLognormal(median: 300, p99: 2_000), [])
        XCTAssertEqual(Distribution.validateLognormal(median: 300, p99: 300).map(\.description), ["p99: must be > median"])
        XCTAssertEqual(Distribution.validateLognormal(median: 300, p99: 100).map(\.description), ["p99: must be > median"])
        XCTAssertEqual(Distribution.validateLognormal(median: 0, p99: 100).map(\.description), ["median: must be finite and > 0"])
        XCTAssertEqual(Distribution.validateLognormal(median: 1, p99: .nan).map(\.description), ["p99: must be finite"])
        // Whatever the inputs, the built distribution is rejected too (sigma ≤ 0 or not finite).
        XCTAssertFalse(Distribution.lognormal(median: 300, p99: 300).validate().isEmpty)
        XCTAssertFalse(Distribution.lognormal(median: 300, p99: 100).validate().isEmpty)
        XCTAssertFalse(Distribution.lognormal(median: 0, p99: 100).validate().isEmpty)
        XCTAssertFalse(Distribution.lognormal(median: -1, p99: 100).validate().isEmpty)
    }
}
