import XCTest
import Sim
@testable import Scenarios

final class DictationConfigTests: XCTestCase {
    func read(_ text: String) throws -> DictationConfig {
        let value = try JSON5Parser.parse(text)
        return try DictationConfig.readDictation(ConfigField(value: value, path: "dictation", file: "s.json5"))
    }

    func error(_ text: String) -> String {
        do { _ = try read(text); return "no error" } catch { return "\(error)" }
    }

    func testEmptyObjectIsTheSeed() throws {
        XCTAssertEqual(try read("{}"), DictationConfig())
    }

    func testEveryField() throws {
        let c = try read("""
        {
          sharedFile: 1, doorbell: { type: "lognormal", medianMs: 3, p99Ms: 9 }, appLaunch: 250,
          modelLoad: { cpu: 4000 }, swipeBack: { type: "uniform", minMs: 800, maxMs: 2000 }, insert: 0.5,
          engine: "cpu", neuralEngineInBackground: false, preRollMs: 250, idleTimeoutMinutes: 30,
          micPolicy: "pauseBetweenDictations", suspendDelay: 3000, recordingCapMs: 60000,
          transcription: { neuralEngine: [{ clipMs: 1000, minMs: 20, maxMs: 30 }, { clipMs: 5000, minMs: 60, maxMs: 90 }] },
          peakMemoryMB: { neuralEngine: 75 }, stopToTextBudgetMs: 80,
        }
        """)
        XCTAssertEqual(c.sharedFile, .constant(1))
        XCTAssertEqual(c.doorbell, .lognormal(median: 3, p99: 9))
        XCTAssertEqual(c.appLaunch, .constant(250))
        XCTAssertEqual(c.modelLoad, .init(neuralEngine: .constant(130), cpu: .constant(4000)))
        XCTAssertEqual(c.swipeBack, .uniform(min: 800, max: 2000))
        XCTAssertEqual(c.engine, .cpu)
        XCTAssertFalse(c.neuralEngineInBackground)
        XCTAssertEqual(c.preRoll, .milliseconds(250))
        XCTAssertEqual(c.idleTimeout, .seconds(1800))
        XCTAssertEqual(c.micPolicy, .pauseBetweenDictations)
        XCTAssertEqual(c.suspendDelay, .constant(3000))
        XCTAssertEqual(c.recordingCap, .seconds(60))
        XCTAssertEqual(c.transcription.neuralEngine.points.count, 2)
        XCTAssertEqual(c.transcription.cpu, .seedCPU)
        XCTAssertEqual(c.peakMemoryMegabytes, .init(neuralEngine: 75, cpu: 88))
        XCTAssertEqual(c.stopToTextBudget, .milliseconds(80))
        XCTAssertNil(try read("{ stopToTextBudgetMs: null }").stopToTextBudget)
        XCTAssertNil(try read("{ recordingCapMs: null }").recordingCap)
    }

    func testErrors() {
        XCTAssertEqual(error("{ idleTimeoutMinutes: 45 }"),
                       "s.json5:1:23: error: dictation.idleTimeoutMinutes: must be between 1 and 30 (got 45)")
        XCTAssertEqual(error("{ idleTimeoutMinutes: 0.5 }"),
                       "s.json5:1:23: error: dictation.idleTimeoutMinutes: must be between 1 and 30 (got 0.5)")
        XCTAssertEqual(error("{ micPolicy: \"off\" }"),
                       "s.json5:1:14: error: dictation.micPolicy: unknown value 'off'; expected one of: keepOn, pauseBetweenDictations")
        XCTAssertEqual(error("{ engine: \"gpu\" }"),
                       "s.json5:1:11: error: dictation.engine: unknown value 'gpu'; expected one of: neuralEngine, cpu; did you mean 'cpu'?")
        XCTAssertEqual(error("{\n  preRolMs: 400 }"),
                       "s.json5:2:13: error: dictation.preRolMs: unknown field 'preRolMs'; did you mean 'preRollMs'?")
        XCTAssertEqual(error("{ modelLoad: { ane: 1 } }"),
                       "s.json5:1:21: error: dictation.modelLoad.ane: unknown field 'ane'; known fields: cpu, neuralEngine")
        XCTAssertEqual(error("{ recordingCapMs: 0 }"),
                       "s.json5:1:19: error: dictation.recordingCapMs: must be greater than 0 (got 0)")
        XCTAssertEqual(error("{ transcription: { cpu: [{ clipMs: 1, minMs: 9, maxMs: 5 }] } }"),
                       "s.json5:1:56: error: dictation.transcription.cpu[0].maxMs: must be at least minMs (9)")
        XCTAssertEqual(error("{ transcription: { cpu: [{ clipMs: 5, minMs: 1, maxMs: 2 }, { clipMs: 5, minMs: 1, maxMs: 2 }] } }"),
                       "s.json5:1:25: error: dictation.transcription.cpu: point 1: clipMs must increase")
        XCTAssertEqual(error("{ doorbell: { type: \"uniform\", minMs: 5, maxMs: 1 } }"),
                       "s.json5:1:49: error: dictation.doorbell.maxMs: must be at least minMs (5.0)")
        XCTAssertEqual(error("[]"), "s.json5:1:1: error: dictation: expected an object, found an array")
    }
}
