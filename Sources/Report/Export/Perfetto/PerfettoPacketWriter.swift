/// Writes the `TracePacket`s of one packet sequence: track descriptors, and track events whose
/// names, categories and argument names are interned — each string is sent once, in the
/// `InternedData` of the first packet that uses it, and referred to by its iid after.
///
/// Every packet is one `Trace.packet` field, so the file is the concatenation of the packets
/// written (and two such files concatenated are still one valid trace).
struct PerfettoPacketWriter {
    /// A value of a debug annotation.
    enum AnnotationValue: Equatable {
        case int(Int64)
        case double(Double)
        case string(String)
    }

    /// The `trusted_packet_sequence_id` of every packet.
    let sequenceID: UInt64
    /// Interned strings by kind: the string's iid (from 1).
    private var eventNames: [String: UInt64] = [:]
    private var categories: [String: UInt64] = [:]
    private var annotationNames: [String: UInt64] = [:]
    /// Whether the first packet (the one that clears incremental state) has been written.
    private var started = false

    /// A writer for the sequence `sequenceID` (not 0).
    init(sequenceID: UInt64) {
        precondition(sequenceID > 0, "packet sequence ids start at 1")
        self.sequenceID = sequenceID
    }

    /// A `TrackDescriptor` packet, its fields written by `body` in field-number order.
    mutating func trackDescriptor(_ body: (inout ProtobufWriter) -> Void) -> [UInt8] {
        var descriptor = ProtobufWriter()
        body(&descriptor)
        return packet(timestampNs: nil, trackEvent: nil, interned: [], flags: nil, trackDescriptor: descriptor.bytes)
    }

    /// A `TrackEvent` packet at `timestampNs` on the track `trackUUID`.
    ///
    /// - Parameters:
    ///   - type: `TrackEvent.Type` (`PerfettoProto.TrackEvent.sliceBegin`, …).
    ///   - name, category: interned; nil writes none (slice ends and counter values).
    ///   - annotations: debug annotations, their names interned.
    ///   - flowIDs, terminatingFlowIDs: the flows this event starts or passes, and ends.
    ///   - counterValue: the value of a counter event, a whole number or a measurement.
    mutating func trackEvent(timestampNs: Int64, trackUUID: UInt64, type: UInt64, name: String? = nil, category: String? = nil,
                             annotations: [(name: String, value: AnnotationValue)] = [], flowIDs: [UInt64] = [],
                             terminatingFlowIDs: [UInt64] = [], counterValue: AnnotationValue? = nil) -> [UInt8] {
        precondition(timestampNs >= 0, "trace timestamps are unsigned")
        // InternedData lists categories (1), then names (2), then annotation names (3).
        var interned = ProtobufWriter()
        let categoryIID = category.map { Self.intern($0, in: &categories, field: PerfettoProto.InternedData.eventCategories, into: &interned) }
        let nameIID = name.map { Self.intern($0, in: &eventNames, field: PerfettoProto.InternedData.eventNames, into: &interned) }
        let annotationIIDs = annotations.map {
            Self.intern($0.name, in: &annotationNames, field: PerfettoProto.InternedData.debugAnnotationNames, into: &interned)
        }
        var event = ProtobufWriter()
        if let categoryIID { event.uint(PerfettoProto.TrackEvent.categoryIIDs, categoryIID) }
        for (iid, annotation) in zip(annotationIIDs, annotations) {
            event.message(PerfettoProto.TrackEvent.debugAnnotations) { field in
                field.uint(PerfettoProto.DebugAnnotation.nameIID, iid)
                switch annotation.value {
                case .int(let value): field.int(PerfettoProto.DebugAnnotation.intValue, value)
                case .double(let value): field.double(PerfettoProto.DebugAnnotation.doubleValue, value)
                case .string(let value): field.string(PerfettoProto.DebugAnnotation.stringValue, value)
                }
            }
        }
        event.uint(PerfettoProto.TrackEvent.type, type)
        if let nameIID { event.uint(PerfettoProto.TrackEvent.nameIID, nameIID) }
        event.uint(PerfettoProto.TrackEvent.trackUUID, trackUUID)
        switch counterValue {
        case .int(let value): event.int(PerfettoProto.TrackEvent.counterValue, value)
        case .double(let value): event.double(PerfettoProto.TrackEvent.doubleCounterValue, value)
        case .string, nil: break
        }
        // Declared `repeated fixed64` without [packed = true]: one field per id.
        for id in flowIDs { event.fixed64(PerfettoProto.TrackEvent.flowIDs, id) }
        for id in terminatingFlowIDs { event.fixed64(PerfettoProto.TrackEvent.terminatingFlowIDs, id) }
        return packet(timestampNs: timestampNs, trackEvent: event.bytes, interned: interned.bytes,
                      flags: PerfettoProto.TracePacket.needsIncrementalState, trackDescriptor: nil)
    }

    /// One packet as a `Trace.packet` field, its fields in number order. The first packet of
    /// the sequence says its incremental state starts empty; event packets say they need it.
    private mutating func packet(timestampNs: Int64?, trackEvent: [UInt8]?, interned: [UInt8], flags: UInt64?,
                                 trackDescriptor: [UInt8]?) -> [UInt8] {
        let flags = started ? flags : PerfettoProto.TracePacket.incrementalStateCleared | (flags ?? 0)
        started = true
        var packet = ProtobufWriter()
        if let timestampNs { packet.uint(PerfettoProto.TracePacket.timestamp, UInt64(timestampNs)) }
        packet.uint(PerfettoProto.TracePacket.trustedPacketSequenceID, sequenceID)
        if let trackEvent { packet.lengthDelimited(PerfettoProto.TracePacket.trackEvent, trackEvent) }
        if !interned.isEmpty { packet.lengthDelimited(PerfettoProto.TracePacket.internedData, interned) }
        if let flags { packet.uint(PerfettoProto.TracePacket.sequenceFlags, flags) }
        if let trackDescriptor { packet.lengthDelimited(PerfettoProto.TracePacket.trackDescriptor, trackDescriptor) }
        var trace = ProtobufWriter()
        trace.lengthDelimited(PerfettoProto.Trace.packet, packet.bytes)
        return trace.bytes
    }

    /// The iid of `string` in `table`; a string seen for the first time gets the next iid
    /// and an entry in `interned`.
    private static func intern(_ string: String, in table: inout [String: UInt64], field: UInt32,
                               into interned: inout ProtobufWriter) -> UInt64 {
        if let iid = table[string] { return iid }
        let iid = UInt64(table.count + 1)
        table[string] = iid
        interned.message(field) { entry in
            entry.uint(PerfettoProto.InternedData.iid, iid)
            entry.string(PerfettoProto.InternedData.name, string)
        }
        return iid
    }
}
