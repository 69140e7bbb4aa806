import XCTest
@testable import Sim

final class DictationTranscriptionTests: XCTestCase {
    func testSeedMeasurementsAreReproduced() {
        let ane = TranscriptionCurve.seedNeuralEngine, cpu = TranscriptionCurve.seedCPU
        XCTAssertEqual(ane.range(clipMs: 3400).min, 53, accuracy: 1e-9)
        XCTAssertEqual(ane.range(clipMs: 3400).max, 72, accuracy: 1e-9)
        XCTAssertEqual(ane.range(clipMs: 20_600).min, 185, accuracy: 1e-9)
        XCTAssertEqual(ane.range(clipMs: 20_600).max, 263, accuracy: 1e-9)
        XCTAssertEqual(cpu.range(clipMs: 3400).min, 111, accuracy: 1e-9)
        XCTAssertEqual(cpu.range(clipMs: 3400).max, 120, accuracy: 1e-9)
        XCTAssertEqual(cpu.range(clipMs: 20_600).min, 285, accuracy: 1e-9)
        XCTAssertEqual(cpu.range(clipMs: 20_600).max, 291, accuracy: 1e-9)
    }

    func testInterpolationAndExtrapolation() {
        let ane = TranscriptionCurve.seedNeuralEngine
        let middle = ane.range(clipMs: 12_000)                      // halfway between the two clips
        XCTAssertEqual(middle.min, 119, accuracy: 1e-9)
        XCTAssertEqual(middle.max, 167.5, accuracy: 1e-9)
        let empty = ane.range(clipMs: 0)                            // the line extended to no audio
        XCTAssertEqual(empty.min, 53 - 3400.0 / 17_200 * 132, accuracy: 1e-9)
        XCTAssertEqual(ane.range(clipMs: 60_000).min, 185 + 39_400.0 / 17_200 * 132, accuracy: 1e-9)
        XCTAssertEqual(ane.latency(clip: .milliseconds(3400), u: 0), .milliseconds(53))
        XCTAssertEqual(ane.latency(clip: .milliseconds(3400), u: 0.5), SimDuration(milliseconds: 62.5))
        // The Neural Engine is about twice as fast as the CPU on short clips.
        XCTAssertLessThan(ane.range(clipMs: 3400).max, TranscriptionCurve.seedCPU.range(clipMs: 3400).min)
    }

    func testCurveProblems() {
        XCTAssertNil(TranscriptionCurve.seedCPU.problem)
        XCTAssertEqual(TranscriptionCurve([]).problem, "needs at least one point")
        XCTAssertEqual(TranscriptionCurve([.init(clipMs: 1, minMs: 5, maxMs: 4)]).problem, "point 0: needs 0 <= minMs <= maxMs")
        XCTAssertEqual(TranscriptionCurve([.init(clipMs: 2, minMs: 1, maxMs: 1), .init(clipMs: 2, minMs: 1, maxMs: 1)]).problem,
                       "point 1: clipMs must increase")
        let flat = TranscriptionCurve([.init(clipMs: 1000, minMs: 40, maxMs: 60)])
        XCTAssertEqual(flat.range(clipMs: 99_000).max, 60)
    }

    func testDefaultsAreTheSeeds() {
        let c = DictationConfig()
        XCTAssertEqual(c.modelLoad.neuralEngine, .constant(130))
        XCTAssertEqual(c.modelLoad.cpu, .constant(3800))
        XCTAssertEqual(c.preRoll, .milliseconds(400))
        XCTAssertEqual(c.idleTimeout, .seconds(300))
        XCTAssertEqual(c.peakMemoryMegabytes.neuralEngine, 70)
        XCTAssertEqual(c.peakMemoryMegabytes.cpu, 88)
        XCTAssertEqual(c.stopToTextBudget, .milliseconds(100))
        XCTAssertNil(c.recordingCap)
        XCTAssertEqual(c.micPolicy, .keepOn)
        XCTAssertTrue(c.problems().isEmpty)
        var bad = c
        bad.idleTimeout = .seconds(31 * 60)
        XCTAssertEqual(bad.problems(), ["idleTimeoutMinutes: must be between 1 and 30"])
    }
}
