import Sim

/// Decodes the lines of a JSON Lines trace (format in `docs/trace-format.md`): the first line
/// into a `TraceHeader`, every other line into a `TraceEvent`.
///
/// The decoder remembers the time of the last event it decoded, so that it can report a time
/// that goes backwards; feed it the lines of one trace in order, one decoder per trace. It
/// reuses its buffers: decoding a typical key line allocates nothing.
///
/// Wire format of an event: `{"t":123.5,"type":"key","text":"a","up":180.0,"x":12.5,"y":40}`.
/// Unknown fields are ignored; an optional field written as `null` counts as absent.
///
/// Here the header and the general path; the fast path for key lines is in
/// `TraceLineDecoder+FastPath`, the event kinds in `+Kinds`, the fields and wire names in
/// `+Fields`, the values and their errors in `+Values`.
public struct TraceLineDecoder: Sendable {
    /// The longest line accepted, in bytes (1 MiB).
    public static let maxLineBytes = 1 << 20
    /// The greatest time or duration accepted, in nanoseconds: `ValueLimits.durationNanosMax`
    /// (about 104 days), the limit every reader of durations shares.
    public static let timeNanosMax = ValueLimits.durationNanosMax
    /// The largest cursor offset magnitude and chip word index accepted.
    public static let countMax = Int(Int32.max)

    /// The time of the last event decoded successfully, or `nil` before the first one.
    public private(set) var previousTime: SimTime?

    /// The line parser, whose member list is reused from line to line.
    var parser = JSONLineParser()
    /// `Self.timeNanosMax`, kept here so the fast path reads no global per line.
    let nanosMax = TraceLineDecoder.timeNanosMax
    /// For each `Field`, the index of its member in `parser.members`, or -1.
    var slots = [Int](repeating: -1, count: Field.allCases.count)

    /// Creates a decoder for one trace.
    public init() {}

    // MARK: Header

    /// Decodes the header line: `{"keysim":"trace","version":1,"name":…,"language":"en",
    /// "intendedText":…,"source":…}`.
    public mutating func decodeHeader(_ line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> TraceHeader {
        let fields = try parseFields(line)
        guard let keysim = fields.token(.keysim) else {
            throw TraceLineError(column: nil, message: "missing field \"keysim\" (the first line of a trace is its header: {\"keysim\":\"trace\",\"version\":1,…})")
        }
        guard keysim.kind == .string else { throw Self.wrongType(keysim, "keysim", expected: "a string") }
        guard keysim.isUnescapedString("trace", in: line) || keysim.string(in: line) == "trace" else {
            throw TraceLineError(column: keysim.column,
                                 message: "\"keysim\" must be \"trace\", found \(keysim.sourceText(in: line))")
        }
        guard let versionToken = fields.token(.version) else {
            throw TraceLineError(column: nil, message: "missing field \"version\"")
        }
        let version = try Self.integer(versionToken, "version", in: line)
        guard version >= 1 else {
            throw TraceLineError(column: versionToken.column,
                                 message: "trace format version \(version) is not valid (versions start at 1)")
        }
        guard version <= TraceHeader.currentVersion else {
            throw TraceLineError(column: versionToken.column,
                                 message: "trace format version \(version) is newer than this keysim reads (\(TraceHeader.currentVersion))")
        }
        var header = TraceHeader(version: version)
        header.name = try fields.optionalString(.name, in: line)
        if let language = fields.token(.language), language.kind != .null {
            header.language = try Self.languageTag(language, in: line)
        }
        header.intendedText = try fields.optionalString(.intendedText, in: line)
        header.source = try fields.optionalString(.source, in: line)
        return header
    }

    // MARK: Events

    /// Decodes one event line. On success the event's time becomes `previousTime`.
    public mutating func decodeEvent(_ line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> TraceEvent {
        if let event = fastKeyEvent(line) {
            previousTime = event.time
            return event
        }
        return try decodeEventGeneral(line)
    }

    /// Decodes one event line with the general parser only (no fast path); `decodeEvent`
    /// falls back to it for every line the fast path does not take. Internal for tests.
    mutating func decodeEventGeneral(_ line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> TraceEvent {
        switch try decodeLineGeneral(line) {
        case .event(let event):
            return event
        case .measurement:
            throw TraceLineError(column: nil, message: "a \"measure\" line where a user event is expected (read the trace with decodeLine)")
        }
    }

    /// Decodes one line after the header: a user event, or a measured duration
    /// (`"type":"measure"`, which replays ignore). On success its time becomes `previousTime`.
    public mutating func decodeLine(_ line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> TraceLine {
        if let event = fastKeyEvent(line) {
            previousTime = event.time
            return .event(event)
        }
        return try decodeLineGeneral(line)
    }

    /// `decodeLine` without the fast path.
    private mutating func decodeLineGeneral(_ line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> TraceLine {
        let fields = try parseFields(line)
        if let keysim = fields.member(.keysim) {
            throw TraceLineError(column: keysim.key.column,
                                 message: "unexpected header line (a trace has one header, on its first line)")
        }
        guard let typeToken = fields.token(.type) else {
            throw TraceLineError(column: nil, message: "missing field \"type\"")
        }
        guard typeToken.kind == .string else { throw Self.wrongType(typeToken, "type", expected: "a string") }
        guard let type = WireType(typeToken, in: line) else {
            throw TraceLineError(column: typeToken.column,
                                 message: "unknown event type \(typeToken.sourceText(in: line)) (expected one of \(TraceEvent.Kind.wireNames.joined(separator: ", ")))")
        }
        guard let timeToken = fields.token(.t) else {
            throw TraceLineError(column: nil, message: "missing field \"t\" (the event time in milliseconds)")
        }
        let time = SimTime(nanoseconds: try Self.milliseconds(timeToken, "t", in: line))
        if let previousTime, time < previousTime {
            throw TraceLineError(column: timeToken.column,
                                 message: "time goes backwards (\(TraceLineEncoder.millisecondsText(nanoseconds: time.nanoseconds)) ms after \(TraceLineEncoder.millisecondsText(nanoseconds: previousTime.nanoseconds)) ms)")
        }
        if case .measure = type {
            let measurement = try decodeMeasurement(fields, time: time, in: line)
            previousTime = time
            return .measurement(measurement)
        }
        let kind = try decodeKind(type, fields, time: time, in: line)
        previousTime = time
        return .event(TraceEvent(time: time, kind: kind))
    }

    /// `{"t":…,"type":"measure","kind":"lookup","durationMs":3.25}`: a non-empty kind name
    /// of at most `TraceMeasurement.kindBytesMax` bytes and a duration in milliseconds.
    private func decodeMeasurement(_ fields: Fields, time: SimTime,
                                   in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> TraceMeasurement {
        let kind = try fields.requiredText(.kind, in: line)
        guard kind.utf8.count <= TraceMeasurement.kindBytesMax else {
            throw TraceLineError(column: fields.token(.kind)?.column,
                                 message: "\"kind\" is longer than \(TraceMeasurement.kindBytesMax) bytes")
        }
        guard let duration = fields.token(.durationMs) else {
            throw TraceLineError(column: nil, message: "missing field \"durationMs\" (the measured duration in milliseconds)")
        }
        let nanos = try Self.milliseconds(duration, "durationMs", in: line)
        return TraceMeasurement(time: time, kind: kind, duration: SimDuration(nanoseconds: nanos))
    }
}
