import Foundation
import XCTest

@testable import Report
import Scenarios
import Sim

/// Verdict coverage and the time to verdict on hand-built traces, replayed by
/// `ScenarioRunner` under exact costs: keys 2 ms, other work 1 ms, a 50 ms network, a 300 ms
/// cloud behind a fixed 400 ms debounce, certain checkers, no fix ever accepted. "teh " is
/// finished at 300 ms, underlined at once, sent at 702 ms and answered at 1052 ms.
final class VerdictCoverageTests: XCTestCase {
    private static let scenario = """
        {
          name: "coverage", seed: 1, replications: 1, traces: ["t.jsonl"],
          keyboard: { work: {
            key: { thread: "main", priority: 10, cost: 2 }, lookup: { thread: "background", priority: 5, cost: 1 },
            rerank: { thread: "model", priority: 5, cost: 1 }, draw: { thread: "main", priority: 8, cost: 1 },
            check: { thread: "background", priority: 3, cost: 1 } } },
          checker: { recall: 1, falsePositiveRate: FALSE_POSITIVES },
          debounce: { policy: "fixed", delayMs: 400 },
          network: { roundTrip: 50, loss: 0 },
          cloud: { service: 300, recall: 1, falsePositiveRate: 0 },
          underlines: { speculative: true, acceptanceRate: 0 },
        }
        """

    private enum Event {
        case keys(String, fromMs: Double)
        case backspaces(Int, fromMs: Double)
        case sent(atMs: Double)
        case hidden(atMs: Double)
        case shown(atMs: Double)
    }

