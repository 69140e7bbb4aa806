import Foundation
import XCTest
import Sim
@testable import Scenarios

/// The one set of limits every reader of durations shares, and the one checker of the rules
/// that span trace lines.
final class ValueLimitsTests: XCTestCase {
    func testADurationIsFiniteNotNegativeAndAtMost2To53Nanoseconds() {
        XCTAssertEqual(ValueLimits.durationNanosMax, 9_007_199_254_740_992)
        XCTAssertEqual(ValueLimits.durationMsMax, 9_007_199_254.740992)
        XCTAssertEqual(ValueLimits.durationNanosMax, TraceLineDecoder.timeNanosMax, "the trace reader's limit is the same")
        for ms in [0, 1e-9, 3.5, ValueLimits.durationMsMax] {
            XCTAssertTrue(ValueLimits.isDuration(ms: ms), "\(ms)")
            XCTAssertNil(ValueLimits.durationProblem(ms: ms, text: "\(ms)"))
        }
        XCTAssertEqual(ValueLimits.durationProblem(ms: 1.2e29, text: "1.2e29"),
                       "1.2e29 ms is out of range (at most 9007199254.740992 ms, about 104 days)")
        XCTAssertEqual(ValueLimits.durationProblem(ms: .infinity, text: "inf"),
                       "inf ms is out of range (at most 9007199254.740992 ms, about 104 days)")
        XCTAssertEqual(ValueLimits.durationProblem(ms: -1, text: "-1"), "must not be negative (found -1 ms)")
        XCTAssertEqual(ValueLimits.durationProblem(ms: .nan, text: "nan"), "must be a number of milliseconds, found nan")
        XCTAssertNil(ValueLimits.durationProblem(nanoseconds: ValueLimits.durationNanosMax))
        XCTAssertEqual(ValueLimits.durationProblem(nanoseconds: ValueLimits.durationNanosMax + 1),
                       "9007199254740993 ns is out of range (at most 9007199254.740992 ms, about 104 days)")
        XCTAssertTrue(ValueLimits.isCount(1e12))
        XCTAssertFalse(ValueLimits.isCount(1e12 + 1))
        XCTAssertFalse(ValueLimits.isCount(2.5))
        XCTAssertFalse(ValueLimits.isCount(.nan))
    }

    func testAScenarioDurationAtTheLimitLoadsAndPastItIsAnError() throws {
        func field(_ x: Double) -> ConfigField {
            ConfigField(value: ConfigValue(.number(x), line: 3, column: 9), path: "debounce.delayMs", file: "s.json5")
        }
        XCTAssertEqual(try field(ValueLimits.durationMsMax).milliseconds().nanoseconds, ValueLimits.durationNanosMax)
        XCTAssertThrowsError(try field(1e20).milliseconds()) { error in
            XCTAssertEqual("\(error)", "s.json5:3:9: error: debounce.delayMs: 1e+20 ms is out of range (at most 9007199254.740992 ms, about 104 days)")
        }
        XCTAssertThrowsError(try field(0).milliseconds(positive: true)) { error in
            XCTAssertEqual("\(error)", "s.json5:3:9: error: debounce.delayMs: must be greater than 0 (got 0)")
        }
    }

    func testTheRulesThatSpanLines() {
        var rules = TraceRules()
        let start = TraceEvent.Kind.dictationStart(audio: .inline(onset: .zero, length: .milliseconds(5), transcript: nil))
        XCTAssertNil(rules.check(start, line: 2))
        XCTAssertEqual(rules.check(start, line: 3),
                       TraceRules.Problem(severity: .error, message: "dictation.start while the dictation started on line 2 is still running (a dictation.stop must come first)"))
        XCTAssertNil(rules.check(.dictationStop, line: 4))
        XCTAssertEqual(rules.check(.dictationStop, line: 5),
                       TraceRules.Problem(severity: .error, message: "dictation.stop without a dictation.start before it"))
        XCTAssertNil(rules.finish())
        XCTAssertNil(rules.check(start, line: 6))
        XCTAssertEqual(rules.finish()?.line, 6)
        XCTAssertEqual(rules.finish()?.problem.severity, .warning)
    }

    /// A chart of measured data once asked for the CDF at NaN, and a precondition stopped
    /// `keysim calibrate --html`: NaN in, NaN out.
    func testTheCDFAndTheDensityAnswerNaNAtNaN() {
        for distribution in [Distribution.lognormal(mu: 1, sigma: 0.5), .gamma(shape: 2, scale: 3), .constant(4),
                             .empirical(samples: [1, 2]), .quantileTable([QuantilePoint(p: 0, value: 1), QuantilePoint(p: 1, value: 2)])] {
            XCTAssertTrue(distribution.cdf(.nan).isNaN, "\(distribution)")
        }
        XCTAssertTrue(Distribution.lognormal(mu: 1, sigma: 0.5).logDensity(.nan)?.isNaN ?? false)
    }
}
