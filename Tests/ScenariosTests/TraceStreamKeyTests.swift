import Foundation
import XCTest
import Sim
@testable import Scenarios

/// Random streams are keyed by the trace's content: reordering a scenario's traces changes
/// nothing, two different traces at one index draw different numbers, and one trace under
/// two policies draws the same ones (common random numbers).
final class TraceStreamKeyTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory(prefix: "keysim-streams") }
    override func tearDown() { directory = nil }

    /// A trace typing "the cat sat on the mat. " every 180 ms; `name` changes only its header.
    private func trace(_ name: String) throws -> String {
        let path = directory.path(name + ".jsonl")
        let writer = try TraceFileWriter(path: path, header: TraceHeader(name: name, intendedText: "the cat sat on the mat. "))
        for (index, c) in "the cat sat on the mat. ".enumerated() {
            try writer.write(TraceEvent(time: SimTime(milliseconds: 500 + Double(index) * 180), kind: .key(text: String(c), touchUp: nil, point: nil)))
        }
        try writer.commit()
        return path
    }

    private func scenario(_ traces: [String], otherwiseMs: Int = 2000) throws -> Scenario {
        let list = traces.map { "\"\($0)\"" }.joined(separator: ", ")
        return try ScenarioLoader.parse("""
        { name: "streams", seed: 7, replications: 1, traces: [\(list)],
          debounce: { policy: "sentence-aware", sentenceEndMs: 400, otherwiseMs: \(otherwiseMs) } }
        """, path: directory.path("s.json5"))
    }

    /// The service time of every key: its drawn cost.
    private func keyCosts(_ scenario: Scenario, trace index: Int, replication: Int = 0) throws -> [Int64] {
        let result = try ScenarioRunner.runOne(scenario, item: WorkItem(replication: replication, traceIndex: index))
        return result.observations.keys.map { ($0.inserted - $0.start).nanoseconds }
    }

    func testStreamsFollowTheTraceNotItsPlace() throws {
        let a = try trace("a"), b = try trace("b")
        let ab = try scenario([a, b]), ba = try scenario([b, a])
        let aFirst = try keyCosts(ab, trace: 0)
        XCTAssertEqual(try keyCosts(ba, trace: 1), aFirst, "reordering the trace list changes nothing")
        XCTAssertEqual(try keyCosts(ba, trace: 0), try keyCosts(ab, trace: 1))
        // The same keystrokes in another file (its header differs) draw other costs at index 0.
        XCTAssertNotEqual(try keyCosts(ba, trace: 0), aFirst, "two traces at one index draw different costs")
        XCTAssertNotEqual(try keyCosts(ab, trace: 0, replication: 1), aFirst, "each replication draws its own")
        // One trace under two policies: the same draws.
        XCTAssertEqual(try keyCosts(try scenario([a, b], otherwiseMs: 500), trace: 0), aFirst, "common random numbers")
        XCTAssertEqual(try ScenarioRunner.traceKey(a), try ScenarioRunner.traceKey(directory.path("a.jsonl")))
        XCTAssertEqual(try ScenarioRunner.traceKey(a).count, 16)
    }
}
