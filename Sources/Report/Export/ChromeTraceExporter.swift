import Scenarios

/// One replication's timeline as a Chrome Trace Event file (`{"traceEvents": [...]}`),
/// which Perfetto UI and chrome://tracing open.
///
/// It draws the same `Timeline` as the Perfetto trace: every executor thread (and core) is a
/// track of its tasks; keys, suggestions, cloud requests, the debounce timer, underlines and
/// their verdicts, budget violations and the extension's life get tracks of their own.
/// Slices are complete (`"ph": "X"`) events in microseconds with nanosecond decimals, moments
/// are instant (`"ph": "i"`) events, counters `"ph": "C"` events. Items that overlap in time (a
/// key touched while the previous one waits for the main thread, two requests in flight) are
/// spread over numbered lanes, so no two slices on one track overlap and every one is drawn.
///
/// Flows (each key's chain, each edit's path to its verdict) are flow events (`"ph"` `s`, `t`,
/// `f` with `"bp": "e"`) written after every slice, each at the start of the slice it binds
/// to: a trace viewer binds a flow event to the slice that encloses it on its thread, and no
/// two items of a lane start at the same instant. A moment some flow reaches is a slice of no
/// duration (flow events bind to slices, not to instant events).
public struct ChromeTraceExporter: StreamExporter {
    public let name = "chrome-trace"
    public let title = "a Chrome trace of one run"
    public let fileExtension = "json"
    public let scope = ExportScope.run
    public let summary = "is one replication's timeline as Chrome Trace Event JSON (open it in Perfetto UI, ui.perfetto.dev, "
        + "or chrome://tracing)"
    public let documentation = "one replication's timeline (`--run ID`, default the first run) as Chrome Trace Event JSON: "
        + "`{\"traceEvents\": [...]}`, complete `X` events in microseconds (nanosecond decimals), instants, counters and "
        + "flow events for each key's chain and each edit's path to its verdict. Open it in Perfetto UI "
        + "(ui.perfetto.dev) or chrome://tracing"

    /// The Chrome trace exporter.
    public init() {}

    /// Writes the timeline of `--run`'s run (the first run when none is given) to `output`.
    public func write(_ source: ExportSource, to output: ReportOutput) throws {
        try Self.write(source.store, options: source.options, to: output)
    }

    /// Writes the timeline of `options.runID` (the first run when nil).
    public static func write(_ store: ReportStore, options: ExportOptions, to output: ReportOutput) throws {
        let timeline = try Timeline.read(store, runID: options.runID, options: options)
        try output.write("{\"traceEvents\":[\n")
        var first = true
        func emit(_ event: String) throws {
            try output.write((first ? "" : ",\n") + event)
            first = false
        }
        try emit("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\(JSONWriter.quoted(timeline.processName))}}")
        var flows: [(timeNs: Int64, step: Timeline.FlowStep, tid: Int)] = []
        var tid = 0
        for track in timeline.tracks where !track.slices.isEmpty {
            for (lane, slices) in Timeline.lanes(track.slices).enumerated() {
                tid += 1
                let name = lane == 0 ? track.name : "\(track.name) \(lane + 1)"
                try emit("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(tid),\"args\":{\"name\":\(JSONWriter.quoted(name))}}")
                try emit("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":\(tid),\"args\":{\"sort_index\":\(tid)}}")
                for slice in slices {
                    let args = "{" + slice.args.map { JSONWriter.quoted($0.name) + ":" + JSONWriter.value($0.value) }.joined(separator: ",") + "}"
                    let common = "\"name\":\(JSONWriter.quoted(slice.name)),\"cat\":\(JSONWriter.quoted(slice.category))"
                    if slice.isInstant && slice.flows.isEmpty {
                        try emit("{\(common),\"ph\":\"i\",\"s\":\"t\",\"ts\":\(micros(slice.startNs)),\"pid\":1,\"tid\":\(tid),\"args\":\(args)}")
                    } else {
                        try emit("{\(common),\"ph\":\"X\",\"ts\":\(micros(slice.startNs)),\"dur\":\(micros(slice.endNs - slice.startNs)),\"pid\":1,\"tid\":\(tid),\"args\":\(args)}")
                    }
                    flows += slice.flows.map { (slice.startNs, $0, tid) }
                }
            }
        }
        for counter in timeline.counters {
            for sample in counter.samples {
                let value = counter.isCount ? String(Int64(sample.value)) : JSONWriter.number(sample.value)
                try emit("{\"name\":\(JSONWriter.quoted(counter.name)),\"ph\":\"C\",\"ts\":\(micros(sample.timeNs)),\"pid\":1,\"args\":{\(JSONWriter.quoted(counter.unit)):\(value)}}")
            }
        }
        // After every slice, in time order and, within a flow, in step order.
        flows.sort { ($0.timeNs, $0.step.id, $0.step.position) < ($1.timeNs, $1.step.id, $1.step.position) }
        for flow in flows {
            let phase = switch flow.step.role { case .start: "s"; case .step: "t"; case .end: "f" }
            let binding = flow.step.role == .end ? ",\"bp\":\"e\"" : ""
            try emit("{\"name\":\(JSONWriter.quoted(flow.step.name)),\"cat\":\"flow\",\"ph\":\"\(phase)\",\"id\":\(flow.step.id),\"ts\":\(micros(flow.timeNs)),\"pid\":1,\"tid\":\(flow.tid)\(binding)}")
        }
        try output.write("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"keysim_version\":\(JSONWriter.quoted(KeysimVersion.current)),\"report\":\(JSONWriter.quoted(store.path)),\"run_id\":\(timeline.runID),\"trace_path\":\(JSONWriter.quoted(timeline.tracePath)),\"seed\":\(timeline.seed)}}\n")
        try output.finish()
    }

    /// Nanoseconds as microseconds with three decimals, exactly.
    static func micros(_ nanoseconds: Int64) -> String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let fraction = magnitude % 1000
        let digits = String(fraction)
        return "\(sign)\(magnitude / 1000)." + String(repeating: "0", count: 3 - digits.count) + digits
    }
}
