/// One replication's timeline as a native Perfetto trace (`.pftrace`): protobuf `TracePacket`s
/// that Perfetto UI (ui.perfetto.dev) and `trace_processor` read directly.
///
/// The run is a process; each executor thread (and core) is a thread track of its tasks; keys,
/// suggestions, cloud requests in flight, the debounce timer, underlines and their verdicts,
/// budget violations and the extension's life (kills and restarts, downloads, token refusals,
/// memory events) are async tracks of the process, spread over lanes of one name where items
/// overlap. Flows link each key's chain and each edit's path to its verdict; counters follow
/// each thread's queue, the requests in flight and the memory footprint. Event names,
/// categories and argument names are interned. The timeline is the Chrome trace's
/// (`Timeline`), so both formats show the same.
public struct PerfettoExporter: StreamExporter {
    public let name = "perfetto"
    public let title = "a native Perfetto trace of one run"
    public let fileExtension = "pftrace"
    public let scope = ExportScope.run
    public let summary = "is the same timeline as a native Perfetto trace (.pftrace, binary protobuf)"
    public let documentation = "the same timeline as `chrome-trace` as a native Perfetto trace (`.pftrace`: protobuf "
        + "`TracePacket`s with track descriptors, track events, flows, counter tracks and interned names), which "
        + "Perfetto UI and `trace_processor` read directly; typed text is never included"

    /// The Perfetto exporter.
    public init() {}

    /// Writes the timeline of `--run`'s run (the first run when none is given) to `output`.
    public func write(_ source: ExportSource, to output: ReportOutput) throws {
        try Self.export(store: source.store, runID: source.options.runID, to: output)
    }

    /// Writes the timeline of `runID` (the first run when nil) to `output`.
    public static func export(store: ReportStore, runID: Int64?, to output: ReportOutput) throws {
        let timeline = try Timeline.read(store, runID: runID, options: ExportOptions(runID: runID))
        for packet in packets(timeline) { try output.write(packet) }
        try output.finish()
    }

    /// An event of the trace before it is written: events are written in time order.
    private struct Pending {
        enum Kind {
            case begin(Timeline.Slice)
            case end
            case instant(Timeline.Slice)
            case counter(PerfettoPacketWriter.AnnotationValue)
        }

        var timeNs: Int64
        /// At one instant: slices end (0) before others begin (1), counters last (2).
        var phase: Int
        /// At one instant and phase: causes before effects (`Timeline.Link.causalRank`).
        var rank: Int
        var sequence: Int
        var trackUUID: UInt64
        var kind: Kind
    }

