import Sim

/// Writes trace headers and events as single lines of JSON, the inverse of
/// `TraceLineDecoder` (format in `docs/trace-format.md`).
///
/// Lines carry no trailing newline. Times are written as the shortest decimal number of
/// milliseconds that gives back the exact nanosecond (`123.5`, `1000`, `0.000001`); strings
/// are escaped as JSON requires (`"`, `\`, control characters) and otherwise kept as UTF-8.
/// Optional values that are `nil` are left out. Keys come in a fixed order, so the same event
/// always gives the same bytes.
///
/// The encoder writes what it is given: whether the result is a valid trace (non-empty key
/// text, times in order, a touch-up after its touch-down) is the decoder's judgement. It traps
/// on a non-finite touch coordinate, which JSON cannot represent.
public struct TraceLineEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// The header as one line of JSON.
    public func encode(_ header: TraceHeader) -> String {
        var bytes: [UInt8] = []
        append(header, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The event as one line of JSON.
    public func encode(_ event: TraceEvent) -> String {
        var bytes: [UInt8] = []
        append(event, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the header as one line of JSON (no newline) to `bytes`.
    public func append(_ header: TraceHeader, to bytes: inout [UInt8]) {
        var writer = Self.writer(appendingTo: &bytes)
        writer.beginObject()
        writer.key("keysim"); writer.string("trace")
        writer.key("version"); writer.integer(header.version)
        if let name = header.name { writer.key("name"); writer.string(name) }
        writer.key("language"); writer.string(header.language)
        if let text = header.intendedText { writer.key("intendedText"); writer.string(text) }
        if let source = header.source { writer.key("source"); writer.string(source) }
        writer.endObject()
        bytes = writer.bytes
    }

    /// Appends the event as one line of JSON (no newline) to `bytes`.
    public func append(_ event: TraceEvent, to bytes: inout [UInt8]) {
        var writer = Self.writer(appendingTo: &bytes)
        writer.beginObject()
        writer.key("t"); writer.milliseconds(nanoseconds: event.time.nanoseconds)
        writer.key("type"); writer.string(event.kind.wireName)
        switch event.kind {
        case let .key(text, touchUp, point):
            writer.key("text"); writer.string(text)
            Self.touch(touchUp, point, &writer)
        case let .backspace(touchUp, point):
            Self.touch(touchUp, point, &writer)
        case let .suggestionPicked(text), let .paste(text):
            writer.key("text"); writer.string(text)
        case let .cursorMove(offset):
            writer.key("offset"); writer.integer(offset)
        case .keyboardShown, .keyboardHidden, .dictationStop:
            break
        case let .languageSwitch(language):
            writer.key("language"); writer.string(language)
        case let .network(condition):
            writer.key("state"); writer.string(condition.rawValue)
        case let .dictationStart(audio):
            switch audio {
            case let .wavFile(path, transcript):
                writer.key("audio"); writer.string(path)
                if let transcript { writer.key("transcript"); writer.string(transcript) }
            case let .inline(onset, length, transcript):
                writer.key("onsetMs"); writer.milliseconds(nanoseconds: onset.nanoseconds)
                writer.key("lengthMs"); writer.milliseconds(nanoseconds: length.nanoseconds)
                if let transcript { writer.key("transcript"); writer.string(transcript) }
            }
        case let .chipAccepted(wordIndex):
            if let wordIndex { writer.key("word"); writer.integer(wordIndex) }
        case let .field(field):
            writer.key("change"); writer.string(field.change.rawValue)
            if !field.text.isEmpty { writer.key("text"); writer.string(field.text) }
            if let intended = field.intendedText { writer.key("intended"); writer.string(intended) }
        }
        writer.endObject()
        bytes = writer.bytes
    }

    /// The measurement as one line of JSON: `{"t":…,"type":"measure","kind":…,"durationMs":…}`.
    public func encode(_ measurement: TraceMeasurement) -> String {
        var writer = Self.writer()
        writer.beginObject()
        writer.key("t"); writer.milliseconds(nanoseconds: measurement.time.nanoseconds)
        writer.key("type"); writer.string(TraceMeasurement.wireName)
        writer.key("kind"); writer.string(measurement.kind)
        writer.key("durationMs"); writer.milliseconds(nanoseconds: measurement.duration.nanoseconds)
        writer.endObject()
        return writer.text
    }

    /// The line as one line of JSON.
    public func encode(_ line: TraceLine) -> String {
        switch line {
        case .event(let event): encode(event)
        case .measurement(let measurement): encode(measurement)
        }
    }

    /// `text` as a JSON string literal, escaped as in trace lines.
    public static func jsonString(_ text: String) -> String {
        JSONWriter.quoted(text, escapesLineSeparators: false)
    }

    /// Nanoseconds as the shortest decimal number of milliseconds that denotes them exactly:
    /// 123_500_000 → "123.5", 1_000_000_000 → "1000", 1 → "0.000001", -1_500_000 → "-1.5".
    public static func millisecondsText(nanoseconds: Int64) -> String {
        JSONWriter.decimal(nanoseconds, fractionDigits: 6)
    }

    /// A compact writer for one line that leaves U+2028 and U+2029 as they are (as
    /// `TraceRecorder` does), appending to `bytes`, which it takes over.
    private static func writer(appendingTo bytes: inout [UInt8]) -> JSONWriter {
        defer { bytes = [] }
        return JSONWriter(layout: .compact, escapesLineSeparators: false, bytes: bytes)
    }

    private static func writer() -> JSONWriter {
        JSONWriter(layout: .compact, escapesLineSeparators: false)
    }

    /// The touch-up time and point of a key or backspace, when known. Traps on a non-finite
    /// coordinate, which JSON cannot hold.
    private static func touch(_ touchUp: SimTime?, _ point: TouchPoint?, _ writer: inout JSONWriter) {
        if let touchUp { writer.key("up"); writer.milliseconds(nanoseconds: touchUp.nanoseconds) }
        if let point {
            writer.key("x"); writer.double(point.x)
            writer.key("y"); writer.double(point.y)
        }
    }
}
