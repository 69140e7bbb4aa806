import Foundation
@testable import Report
import XCTest

/// `keysim report --format perfetto` on the default scenario's first run, decoded by
/// Perfetto's own generated module (`perfetto_trace_pb2` of the `perfetto` Python package,
/// which `.ci/run` installs) through `Perfetto/decode_pftrace.py`, and checked against the
/// report's rows: tracks, slices, counters and flows by count and by content.
final class PerfettoTraceTests: XCTestCase {
    /// The decoder's summary of a trace (see `decode_pftrace.py`).
    struct Summary: Decodable {
        struct Track: Decodable {
            var name: String
            var kind: String
            var labels: [String]
            var slices: Int
            var instants: Int
            var counter_values: [[Double]]
            var unit: String?
        }

        struct Step: Decodable {
            var track: String
            var ts: Int64
            /// A slice's end; nil for an instant.
            var end: Int64?
            var name: String
            var args: [String: ArgValue]
        }

        struct Flow: Decodable {
            var id: UInt64
            var steps: [Step]
        }

        var packets: Int
        var interned: [String: Int]
        var tracks: [Track]
        var flows: [Flow]
        /// The slices and instants of the tracks `--events` named, in the order they begin.
        var events: [Step]?

        func tracks(named name: String) -> [Track] { tracks.filter { $0.name == name } }
        func total(_ name: String) -> Int { tracks(named: name).reduce(0) { $0 + $1.slices + $1.instants } }
    }