    /// The trace's packets: the process and its tracks, then every event in time order.
    static func packets(_ timeline: Timeline) -> [[UInt8]] {
        // Ids derived from the run, so traces of several runs concatenated stay apart.
        let base = UInt64(truncatingIfNeeded: timeline.runID) << 20
        let processUUID = base | 1
        let pid = Int64(Int32(truncatingIfNeeded: timeline.runID))
        var writer = PerfettoPacketWriter(sequenceID: max(1, UInt64(UInt32(truncatingIfNeeded: timeline.runID))))
        var packets: [[UInt8]] = []
        packets.append(writer.trackDescriptor { track in
            track.uint(PerfettoProto.TrackDescriptor.uuid, processUUID)
            track.message(PerfettoProto.TrackDescriptor.process) { process in
                process.int(PerfettoProto.ProcessDescriptor.pid, pid)
                process.string(PerfettoProto.ProcessDescriptor.processName, timeline.processName)
                for label in ["keysim \(KeysimVersion.current)", "seed \(timeline.seed)", "trace \(timeline.tracePath)"] {
                    process.string(PerfettoProto.ProcessDescriptor.processLabels, label)
                }
            }
            track.uint(PerfettoProto.TrackDescriptor.childOrdering, PerfettoProto.TrackDescriptor.explicitOrdering)
        })

        var pending: [Pending] = []
        var nextUUID = processUUID
        var rank: Int64 = 0
        var tid: Int64 = 0
        for track in timeline.tracks where !track.slices.isEmpty {
            for (lane, slices) in Timeline.lanes(track.slices).enumerated() {
                nextUUID += 1
                rank += 1
                let uuid = nextUUID
                let isThread = track.kind == .thread && lane == 0
                if isThread { tid += 1 }
                packets.append(writer.trackDescriptor { [tid] descriptor in
                    descriptor.uint(PerfettoProto.TrackDescriptor.uuid, uuid)
                    // Lanes of one async track share its name: the UI shows them as one track.
                    if !isThread {
                        descriptor.string(PerfettoProto.TrackDescriptor.name, track.kind == .thread ? "\(track.name) (overlapping)" : track.name)
                    } else {
                        descriptor.message(PerfettoProto.TrackDescriptor.thread) { thread in
                            thread.int(PerfettoProto.ThreadDescriptor.pid, pid)
                            thread.int(PerfettoProto.ThreadDescriptor.tid, tid)
                            thread.string(PerfettoProto.ThreadDescriptor.threadName, track.name)
                        }
                    }
                    descriptor.uint(PerfettoProto.TrackDescriptor.parentUUID, processUUID)
                    descriptor.int(PerfettoProto.TrackDescriptor.siblingOrderRank, rank)
                })
                for slice in slices {
                    let causal = slice.link?.causalRank ?? 6
                    if slice.isInstant || slice.endNs == slice.startNs {
                        pending.append(Pending(timeNs: slice.startNs, phase: 1, rank: causal, sequence: pending.count, trackUUID: uuid,
                                               kind: .instant(slice)))
                    } else {
                        pending.append(Pending(timeNs: slice.startNs, phase: 1, rank: causal, sequence: pending.count, trackUUID: uuid,
                                               kind: .begin(slice)))
                        pending.append(Pending(timeNs: slice.endNs, phase: 0, rank: causal, sequence: pending.count, trackUUID: uuid,
                                               kind: .end))
                    }
                }
            }
        }
        for counter in timeline.counters where !counter.samples.isEmpty {
            nextUUID += 1
            rank += 1
            let uuid = nextUUID
            packets.append(writer.trackDescriptor { descriptor in
                descriptor.uint(PerfettoProto.TrackDescriptor.uuid, uuid)
                descriptor.string(PerfettoProto.TrackDescriptor.name, counter.name)
                descriptor.uint(PerfettoProto.TrackDescriptor.parentUUID, processUUID)
                descriptor.message(PerfettoProto.TrackDescriptor.counter) { unit in
                    if counter.isCount { unit.uint(PerfettoProto.CounterDescriptor.unit, PerfettoProto.CounterDescriptor.unitCount) }
                    unit.string(PerfettoProto.CounterDescriptor.unitName, counter.unit)
                }
                descriptor.int(PerfettoProto.TrackDescriptor.siblingOrderRank, rank)
            })
            for sample in counter.samples {
                let value: PerfettoPacketWriter.AnnotationValue = counter.isCount ? .int(Int64(sample.value)) : .double(sample.value)
                pending.append(Pending(timeNs: sample.timeNs, phase: 2, rank: 0, sequence: pending.count, trackUUID: uuid, kind: .counter(value)))
            }
        }

        pending.sort { ($0.timeNs, $0.phase, $0.rank, $0.sequence) < ($1.timeNs, $1.phase, $1.rank, $1.sequence) }
        for event in pending {
            switch event.kind {
            case .begin(let slice):
                packets.append(sliceEvent(&writer, slice, type: PerfettoProto.TrackEvent.sliceBegin, trackUUID: event.trackUUID))
            case .instant(let slice):
                packets.append(sliceEvent(&writer, slice, type: PerfettoProto.TrackEvent.instant, trackUUID: event.trackUUID))
            case .end:
                packets.append(writer.trackEvent(timestampNs: event.timeNs, trackUUID: event.trackUUID, type: PerfettoProto.TrackEvent.sliceEnd))
            case .counter(let value):
                packets.append(writer.trackEvent(timestampNs: event.timeNs, trackUUID: event.trackUUID, type: PerfettoProto.TrackEvent.counter,
                                                 counterValue: value))
            }
        }
        return packets
    }

    /// The event that begins a slice, or an instant: its name, category, args and flows.
    private static func sliceEvent(_ writer: inout PerfettoPacketWriter, _ slice: Timeline.Slice, type: UInt64, trackUUID: UInt64) -> [UInt8] {
        let annotations: [(name: String, value: PerfettoPacketWriter.AnnotationValue)] = slice.args.compactMap { arg in
            switch arg.value {
            case .integer(let value): (arg.name, .int(value))
            case .real(let value): (arg.name, .double(value))
            case .text(let value): (arg.name, .string(value))
            case .null, .blob: nil
            }
        }
        return writer.trackEvent(timestampNs: slice.startNs, trackUUID: trackUUID, type: type, name: slice.name, category: slice.category,
                                 annotations: annotations, flowIDs: slice.flows.filter { $0.role != .end }.map(\.id),
                                 terminatingFlowIDs: slice.flows.filter { $0.role == .end }.map(\.id))
    }
}
