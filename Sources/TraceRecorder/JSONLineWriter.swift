/// Encodes trace lines exactly as keysim's `TraceLineEncoder` does (same key order, same
/// number forms), so a recorded trace reads back byte for byte.
enum JSONLineWriter {
    /// The greatest time the format allows, 2^53 ns.
    static let timeNanosMax: Int64 = 1 << 53
    /// The largest cursor offset and word index.
    static let countMax = Int(Int32.max)

    static func appendHeader(version: Int, name: String?, language: String, intendedText: String?,
                             source: String?, to bytes: inout [UInt8]) {
        var writer = Writer(bytes: bytes)
        bytes = []
        writer.open()
        writer.key("keysim"); writer.string("trace")
        writer.key("version"); writer.raw(String(version))
        if let name { writer.key("name"); writer.string(name) }
        writer.key("language"); writer.string(language)
        if let intendedText { writer.key("intendedText"); writer.string(intendedText) }
        if let source { writer.key("source"); writer.string(source) }
        writer.close()
        bytes = writer.bytes
    }

    /// Appends the event's line (no newline); `false` when the event is not valid in a
    /// trace (and `bytes` then holds garbage).
    static func appendEvent(_ event: TraceRecorderEvent, timeNanos: Int64, to bytes: inout [UInt8]) -> Bool {
        guard (0...timeNanosMax).contains(timeNanos) else { return false }
        var writer = Writer(bytes: bytes)
        bytes = []
        defer { bytes = writer.bytes }
        writer.open()
        writer.key("t"); writer.milliseconds(timeNanos)
        func type(_ name: StaticString) { writer.key("type"); writer.string(name.description) }
        func touch(_ up: Int64?, _ point: TraceRecorderEvent.Point?) -> Bool {
            if let up {
                guard up <= timeNanosMax else { return false }
                writer.key("up"); writer.milliseconds(max(up, timeNanos))
            }
            if let point {
                guard point.x.isFinite, point.y.isFinite else { return false }
                writer.key("x"); writer.raw(point.x.description)
                writer.key("y"); writer.raw(point.y.description)
            }
            return true
        }
        switch event {
        case let .key(text, up, point):
            guard !text.isEmpty else { return false }
            type("key")
            writer.key("text"); writer.string(text)
            guard touch(up, point) else { return false }
        case let .backspace(up, point):
            type("backspace")
            guard touch(up, point) else { return false }
        case let .suggestion(text):
            guard !text.isEmpty else { return false }
            type("suggestion")
            writer.key("text"); writer.string(text)
        case let .cursor(offset):
            guard offset.magnitude <= countMax.magnitude else { return false }
            type("cursor")
            writer.key("offset"); writer.raw(String(offset))
        case let .paste(text):
            guard !text.isEmpty else { return false }
            type("paste")
            writer.key("text"); writer.string(text)
        case .keyboardShow:
            type("keyboard.show")
        case .keyboardHide:
            type("keyboard.hide")
        case let .language(tag):
            guard isLanguageTag(tag) else { return false }
            type("language")
            writer.key("language"); writer.string(tag)
        case let .network(state):
            type("network")
            writer.key("state"); writer.string(state.rawValue)
        case let .dictationStart(speech, transcript):
            type("dictation.start")
            switch speech {
            case .audioFile(let path):
                guard !path.isEmpty, !path.hasPrefix("/") else { return false }
                writer.key("audio"); writer.string(path)
            case let .timing(onset, length):
                guard (0...timeNanosMax).contains(onset), (0...timeNanosMax).contains(length) else { return false }
                writer.key("onsetMs"); writer.milliseconds(onset)
                writer.key("lengthMs"); writer.milliseconds(length)
            }
            if let transcript { writer.key("transcript"); writer.string(transcript) }
        case .dictationStop:
            type("dictation.stop")
        case let .chipAccept(word):
            type("chip.accept")
            if let word {
                guard (0...countMax).contains(word) else { return false }
                writer.key("word"); writer.raw(String(word))
            }
        case let .field(change, text, intended):
            type("field")
            writer.key("change"); writer.string(change.rawValue)
            if !text.isEmpty { writer.key("text"); writer.string(text) }
            if let intended { writer.key("intended"); writer.string(intended) }
        }
        writer.close()
        return true
    }

    /// The shape of a BCP 47 tag: 2–8 letters, then `-`-separated subtags of 1–8 letters or
    /// digits (the check keysim's reader makes).
    static func isLanguageTag(_ tag: String) -> Bool {
        let subtags = tag.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        func letter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        func digit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard tag.utf8.count <= 64, let primary = subtags.first, (2...8).contains(primary.count),
              primary.allSatisfy(letter) else { return false }
        return subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { letter($0) || digit($0) } }
    }

    /// One JSON object being written.
    struct Writer {
        var bytes: [UInt8]
        private var needsComma = false

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func open() { bytes.append(UInt8(ascii: "{")) }
        mutating func close() { bytes.append(UInt8(ascii: "}")) }

        mutating func key(_ name: String) {
            if needsComma { bytes.append(UInt8(ascii: ",")) }
            needsComma = true
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: name.utf8)
            bytes.append(UInt8(ascii: "\""))
            bytes.append(UInt8(ascii: ":"))
        }

        mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

        /// Nanoseconds as the shortest exact decimal of milliseconds ("123.5", "1000").
        mutating func milliseconds(_ nanoseconds: Int64) {
            let magnitude = nanoseconds.magnitude
            if nanoseconds < 0 { bytes.append(UInt8(ascii: "-")) }
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

        /// A JSON string: `"`, `\` and control characters escaped, the rest as UTF-8.
        mutating func string(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
                case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "f"))
                case 0x00..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
