import Sim

/// An error in one line of a trace: what is wrong and, where it can be pinned down, the
/// 1-based byte column. The caller adds the file and line and prints
/// `path:line:column: error: message`.
public struct TraceLineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based byte column (byte offset + 1) of the offending value or byte; `nil` when
    /// the error concerns the line as a whole (an empty line, a missing field).
    public var column: Int?
    /// What is wrong, as a sentence fragment without a trailing period.
    public var message: String

    /// Creates an error.
    public init(column: Int?, message: String) {
        self.column = column
        self.message = message
    }

    /// "column: message", or just the message when there is no column.
    public var description: String {
        column.map { "\($0): \(message)" } ?? message
    }
}

/// Decodes the lines of a JSON Lines trace (format in `docs/trace-format.md`): the first line
/// into a `TraceHeader`, every other line into a `TraceEvent`.
///
/// The decoder remembers the time of the last event it decoded, so that it can report a time
/// that goes backwards; feed it the lines of one trace in order, one decoder per trace. It
/// reuses its buffers: decoding a typical key line allocates nothing.
///
/// Wire format of an event: `{"t":123.5,"type":"key","text":"a","up":180.0,"x":12.5,"y":40}`.
/// Unknown fields are ignored; an optional field written as `null` counts as absent.
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

    private var parser = JSONLineParser()
    /// `Self.timeNanosMax`, kept here so the fast path reads no global per line.
    private let nanosMax = TraceLineDecoder.timeNanosMax
    /// For each `Field`, the index of its member in `parser.members`, or -1.
    private var slots = [Int](repeating: -1, count: Field.allCases.count)

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

    // MARK: Fast path

    /// The event of a line in the exact shape the encoder writes for key and backspace
    /// events, `{"t":…,"type":"key","text":"…"[,"up":…][,"x":…,"y":…]}` with no whitespace,
    /// plain decimal numbers and a text without escapes, decoded in one pass; `nil` for
    /// anything else, including every line that is not a valid event or whose event would be
    /// refused (time going backwards, touch-up before touch-down, empty text), so that the
    /// general path decides those and reports its exact errors. Does not touch `previousTime`.
    ///
    /// Every value it returns is exactly what `decodeEventGeneral` returns for the line.
    @inline(__always)
    func fastKeyEvent(_ line: UnsafeBufferPointer<UInt8>) -> TraceEvent? {
        guard let base = line.baseAddress else { return nil }
        let count = line.count
        // The shortest line taken, `{"t":0,"type":"backspace"}`, has 26 bytes.
        guard count >= 26, count <= Self.maxLineBytes, base[count - 1] == UInt8(ascii: "}") else { return nil }
        let raw = UnsafeRawPointer(base)
        // `{"t":` then `,"type":"`.
        guard raw.loadUnaligned(as: UInt32.self) == FastBytes.openT, base[4] == UInt8(ascii: ":") else { return nil }
        var i = 5
        // `count - 1` is the closing brace, so no scan below can run past the line.
        let last = count - 1
        guard let nanos = FastBytes.milliseconds(base, &i, last, max: nanosMax) else { return nil }
        let time = SimTime(nanoseconds: nanos)
        if let previousTime, time < previousTime { return nil }
        guard i + 9 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == FastBytes.commaType,
              base[i + 8] == UInt8(ascii: "\"") else { return nil }
        i += 9
        var text: String?
        if i + 4 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt32.self) == FastBytes.keyQuote {
            i += 4
            // `,"text":"` then the text up to its closing quote.
            guard i + 9 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == FastBytes.commaText,
                  base[i + 8] == UInt8(ascii: "\"") else { return nil }
            i += 9
            let start = i
            var nonASCII = false
            while i < last {
                let byte = base[i]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte >= 0x80 { nonASCII = true }
                i += 1
            }
            guard i < last, i > start else { return nil }
            if nonASCII, JSONBytes.firstInvalidUTF8(line, start, i) != nil { return nil }
            text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
            i += 1
        } else if i + 10 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == FastBytes.backspac,
                  base[i + 8] == UInt8(ascii: "e"), base[i + 9] == UInt8(ascii: "\"") {
            i += 10
        } else {
            return nil
        }
        var touchUp: SimTime?
        if i + 6 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt32.self) == FastBytes.commaQuoteUp,
           base[i + 4] == UInt8(ascii: "\""), base[i + 5] == UInt8(ascii: ":") {
            i += 6
            guard let upNanos = FastBytes.milliseconds(base, &i, last, max: nanosMax), upNanos >= nanos else { return nil }
            touchUp = SimTime(nanoseconds: upNanos)
        }
        var point: TouchPoint?
        if i + 5 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt32.self) == FastBytes.commaX,
           base[i + 4] == UInt8(ascii: ":") {
            i += 5
            guard let x = FastBytes.double(base, &i, last),
                  i + 5 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt32.self) == FastBytes.commaY,
                  base[i + 4] == UInt8(ascii: ":") else { return nil }
            i += 5
            guard let y = FastBytes.double(base, &i, last) else { return nil }
            point = TouchPoint(x: x, y: y)
        }
        guard i == last else { return nil }
        if let text {
            return TraceEvent(time: time, kind: .key(text: text, touchUp: touchUp, point: point))
        }
        return TraceEvent(time: time, kind: .backspace(touchUp: touchUp, point: point))
    }

    private func decodeKind(_ type: WireType, _ fields: Fields, time: SimTime,
                            in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> TraceEvent.Kind {
        switch type {
        case .key:
            let text = try fields.requiredText(.text, in: line)
            return .key(text: text, touchUp: try touchUp(fields, time: time, in: line),
                        point: try touchPoint(fields, in: line))
        case .backspace:
            return .backspace(touchUp: try touchUp(fields, time: time, in: line),
                              point: try touchPoint(fields, in: line))
        case .suggestion:
            return .suggestionPicked(text: try fields.requiredText(.text, in: line))
        case .cursor:
            guard let offset = fields.token(.offset) else {
                throw TraceLineError(column: nil, message: "missing field \"offset\" (grapheme clusters to move the cursor by)")
            }
            return .cursorMove(offset: try Self.integer(offset, "offset", in: line, magnitudeMax: Self.countMax))
        case .paste:
            return .paste(text: try fields.requiredText(.text, in: line))
        case .keyboardShow:
            return .keyboardShown
        case .keyboardHide:
            return .keyboardHidden
        case .language:
            guard let language = fields.token(.language) else {
                throw TraceLineError(column: nil, message: "missing field \"language\"")
            }
            return .languageSwitch(language: try Self.languageTag(language, in: line))
        case .network:
            guard let state = fields.token(.state) else {
                throw TraceLineError(column: nil, message: "missing field \"state\" (online, offline or slow)")
            }
            guard state.kind == .string else { throw Self.wrongType(state, "state", expected: "a string") }
            guard let condition = NetworkCondition(rawValue: state.string(in: line)) else {
                throw TraceLineError(column: state.column,
                                     message: "unknown network state \(state.sourceText(in: line)) (expected online, offline or slow)")
            }
            return .network(condition)
        case .dictationStart:
            return .dictationStart(audio: try dictationAudio(fields, in: line))
        case .dictationStop:
            return .dictationStop
        case .measure:
            preconditionFailure("measure lines are decoded by decodeMeasurement")
        case .chipAccept:
            guard let word = fields.token(.word), word.kind != .null else { return .chipAccepted(wordIndex: nil) }
            let index = try Self.integer(word, "word", in: line, magnitudeMax: Self.countMax)
            guard index >= 0 else {
                throw TraceLineError(column: word.column, message: "\"word\" must not be negative (found \(index))")
            }
            return .chipAccepted(wordIndex: index)
        case .field:
            guard let changeToken = fields.token(.change) else {
                throw TraceLineError(column: nil, message: "missing field \"change\" (cleared, replaced or opened)")
            }
            guard changeToken.kind == .string else { throw Self.wrongType(changeToken, "change", expected: "a string") }
            guard let change = FieldChange.Change(rawValue: changeToken.string(in: line)) else {
                throw TraceLineError(column: changeToken.column,
                                     message: "unknown field change \(changeToken.sourceText(in: line)) (expected cleared, replaced or opened)")
            }
            return .field(FieldChange(change, text: try fields.optionalString(.text, in: line) ?? "",
                                      intendedText: try fields.optionalString(.intended, in: line)))
        }
    }

    private func touchUp(_ fields: Fields, time: SimTime,
                         in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> SimTime? {
        guard let up = fields.token(.up), up.kind != .null else { return nil }
        let touchUp = SimTime(nanoseconds: try Self.milliseconds(up, "up", in: line))
        guard touchUp >= time else {
            throw TraceLineError(column: up.column,
                                 message: "touch-up time \(TraceLineEncoder.millisecondsText(nanoseconds: touchUp.nanoseconds)) ms is before the touch-down time \(TraceLineEncoder.millisecondsText(nanoseconds: time.nanoseconds)) ms")
        }
        return touchUp
    }

    private func touchPoint(_ fields: Fields, in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> TouchPoint? {
        let x = fields.token(.x).flatMap { $0.kind == .null ? nil : $0 }
        let y = fields.token(.y).flatMap { $0.kind == .null ? nil : $0 }
        switch (x, y) {
        case (nil, nil):
            return nil
        case let (x?, y?):
            return TouchPoint(x: try Self.coordinate(x, "x", in: line), y: try Self.coordinate(y, "y", in: line))
        case let (x?, nil):
            throw TraceLineError(column: x.column, message: "\"x\" without \"y\" (a touch point has both or neither)")
        case let (nil, y?):
            throw TraceLineError(column: y.column, message: "\"y\" without \"x\" (a touch point has both or neither)")
        }
    }

    private func dictationAudio(_ fields: Fields, in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> DictationAudio {
        let transcript = try fields.optionalString(.transcript, in: line)
        let audio = fields.token(.audio).flatMap { $0.kind == .null ? nil : $0 }
        let onset = fields.token(.onsetMs).flatMap { $0.kind == .null ? nil : $0 }
        let length = fields.token(.lengthMs).flatMap { $0.kind == .null ? nil : $0 }
        if let audio {
            if let inline = onset ?? length {
                throw TraceLineError(column: inline.column,
                                     message: "dictation.start has both \"audio\" and inline timing; give \"audio\" or \"onsetMs\" and \"lengthMs\", not both")
            }
            guard audio.kind == .string else { throw Self.wrongType(audio, "audio", expected: "a string") }
            let path = audio.string(in: line)
            guard !path.isEmpty else {
                throw TraceLineError(column: audio.column, message: "\"audio\" must not be empty")
            }
            guard !path.hasPrefix("/") else {
                throw TraceLineError(column: audio.column,
                                     message: "\"audio\" must be a path relative to the trace's folder, found \(audio.sourceText(in: line))")
            }
            // A shared trace must not make keysim read files outside its own folder.
            guard !path.split(separator: "/", omittingEmptySubsequences: false).contains("..") else {
                throw TraceLineError(column: audio.column,
                                     message: "\"audio\" must stay inside the trace's folder (no '..'), found \(audio.sourceText(in: line))")
            }
            return .wavFile(path: path, transcript: transcript)
        }
        guard let onset, let length else {
            throw TraceLineError(column: onset?.column ?? length?.column,
                                 message: "dictation.start needs \"audio\" (a WAV file) or both \"onsetMs\" and \"lengthMs\"")
        }
        return .inline(onset: SimDuration(nanoseconds: try Self.milliseconds(onset, "onsetMs", in: line)),
                       length: SimDuration(nanoseconds: try Self.milliseconds(length, "lengthMs", in: line)),
                       transcript: transcript)
    }

    // MARK: Fields

    /// Parses the line and files the members this decoder knows into `slots`.
    private mutating func parseFields(_ line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> Fields {
        guard line.count <= Self.maxLineBytes else {
            throw TraceLineError(column: Self.maxLineBytes + 1,
                                 message: "line is longer than the limit of \(Self.maxLineBytes) bytes (1 MiB)")
        }
        if Self.isBlank(line) { throw TraceLineError(column: nil, message: "empty line") }
        do {
            try parser.parseObject(line)
        } catch {
            throw TraceLineError(column: error.column, message: error.message)
        }
        for i in slots.indices { slots[i] = -1 }
        let members = parser.members
        for (index, member) in members.enumerated() {
            guard let field = Field(member.key, in: line) else { continue }
            if slots[field.rawValue] >= 0 {
                throw TraceLineError(column: member.key.column, message: "duplicate field \"\(field.name)\"")
            }
            slots[field.rawValue] = index
        }
        return Fields(members: members, slots: slots)
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return false
            }
        }
        return true
    }

    /// The members of one line, looked up by field.
    private struct Fields {
        let members: [JSONLineMember]
        let slots: [Int]

        func member(_ field: Field) -> JSONLineMember? {
            let index = slots[field.rawValue]
            return index < 0 ? nil : members[index]
        }

        @inline(__always)
        func token(_ field: Field) -> JSONToken? {
            let index = slots[field.rawValue]
            return index < 0 ? nil : members[index].value
        }

        func optionalString(_ field: Field, in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> String? {
            guard let token = token(field), token.kind != .null else { return nil }
            guard token.kind == .string else { throw TraceLineDecoder.wrongType(token, field.name, expected: "a string") }
            return token.string(in: line)
        }

        /// A required, non-empty string.
        func requiredText(_ field: Field, in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> String {
            guard let token = token(field) else {
                throw TraceLineError(column: nil, message: "missing field \"\(field.name)\"")
            }
            guard token.kind == .string else { throw TraceLineDecoder.wrongType(token, field.name, expected: "a string") }
            guard token.range.count > 2 else {
                throw TraceLineError(column: token.column, message: "\"\(field.name)\" must not be empty")
            }
            return token.string(in: line)
        }
    }

    // MARK: Values

    private static func wrongType(_ token: JSONToken, _ name: String, expected: String) -> TraceLineError {
        TraceLineError(column: token.column, message: "\"\(name)\" must be \(expected), found \(token.kindDescription)")
    }

    /// Milliseconds → nanoseconds, exactly from the decimal digits; in 0...timeNanosMax.
    private static func milliseconds(_ token: JSONToken, _ name: String,
                                     in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> Int64 {
        guard token.kind == .number else { throw wrongType(token, name, expected: "a number of milliseconds") }
        guard let nanos = token.scaledInteger(decimalShift: 6, magnitudeMax: timeNanosMax, in: line) else {
            throw TraceLineError(column: token.column,
                                 message: "\"\(name)\" \(token.sourceText(in: line)) ms is out of range (\(ValueLimits.durationLimitText))")
        }
        guard nanos >= 0 else {
            throw TraceLineError(column: token.column,
                                 message: "\"\(name)\" must not be negative (found \(token.sourceText(in: line)) ms)")
        }
        return nanos
    }

    private static func integer(_ token: JSONToken, _ name: String, in line: UnsafeBufferPointer<UInt8>,
                                magnitudeMax: Int = Int.max) throws(TraceLineError) -> Int {
        guard token.kind == .number else { throw wrongType(token, name, expected: "an integer") }
        guard token.flag else {
            throw TraceLineError(column: token.column,
                                 message: "\"\(name)\" must be an integer, found \(token.sourceText(in: line))")
        }
        guard let value = token.integer(in: line), value.magnitude <= magnitudeMax.magnitude else {
            throw TraceLineError(column: token.column,
                                 message: "\"\(name)\" \(token.sourceText(in: line)) is out of range (magnitude at most \(magnitudeMax))")
        }
        return value
    }

    private static func coordinate(_ token: JSONToken, _ name: String,
                                   in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> Double {
        guard token.kind == .number else { throw wrongType(token, name, expected: "a number of points") }
        let value = token.double(in: line)
        guard value.isFinite else {
            throw TraceLineError(column: token.column,
                                 message: "\"\(name)\" \(token.sourceText(in: line)) is out of range of a double")
        }
        return value
    }

    /// A BCP 47 language tag, checked for shape only: letters, then `-`-separated subtags of
    /// letters and digits ("en", "ru", "pt-BR", "zh-Hans-CN", "de-CH-1996").
    private static func languageTag(_ token: JSONToken, in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> String {
        guard token.kind == .string else { throw wrongType(token, "language", expected: "a string") }
        let tag = token.string(in: line)
        guard isLanguageTag(tag) else {
            throw TraceLineError(column: token.column,
                                 message: "\"language\" \(token.sourceText(in: line)) is not a BCP 47 language tag such as \"en\" or \"pt-BR\"")
        }
        return tag
    }

    /// Whether `tag` has the shape of a BCP 47 language tag.
    static func isLanguageTag(_ tag: String) -> Bool {
        let subtags = tag.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard tag.utf8.count <= 64, let primary = subtags.first,
              (2...8).contains(primary.count), primary.allSatisfy(isASCIILetter) else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { isASCIILetter($0) || JSONBytes.isDigit($0) }
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}

// MARK: - Convenience overloads

extension TraceLineDecoder {
    /// Decodes a header line given as bytes (no newline).
    public mutating func decodeHeader(_ line: [UInt8]) throws(TraceLineError) -> TraceHeader {
        let result: Result<TraceHeader, TraceLineError> = line.withUnsafeBufferPointer { buffer in
            Result { () throws(TraceLineError) in try decodeHeader(buffer) }
        }
        return try result.get()
    }

    /// Decodes a header line given as a string (no newline).
    public mutating func decodeHeader(_ line: String) throws(TraceLineError) -> TraceHeader {
        try decodeHeader(Array(line.utf8))
    }

    /// Decodes an event line given as bytes (no newline).
    public mutating func decodeEvent(_ line: [UInt8]) throws(TraceLineError) -> TraceEvent {
        let result: Result<TraceEvent, TraceLineError> = line.withUnsafeBufferPointer { buffer in
            Result { () throws(TraceLineError) in try decodeEvent(buffer) }
        }
        return try result.get()
    }

    /// Decodes an event line given as a string (no newline).
    public mutating func decodeEvent(_ line: String) throws(TraceLineError) -> TraceEvent {
        try decodeEvent(Array(line.utf8))
    }

    /// Decodes a line after the header given as a string (no newline).
    public mutating func decodeLine(_ line: String) throws(TraceLineError) -> TraceLine {
        let bytes = Array(line.utf8)
        let result: Result<TraceLine, TraceLineError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(TraceLineError) in try decodeLine(buffer) }
        }
        return try result.get()
    }
}

// MARK: - Wire names

/// The fields the decoder knows, header and events together.
private enum Field: Int, CaseIterable {
    case t, type, text, up, x, y, offset, language, state, audio, transcript, onsetMs, lengthMs, word
    case change, intended
    case keysim, version, name, intendedText, source
    case kind, durationMs

    /// The key on the wire.
    var name: String {
        switch self {
        case .t: "t"
        case .type: "type"
        case .text: "text"
        case .up: "up"
        case .x: "x"
        case .y: "y"
        case .offset: "offset"
        case .language: "language"
        case .state: "state"
        case .audio: "audio"
        case .transcript: "transcript"
        case .onsetMs: "onsetMs"
        case .lengthMs: "lengthMs"
        case .word: "word"
        case .change: "change"
        case .intended: "intended"
        case .keysim: "keysim"
        case .version: "version"
        case .name: "name"
        case .intendedText: "intendedText"
        case .source: "source"
        case .kind: "kind"
        case .durationMs: "durationMs"
        }
    }

    /// The field a key names, or nil for a key this decoder does not know (ignored).
    init?(_ key: JSONToken, in line: UnsafeBufferPointer<UInt8>) {
        if key.flag {
            // An escaped key (rare): decode it and compare as text.
            let text = key.string(in: line)
            guard let field = Field.allCases.first(where: { $0.name == text }) else { return nil }
            self = field
            return
        }
        let start = key.range.lowerBound + 1
        let end = key.range.upperBound - 1
        @inline(__always) func matches(_ literal: StaticString) -> Bool {
            JSONBytes.equal(line, start, end, literal)
        }
        // Dispatch on the length first: most keys are then settled by one comparison.
        switch end - start {
        case 1:
            switch line[start] {
            case UInt8(ascii: "t"): self = .t
            case UInt8(ascii: "x"): self = .x
            case UInt8(ascii: "y"): self = .y
            default: return nil
            }
        case 2: if matches("up") { self = .up } else { return nil }
        case 4:
            if matches("type") { self = .type }
            else if matches("text") { self = .text }
            else if matches("word") { self = .word }
            else if matches("name") { self = .name }
            else if matches("kind") { self = .kind }
            else { return nil }
        case 5:
            if matches("state") { self = .state }
            else if matches("audio") { self = .audio }
            else { return nil }
        case 6:
            if matches("offset") { self = .offset }
            else if matches("keysim") { self = .keysim }
            else if matches("source") { self = .source }
            else if matches("change") { self = .change }
            else { return nil }
        case 7:
            if matches("onsetMs") { self = .onsetMs }
            else if matches("version") { self = .version }
            else { return nil }
        case 8:
            if matches("language") { self = .language }
            else if matches("lengthMs") { self = .lengthMs }
            else if matches("intended") { self = .intended }
            else { return nil }
        case 10:
            if matches("transcript") { self = .transcript }
            else if matches("durationMs") { self = .durationMs }
            else { return nil }
        case 12: if matches("intendedText") { self = .intendedText } else { return nil }
        default: return nil
        }
    }
}

/// The `type` values, matched against the line's bytes without building a string.
private enum WireType {
    case key, backspace, suggestion, cursor, paste, keyboardShow, keyboardHide, language, network
    case dictationStart, dictationStop, chipAccept, field, measure

    init?(_ token: JSONToken, in line: UnsafeBufferPointer<UInt8>) {
        if token.flag {
            switch token.string(in: line) {
            case "key": self = .key
            case "backspace": self = .backspace
            case "suggestion": self = .suggestion
            case "cursor": self = .cursor
            case "paste": self = .paste
            case "keyboard.show": self = .keyboardShow
            case "keyboard.hide": self = .keyboardHide
            case "language": self = .language
            case "network": self = .network
            case "dictation.start": self = .dictationStart
            case "dictation.stop": self = .dictationStop
            case "chip.accept": self = .chipAccept
            case "field": self = .field
            case "measure": self = .measure
            default: return nil
            }
            return
        }
        @inline(__always) func matches(_ literal: StaticString) -> Bool {
            token.isUnescapedString(literal, in: line)
        }
        if matches("key") { self = .key }
        else if matches("backspace") { self = .backspace }
        else if matches("suggestion") { self = .suggestion }
        else if matches("cursor") { self = .cursor }
        else if matches("paste") { self = .paste }
        else if matches("keyboard.show") { self = .keyboardShow }
        else if matches("keyboard.hide") { self = .keyboardHide }
        else if matches("language") { self = .language }
        else if matches("network") { self = .network }
        else if matches("dictation.start") { self = .dictationStart }
        else if matches("dictation.stop") { self = .dictationStop }
        else if matches("chip.accept") { self = .chipAccept }
        else if matches("field") { self = .field }
        else if matches("measure") { self = .measure }
        else { return nil }
    }
}

// MARK: - Fast path helpers

/// Byte patterns and number scanners of `TraceLineDecoder.fastKeyEvent`.
private enum FastBytes {
    /// Little-endian words of the fixed parts of a key line.
    /// (Literals, not computed statics: a lazily initialised static costs a `swift_once`
    /// check on every line. `TraceFastPathTests` would fail on a wrong one: the fast path would take no line.)
    static var openT: UInt32 { (0x2274_227B as UInt32).littleEndian }             // {"t"
    static var keyQuote: UInt32 { (0x2279_656B as UInt32).littleEndian }          // key"
    static var commaQuoteUp: UInt32 { (0x7075_222C as UInt32).littleEndian }      // ,"up
    static var commaX: UInt32 { (0x2278_222C as UInt32).littleEndian }            // ,"x"
    static var commaY: UInt32 { (0x2279_222C as UInt32).littleEndian }            // ,"y"
    static var commaType: UInt64 { (0x3A22_6570_7974_222C as UInt64).littleEndian } // ,"type":
    static var commaText: UInt64 { (0x3A22_7478_6574_222C as UInt64).littleEndian } // ,"text":
    static var backspac: UInt64 { (0x6361_7073_6B63_6162 as UInt64).littleEndian }  // backspac

    @inline(__always) static func digit(_ byte: UInt8) -> Int64? {
        let value = byte &- UInt8(ascii: "0")
        return value < 10 ? Int64(value) : nil
    }

    /// A plain non-negative number of milliseconds at `i` (`0` or `[1-9][0-9]{0,11}`, then
    /// optionally `.` and 1–6 digits), as exact nanoseconds at most
    /// `TraceLineDecoder.timeNanosMax`; `i` ends after it. `nil` for anything else (a sign, an
    /// exponent, more digits, a leading zero) so that the general path decides. The byte at
    /// `last` is not a digit or `.`, which ends every scan.
    @inline(__always)
    static func milliseconds(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ last: Int, max: Int64) -> Int64? {
        var j = i
        guard var whole = digit(base[j]) else { return nil }
        j += 1
        if whole != 0 {
            while let d = digit(base[j]) {
                whole = whole &* 10 &+ d
                j += 1
                if j - i > 12 { return nil }
            }
        }
        var nanos = whole &* 1_000_000
        if base[j] == UInt8(ascii: ".") {
            j += 1
            var scale: Int64 = 100_000
            guard let first = digit(base[j]) else { return nil }
            nanos &+= first &* scale
            j += 1
            while let d = digit(base[j]) {
                guard scale > 1 else { return nil }
                scale /= 10
                nanos &+= d &* scale
                j += 1
            }
        }
        guard j <= last, base[j] | 0x20 != UInt8(ascii: "e"), nanos <= max else { return nil }
        i = j
        return nanos
    }

    /// 10^`n` for 0...15, all exact in a `Double`.
    @inline(__always) private static func powerOfTen(_ n: Int) -> Double {
        switch n {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }

    /// A plain decimal number at `i` (`-?(0|[1-9][0-9]*)(\.[0-9]+)?`, at most 15 digits in
    /// all, no exponent) as the same `Double` `JSONNumber.double` gives; `i` ends after it.
    /// `nil` for anything else.
    @inline(__always)
    static func double(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ last: Int) -> Double? {
        var j = i
        let negative = base[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        guard var mantissa = digit(base[j]) else { return nil }
        var digits = 1
        j += 1
        if mantissa != 0 {
            while let d = digit(base[j]) {
                mantissa = mantissa &* 10 &+ d
                digits += 1
                j += 1
            }
        }
        var fractionDigits = 0
        if base[j] == UInt8(ascii: ".") {
            j += 1
            guard let first = digit(base[j]) else { return nil }
            mantissa = mantissa &* 10 &+ first
            fractionDigits = 1
            j += 1
            while let d = digit(base[j]) {
                mantissa = mantissa &* 10 &+ d
                fractionDigits += 1
                j += 1
            }
            digits += fractionDigits
        }
        // 15 digits keep the mantissa below 2^53, so one division rounds correctly, as in
        // JSONNumber.double's fast path (which this mirrors, sign of zero included).
        guard digits <= 15, j <= last, base[j] | 0x20 != UInt8(ascii: "e") else { return nil }
        i = j
        let magnitude = mantissa == 0 ? 0 : Double(mantissa) / powerOfTen(fractionDigits)
        return negative ? -magnitude : magnitude
    }
}