    /// An annotation's value: integer, number or text.
    enum ArgValue: Decodable, Equatable {
        case int(Int64)
        case double(Double)
        case text(String)

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int64.self) { self = .int(value) }
            else if let value = try? container.decode(Double.self) { self = .double(value) }
            else { self = .text(try container.decode(String.self)) }
        }
    }

    func testDefaultScenarioFirstRunDecodesWithTracksSlicesCountersAndFlows() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("default.sqlite"), tracePath = folder.path("run1.pftrace")
        let run = try runKeysim(["run", "scenarios/default.json5", "--replications", "1", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        let export = try runKeysim(["report", db, "--format", "perfetto", "--out", tracePath])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(export.stdout, "")
        // The same report gives the same bytes.
        let again = try runKeysim(["report", db, "--format", "perfetto", "--run", "1", "--out", folder.path("again.pftrace")])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tracePath)), try Data(contentsOf: URL(fileURLWithPath: folder.path("again.pftrace"))))
        let summary = try Self.decode(tracePath)
        let store = try ReportStore(path: db, readOnly: true)
        func count(_ sql: String) throws -> Int { Int(try store.database.query(sql)[0][0].integerValueForTest) }

        // The process, one thread track per executor, every task a slice on its thread.
        let process = try XCTUnwrap(summary.tracks.first { $0.kind == "process" })
        XCTAssertEqual(process.name, "keysim run 1: default, replication 0, trace 0")
        XCTAssertEqual(process.labels, ["keysim 0.1.0", "seed 42", "trace traces/chat-session.jsonl"])
        let threads = summary.tracks.filter { $0.kind == "thread" }
        XCTAssertEqual(threads.map(\.name), ["main thread", "background thread", "model thread"])
        XCTAssertEqual(threads.reduce(0) { $0 + $1.slices }, try count("SELECT COUNT(*) FROM tasks WHERE run_id = 1 AND cancelled = 0"))
        XCTAssertEqual(summary.tracks(named: "main thread")[0].slices,
                       try count("SELECT COUNT(*) FROM tasks WHERE run_id = 1 AND cancelled = 0 AND executor = 'main'"))

        // Async tracks (lanes of one name where items overlap): every row of the run drawn.
        XCTAssertEqual(summary.total("keys (touch → inserted)"), try count("SELECT COUNT(*) FROM keys WHERE run_id = 1"))
        XCTAssertEqual(summary.total("cloud requests"), try count("SELECT COUNT(*) FROM requests WHERE run_id = 1"))
        let requests = try count("SELECT COUNT(*) FROM requests WHERE run_id = 1")
        XCTAssertEqual(summary.total("debounce timer: arm, re-arm, cancel, fire"), try count("SELECT COUNT(*) FROM debounce_events WHERE run_id = 1"))
        XCTAssertEqual(summary.total("debounce timer (armed → fired, re-armed or cancelled)"),
                       try count("SELECT COUNT(*) FROM debounce_events WHERE run_id = 1 AND event IN ('arm', 'rearm')"))
        XCTAssertEqual(summary.total("underlines"), try count("SELECT COUNT(*) FROM underlines WHERE run_id = 1"))
        XCTAssertEqual(summary.total("underline verdicts"),
                       try count("SELECT COUNT(*) FROM underlines WHERE run_id = 1 AND (confirmed_ns IS NOT NULL OR outcome = 'retracted')"))
        XCTAssertEqual(summary.total("budget violations"), try count("SELECT COUNT(*) FROM budget_violations WHERE run_id = 1 AND budget = 'key'"))
        XCTAssertEqual(summary.total("extension memory events"), try count("SELECT COUNT(*) FROM memory_events WHERE run_id = 1"))
        XCTAssertTrue(summary.tracks.filter { $0.kind == "async" }.allSatisfy { $0.slices + $0.instants > 0 }, "no empty track")

        // Counters: one memory sample per instant (start and bundled language both at 0),
        // every queue back to empty at the end.
        let memory = try XCTUnwrap(summary.tracks(named: "memory footprint (MB)").first)
        XCTAssertEqual(memory.unit, "MB")
        XCTAssertEqual(memory.counter_values.count, try count("SELECT COUNT(DISTINCT time_ns) FROM memory_events WHERE run_id = 1"))
        let atStart = try store.database.query("SELECT footprint_mb FROM memory_events WHERE run_id = 1 AND time_ns = 0 ORDER BY seq DESC LIMIT 1")
        XCTAssertEqual(memory.counter_values.first, [0, try XCTUnwrap(atStart[0][0].doubleValueForTest)])
        for thread in ["main", "background", "model"] {
            let queue = try XCTUnwrap(summary.tracks(named: "\(thread) thread queue (tasks waiting)").first)
            XCTAssertEqual(queue.counter_values.last?[1], 0, thread)
            // A queue rises above zero exactly when a task of the thread waited.
            let waited = try count("SELECT COUNT(*) FROM tasks WHERE run_id = 1 AND executor = '\(thread)' AND start_ns > release_ns")
            XCTAssertEqual(try XCTUnwrap(queue.counter_values.map { $0[1] }.max()) > 0, waited > 0, thread)
        }
        // The deepest queue a key met at its touch is one the main thread's counter reached.
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(summary.tracks(named: "main thread queue (tasks waiting)")[0].counter_values.map { $0[1] }.max()),
                                    Double(try count("SELECT MAX(queued_ahead) FROM keys WHERE run_id = 1")))
        XCTAssertEqual(summary.tracks(named: "cloud requests in flight").first?.counter_values.last?[1], 0)

        // Interned names: a few dozen strings for thousands of events.
        let events = summary.tracks.reduce(0) { $0 + $1.slices + $1.instants }
        XCTAssertGreaterThan(events, 5000)
        XCTAssertLessThan(try XCTUnwrap(summary.interned["names"]), 40)

        // Flows: every key's chain, every request's path, every underline's path.
        let keys = try count("SELECT COUNT(*) FROM keys WHERE run_id = 1")
        let underlines = try count("SELECT COUNT(*) FROM underlines WHERE run_id = 1")
        XCTAssertEqual(summary.flows.count, keys + requests + underlines)
        try checkKeyChain(summary, store)
        try checkUnderlinePath(summary, store)
        try checkTimer(try Self.decode(tracePath, events: "debounce timer"), store)
    }

    /// The timer as its records say: a slice per arming from its arm or re-arm to the record
    /// that ended it, an instant per record, and each request's flow from the edit that armed
    /// the timer last, through that arming, to the request, at the times the rows give.
    private func checkTimer(_ summary: Summary, _ store: ReportStore) throws {
        let rows = try store.database.query("""
            SELECT time_ns, event, due_ns, key_index, request_id FROM debounce_events WHERE run_id = 1 ORDER BY seq
            """)
        XCTAssertEqual(Set(rows.map { $0[1] }), [.text("arm"), .text("rearm"), .text("fire"), .text("cancel")], "kills cancel the timer")
        let events = try XCTUnwrap(summary.events)
        let instants = events.filter { $0.end == nil }, slices = events.filter { $0.end != nil }
        XCTAssertEqual(instants.map(\.ts), rows.map { $0[0].integerValueForTest })
        XCTAssertEqual(instants.map(\.name), rows.map { row in
            switch row[1] {
            case .text("arm"): "arm"
            case .text("rearm"): "re-arm"
            case .text("cancel"): "cancel"
            default: row[4] == .null ? "fire, text unchanged" : "fire → request"
            }
        })
        let armings = rows.indices.filter { [.text("arm"), .text("rearm")].contains(rows[$0][1]) }
        XCTAssertEqual(slices.count, armings.count)
        for (slice, index) in zip(slices, armings) {
            XCTAssertEqual(slice.ts, rows[index][0].integerValueForTest)
            XCTAssertEqual(slice.end, rows[index + 1][0].integerValueForTest, "an arming ends at the next record")
            XCTAssertEqual(slice.args["due_ns"], .int(rows[index][2].integerValueForTest))
            XCTAssertEqual(slice.args["key_index"], rows[index][3] == .null ? nil : .int(rows[index][3].integerValueForTest))
            XCTAssertEqual(slice.name.hasSuffix("→ fired"), rows[index + 1][1] == .text("fire"), slice.name)
        }
        // The first request: its timer's last arming, the key that made it, the request.
        let fire = try XCTUnwrap(rows.firstIndex { $0[4] == .integer(0) })
        let arming = try XCTUnwrap(armings.last { $0 < fire })
        let sent = try store.database.query("SELECT sent_ns FROM requests WHERE run_id = 1 AND request_id = 0")[0][0]
        let flow = try XCTUnwrap(summary.flows.first { $0.steps.last?.track == "cloud requests" && $0.steps.last?.args["request_id"] == .int(0) })
        XCTAssertEqual(flow.steps.map(\.track), ["keys (touch → inserted)", "debounce timer (armed → fired, re-armed or cancelled)", "cloud requests"])
        XCTAssertEqual(flow.steps[0].args["key_index"], .int(rows[arming][3].integerValueForTest))
        XCTAssertEqual(flow.steps[1].ts, rows[arming][0].integerValueForTest)
        XCTAssertEqual(flow.steps[2].ts, sent.integerValueForTest)
        XCTAssertEqual(sent, rows[fire][0], "the request leaves when the timer fires")
    }

    /// The decoder is not a rubber stamp: a trace Perfetto would misread is refused, with
    /// what is wrong — here flow ids packed (the schema declares them unpacked, and Perfetto's
    /// decoder reads them only as declared) and a slice end on a track with no open slice.
    func testTheDecoderRefusesWhatPerfettoWouldMisread() throws {
        var writer = PerfettoPacketWriter(sequenceID: 1)
        var bytes = writer.trackDescriptor { $0.uint(PerfettoProto.TrackDescriptor.uuid, 7) }
        bytes += writer.trackEvent(timestampNs: 5, trackUUID: 7, type: PerfettoProto.TrackEvent.sliceEnd)
        var event = ProtobufWriter()
        event.uint(PerfettoProto.TrackEvent.type, PerfettoProto.TrackEvent.instant)
        event.uint(PerfettoProto.TrackEvent.trackUUID, 7)
        event.packedFixed64s(PerfettoProto.TrackEvent.flowIDs, [1, 2])
        var packet = ProtobufWriter()
        packet.uint(PerfettoProto.TracePacket.timestamp, 6)
        packet.uint(PerfettoProto.TracePacket.trustedPacketSequenceID, 1)
        packet.lengthDelimited(PerfettoProto.TracePacket.trackEvent, event.bytes)
        packet.uint(PerfettoProto.TracePacket.sequenceFlags, PerfettoProto.TracePacket.needsIncrementalState)
        var trace = ProtobufWriter()
        trace.lengthDelimited(PerfettoProto.Trace.packet, packet.bytes)
        bytes += trace.bytes
        let folder = try TemporaryFolder()
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path("bad.pftrace")))
        XCTAssertThrowsError(try Self.decode(folder.path("bad.pftrace"))) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("packet 2 does not re-serialise to its bytes"), message)
            XCTAssertTrue(message.contains("a slice end on track  with no open slice"), message)
        }
    }

    /// Key 0: touch → key task → lookup → re-rank → draw, on their tracks at their times.
    private func checkKeyChain(_ summary: Summary, _ store: ReportStore) throws {
        let key = try store.database.query("SELECT k.touch_ns, s.text_version FROM keys k JOIN suggestions s USING (run_id, key_index) WHERE run_id = 1 AND key_index = 0")[0]
        let flow = try XCTUnwrap(summary.flows.first { $0.steps.first?.args["key_index"] == .int(0) && $0.steps.count == 5 })
        XCTAssertEqual(flow.steps.map(\.track), ["keys (touch → inserted)", "main thread", "background thread", "model thread", "main thread"])
        XCTAssertEqual(flow.steps.map(\.name), ["key (insert)", "key", "lookup", "rerank", "draw"])
        XCTAssertEqual(flow.steps[0].ts, key[0].integerValueForTest)
        XCTAssertEqual(flow.steps[1].args["tag"], .int(0), "the key task is tagged with its key")
        for step in flow.steps.dropFirst(2) {
            XCTAssertEqual(step.args["tag"], .int(key[1].integerValueForTest), "suggestion stages are tagged with the text version")
        }
        for (index, kind) in ["key", "lookup", "rerank", "draw"].enumerated() {
            guard case .int(let taskID) = flow.steps[index + 1].args["task_id"] else { return XCTFail("no task_id") }
            let task = try store.database.query("SELECT kind, start_ns FROM tasks WHERE run_id = 1 AND task_id = ?", [.integer(taskID)])[0]
            XCTAssertEqual(task[0], .text(kind))
            XCTAssertEqual(flow.steps[index + 1].ts, task[1].integerValueForTest)
        }
        XCTAssertEqual(flow.steps.map(\.ts), flow.steps.map(\.ts).sorted(), "a flow runs forward in time")
    }

    /// The first local underline the cloud judged: the key that finished its word → check →
    /// chip drawn → underline → the request whose answer judged it → the verdict.
    private func checkUnderlinePath(_ summary: Summary, _ store: ReportStore) throws {
        let underline = try store.database.query("""
            SELECT u.underline_id, u.word_finished_ns, u.shown_ns, COALESCE(u.confirmed_ns, u.end_ns), u.confirmed_ns IS NOT NULL,
                   (SELECT q.request_id FROM requests q WHERE q.run_id = 1 AND q.outcome = 'answered' AND q.end_ns = COALESCE(u.confirmed_ns, u.end_ns))
            FROM underlines u WHERE u.run_id = 1 AND u.origin = 'local' AND (u.confirmed_ns IS NOT NULL OR u.outcome = 'retracted')
            ORDER BY u.underline_id LIMIT 1
            """)[0]
        let id = underline[0].integerValueForTest
        let flow = try XCTUnwrap(summary.flows.first { $0.steps.last?.args["underline_id"] == .int(id) })
        XCTAssertEqual(flow.steps.map(\.track), ["keys (touch → inserted)", "background thread", "main thread", "underlines",
                                                 "cloud requests", "underline verdicts"])
        XCTAssertEqual(Array(flow.steps.map(\.name).dropFirst()), ["check", "draw", flow.steps[3].name, "request (answered)",
                                                                   underline[4].integerValueForTest == 1 ? "confirmed" : "retracted"])
        XCTAssertTrue(flow.steps[3].name.hasPrefix("underline (local, "), flow.steps[3].name)
        XCTAssertEqual(flow.steps[0].ts, underline[1].integerValueForTest, "the key that finished the word")
        XCTAssertEqual(flow.steps[2].args["tag"], .int(id), "the chip's draw is tagged with the underline")
        XCTAssertEqual(flow.steps[3].ts, underline[2].integerValueForTest)
        XCTAssertEqual(flow.steps[4].args["request_id"], .int(underline[5].integerValueForTest))
        XCTAssertEqual(flow.steps[5].args["request_id"], .int(underline[5].integerValueForTest))
        XCTAssertEqual(flow.steps[5].ts, underline[3].integerValueForTest)
    }

    /// Runs `Perfetto/decode_pftrace.py` on `path`: the decoded trace's summary.
    /// With `events`, the summary lists the slices and instants of the tracks whose name starts with it.
    static func decode(_ path: String, events: String? = nil) throws -> Summary {
        try JSONDecoder().decode(Summary.self, from: try PythonScript.run("Perfetto/decode_pftrace.py", [path] + (events.map { ["--events", $0] } ?? [])))
    }
}

extension SQLValue {
    /// The integer (tests).
    fileprivate var integerValueForTest: Int64 { if case .integer(let value) = self { value } else { -1 } }
    /// The number (tests).
    fileprivate var doubleValueForTest: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }
}
