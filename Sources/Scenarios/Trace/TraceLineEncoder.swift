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
        var writer = Writer(bytes: bytes)
        bytes = []
        writer.open()
        writer.key("keysim"); writer.string("trace")
        writer.key("version"); writer.raw(String(header.version))
        if let name = header.name { writer.key("name"); writer.string(name) }
        writer.key("language"); writer.string(header.language)
        if let text = header.intendedText { writer.key("intendedText"); writer.string(text) }
        if let source = header.source { writer.key("source"); writer.string(source) }
        writer.close()
        bytes = writer.bytes
    }

    /// Appends the event as one line of JSON (no newline) to `bytes`.
    public func append(_ event: TraceEvent, to bytes: inout [UInt8]) {
        var writer = Writer(bytes: bytes)
        bytes = []
        writer.open()
        writer.key("t"); writer.milliseconds(event.time.nanoseconds)
        writer.key("type"); writer.string(event.kind.wireName)
        switch event.kind {
        case let .key(text, touchUp, point):
            writer.key("text"); writer.string(text)
            writer.touch(touchUp, point)
        case let .backspace(touchUp, point):
            writer.touch(touchUp, point)
        case let .suggestionPicked(text), let .paste(text):
            writer.key("text"); writer.string(text)
        case let .cursorMove(offset):
            writer.key("offset"); writer.raw(String(offset))
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
                writer.key("onsetMs"); writer.milliseconds(onset.nanoseconds)
                writer.key("lengthMs"); writer.milliseconds(length.nanoseconds)
                if let transcript { writer.key("transcript"); writer.string(transcript) }
            }
        case let .chipAccepted(wordIndex):
            if let wordIndex { writer.key("word"); writer.raw(String(wordIndex)) }
        case let .field(field):
            writer.key("change"); writer.string(field.change.rawValue)
            if !field.text.isEmpty { writer.key("text"); writer.string(field.text) }
            if let intended = field.intendedText { writer.key("intended"); writer.string(intended) }
        }
        writer.close()
        bytes = writer.bytes
    }

    /// `text` as a JSON string literal, escaped as in trace lines.
    public static func jsonString(_ text: String) -> String {
        var writer = Writer(bytes: [])
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Nanoseconds as the shortest decimal number of milliseconds that denotes them exactly:
    /// 123_500_000 → "123.5", 1_000_000_000 → "1000", 1 → "0.000001", -1_500_000 → "-1.5".
    public static func millisecondsText(nanoseconds: Int64) -> String {
        var bytes: [UInt8] = []
        appendMilliseconds(nanoseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func appendMilliseconds(_ nanoseconds: Int64, to bytes: inout [UInt8]) {
        if nanoseconds < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = nanoseconds.magnitude // UInt64: Int64.min has no positive Int64
        bytes.append(contentsOf: String(magnitude / 1_000_000).utf8)
        var fraction = magnitude % 1_000_000
        guard fraction != 0 else { return }
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        bytes.append(UInt8(ascii: "."))
        let text = String(fraction)
        for _ in text.utf8.count..<digits { bytes.append(UInt8(ascii: "0")) }
        bytes.append(contentsOf: text.utf8)
    }
}

/// Accumulates one JSON object; tracks whether a comma is due.
private struct Writer {
    var bytes: [UInt8]
    private var needsComma = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func open() { bytes.append(UInt8(ascii: "{")) }
    mutating func close() { bytes.append(UInt8(ascii: "}")) }

    /// A key and its colon; keys are plain ASCII names that need no escaping.
    mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func milliseconds(_ nanoseconds: Int64) {
        TraceLineEncoder.appendMilliseconds(nanoseconds, to: &bytes)
    }

    /// A finite double in Swift's shortest round-trip form ("12.5", "40.0", "1e-05"), all
    /// of which are valid JSON numbers.
    mutating func double(_ value: Double) {
        precondition(value.isFinite, "a trace cannot hold a non-finite coordinate (\(value))")
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func touch(_ touchUp: SimTime?, _ point: TouchPoint?) {
        if let touchUp { key("up"); milliseconds(touchUp.nanoseconds) }
        if let point {
            key("x"); double(point.x)
            key("y"); double(point.y)
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters as short escapes or `\u00XX`,
    /// everything else (including all non-ASCII) copied as UTF-8.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "f"))
            case 0x00..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"),
                                          UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
