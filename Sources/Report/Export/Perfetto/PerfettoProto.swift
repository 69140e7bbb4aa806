/// The field numbers and enum values of Perfetto's trace format that the exporter writes,
/// from `protos/perfetto/trace/perfetto_trace.proto` (checked against the generated module
/// `perfetto_trace_pb2` of the `perfetto` Python package the tests decode with).
///
/// Repeated numeric fields of these messages are declared unpacked (proto2 default), and
/// Perfetto's own decoder reads them only as declared, so the exporter writes them unpacked.
enum PerfettoProto {
    /// `Trace`.
    enum Trace {
        static let packet: UInt32 = 1
    }

    /// `TracePacket`.
    enum TracePacket {
        static let timestamp: UInt32 = 8
        static let trustedPacketSequenceID: UInt32 = 10
        static let trackEvent: UInt32 = 11
        static let internedData: UInt32 = 12
        static let sequenceFlags: UInt32 = 13
        static let trackDescriptor: UInt32 = 60
        /// `SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED`.
        static let incrementalStateCleared: UInt64 = 1
        /// `SequenceFlags.SEQ_NEEDS_INCREMENTAL_STATE`.
        static let needsIncrementalState: UInt64 = 2
    }

    /// `TrackDescriptor`.
    enum TrackDescriptor {
        static let uuid: UInt32 = 1
        static let name: UInt32 = 2
        static let process: UInt32 = 3
        static let thread: UInt32 = 4
        static let parentUUID: UInt32 = 5
        static let counter: UInt32 = 8
        static let childOrdering: UInt32 = 11
        static let siblingOrderRank: UInt32 = 12
        /// `ChildTracksOrdering.EXPLICIT`: children ordered by `sibling_order_rank`.
        static let explicitOrdering: UInt64 = 3
    }

    /// `ProcessDescriptor`.
    enum ProcessDescriptor {
        static let pid: UInt32 = 1
        static let processName: UInt32 = 6
        static let processLabels: UInt32 = 8
    }

    /// `ThreadDescriptor`.
    enum ThreadDescriptor {
        static let pid: UInt32 = 1
        static let tid: UInt32 = 2
        static let threadName: UInt32 = 5
    }

    /// `CounterDescriptor`.
    enum CounterDescriptor {
        static let unit: UInt32 = 3
        static let unitName: UInt32 = 6
        /// `Unit.UNIT_COUNT`.
        static let unitCount: UInt64 = 2
    }

    /// `TrackEvent`.
    enum TrackEvent {
        static let categoryIIDs: UInt32 = 3
        static let debugAnnotations: UInt32 = 4
        static let type: UInt32 = 9
        static let nameIID: UInt32 = 10
        static let trackUUID: UInt32 = 11
        static let counterValue: UInt32 = 30
        static let doubleCounterValue: UInt32 = 44
        static let flowIDs: UInt32 = 47
        static let terminatingFlowIDs: UInt32 = 48
        /// `Type.TYPE_SLICE_BEGIN`, `TYPE_SLICE_END`, `TYPE_INSTANT`, `TYPE_COUNTER`.
        static let sliceBegin: UInt64 = 1
        static let sliceEnd: UInt64 = 2
        static let instant: UInt64 = 3
        static let counter: UInt64 = 4
    }

    /// `InternedData`, and the iid/name pairs it holds (`EventCategory`, `EventName`,
    /// `DebugAnnotationName`: `iid = 1`, `name = 2` each).
    enum InternedData {
        static let eventCategories: UInt32 = 1
        static let eventNames: UInt32 = 2
        static let debugAnnotationNames: UInt32 = 3
        static let iid: UInt32 = 1
        static let name: UInt32 = 2
    }

    /// `DebugAnnotation`.
    enum DebugAnnotation {
        static let nameIID: UInt32 = 1
        static let intValue: UInt32 = 4
        static let doubleValue: UInt32 = 5
        static let stringValue: UInt32 = 6
    }
}