    /// Replays `events` (the field opened with `intended` at 0 ms) and returns the run's
    /// result and the verdict metrics' values.
    private func replay(_ events: [Event], intended: String = "the cat sat.", falsePositives: Double = 0) throws -> (RunResult, [String: Double]) {
        let folder = try ReportFolder()
        func line(_ object: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        var lines = [try line(["keysim": "trace", "version": 1, "name": "coverage", "language": "en"]),
                     try line(["t": 0, "type": "field", "change": "opened", "intended": intended])]
        for event in events {
            switch event {
            case .keys(let text, let start):
                for (index, character) in text.enumerated() {
                    lines.append(try line(["t": start + Double(index) * 100, "type": "key", "text": String(character)]))
                }
            case .backspaces(let count, let start):
                for index in 0..<count { lines.append(try line(["t": start + Double(index) * 100, "type": "backspace"])) }
            case .sent(let ms): lines.append(try line(["t": ms, "type": "field", "change": "cleared", "intended": intended]))
            case .hidden(let ms): lines.append(try line(["t": ms, "type": "keyboard.hide"]))
            case .shown(let ms): lines.append(try line(["t": ms, "type": "keyboard.show"]))
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder.path("t.jsonl"), atomically: true, encoding: .utf8)
        try Self.scenario.replacingOccurrences(of: "FALSE_POSITIVES", with: "\(falsePositives)")
            .write(toFile: folder.path("s.json5"), atomically: true, encoding: .utf8)
        let scenario = try ScenarioLoader.load(path: folder.path("s.json5"))
        let result = try ScenarioRunner.runOne(scenario, item: WorkItem(replication: 0, traceIndex: 0))
        var values: [String: Double] = [:]
        for metric in [RunMetric.underlineVerdictMeanMs, .verdictCoverage, .errorVerdictCoverage, .underlineVerdictP50Ms,
                       .underlineVerdictP95Ms, .underlineVerdictP99Ms] {
            if let value = metric.value(for: result, keyboard: scenario.keyboard) { values[metric.name] = value }
        }
        return (result, values)
    }

    func testAWordEditedBeforeTheAnswerIsNotCovered() throws {
        let (result, values) = try replay([.keys("teh ", fromMs: 0), .backspaces(3, fromMs: 500), .keys("he cat sat.", fromMs: 800)])
        XCTAssertEqual(result.observations.underlines.map(\.outcome), [.edited])
        XCTAssertEqual(values["verdict_coverage"], 0)
        XCTAssertEqual(values["error_verdict_coverage"], 0)
        XCTAssertNil(values["underline_verdict_p50_ms"], "no verdict, no time to verdict")
        XCTAssertNil(values["underline_verdict_mean_ms"])
    }

    func testAWordAnsweredThenEditedIsCovered() throws {
        let (result, values) = try replay([.keys("teh ", fromMs: 0), .backspaces(3, fromMs: 3000), .keys("he cat sat.", fromMs: 3300)])
        XCTAssertEqual(result.observations.underlines.map(\.outcome), [.edited], "edited after its confirmation")
        XCTAssertEqual(result.observations.underlines.first?.confirmed?.milliseconds, 1052)
        XCTAssertEqual(values["verdict_coverage"], 1)
        XCTAssertEqual(values["error_verdict_coverage"], 1)
        for percentile in ["p50", "p95", "p99", "mean"] {
            XCTAssertEqual(values["underline_verdict_\(percentile)_ms"], 752, "finished at 300 ms, confirmed at 1052 ms")
        }
    }

    func testAMessageSentBeforeTheAnswerIsNotCovered() throws {
        let (result, values) = try replay([.keys("teh ", fromMs: 0), .sent(atMs: 500), .keys("the cat sat.", fromMs: 600)])
        XCTAssertEqual(result.observations.underlines.map(\.outcome), [.fieldChanged])
        XCTAssertEqual(values["verdict_coverage"], 0)
        XCTAssertEqual(values["error_verdict_coverage"], 0)
    }

    func testHidingTheKeyboardCancelsTheRequestAndTheNextOneCanStillCover() throws {
        // Hidden at 500 ms: the pending request is cancelled (cloud.whenHidden: cancel), so no
        // verdict can come while hidden. Shown again and typed on, the next request carries
        // "teh" again and its answer settles the chip, still showing: covered.
        let (result, values) = try replay([.keys("teh ", fromMs: 0), .hidden(atMs: 500), .shown(atMs: 5000),
                                           .keys("cat sat.", fromMs: 5100)], intended: "the cat sat.")
        XCTAssertEqual(result.observations.requests.first.map { $0.sent.milliseconds > 5000 }, true, "nothing was sent while hidden")
        XCTAssertEqual(values["verdict_coverage"], 1)
        let (sentWhileHidden, hiddenValues) = try replay([.keys("teh ", fromMs: 0), .hidden(atMs: 500), .sent(atMs: 5000),
                                                          .shown(atMs: 5000)])
        XCTAssertEqual(sentWhileHidden.observations.underlines.map(\.outcome), [.fieldChanged])
        XCTAssertEqual(hiddenValues["verdict_coverage"], 0, "hidden, then the message sent: no verdict in time")
    }

    func testARetractionIsAVerdictAndCorrectWordsStayOutOfTheErrorShare() throws {
        // The local checker flags every word; the cloud retracts the correct ones.
        let (result, values) = try replay([.keys("the cat sat. ", fromMs: 0)], falsePositives: 1)
        XCTAssertFalse(result.observations.underlines.isEmpty)
        XCTAssertTrue(result.observations.underlines.allSatisfy { $0.outcome == .retracted && !$0.trueError })
        XCTAssertEqual(values["verdict_coverage"], 1)
        XCTAssertNil(values["error_verdict_coverage"], "no local underline on an error")
        let times = result.observations.underlines.compactMap { $0.timeToVerdict?.nanoseconds }.sorted()
        XCTAssertEqual(values["underline_verdict_p50_ms"], Double(times[(50 * times.count + 99) / 100 - 1]) / 1e6)
        XCTAssertEqual(values["underline_verdict_p99_ms"], Double(times.last!) / 1e6)
    }
}
