import Sim

/// A line's members filed by the fields the decoder knows, and the wire names of fields and
/// event types.
extension TraceLineDecoder {
    /// Parses the line and files the members this decoder knows into `slots`.
    mutating func parseFields(_ line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> Fields {
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
    struct Fields {
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
}

extension TraceLineDecoder {
    /// The fields the decoder knows, header and events together.
    enum Field: Int, CaseIterable {
        case t, type, text, up, x, y, offset, language, state, audio, transcript, onsetMs, lengthMs, word
        case change, intended
        case keysim, version, name, intendedText, source
        case kind, durationMs

        /// The key on the wire, as text.
        var name: String { wireName.description }

        /// The key on the wire.
        var wireName: StaticString {
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
            @inline(__always) func spells(_ field: Field) -> Bool { JSONBytes.equal(line, start, end, field.wireName) }
            /// The first of the candidates whose name the key spells.
            @inline(__always)
            func first(_ a: Field, _ b: Field? = nil, _ c: Field? = nil, _ d: Field? = nil, _ e: Field? = nil) -> Field? {
                if spells(a) { return a }
                if let b, spells(b) { return b }
                if let c, spells(c) { return c }
                if let d, spells(d) { return d }
                if let e, spells(e) { return e }
                return nil
            }
            // Dispatch on the length first: most keys are then settled by one comparison.
            let field: Field?
            switch end - start {
            case 1: field = first(.t, .x, .y)
            case 2: field = first(.up)
            case 4: field = first(.type, .text, .word, .name, .kind)
            case 5: field = first(.state, .audio)
            case 6: field = first(.offset, .keysim, .source, .change)
            case 7: field = first(.onsetMs, .version)
            case 8: field = first(.language, .lengthMs, .intended)
            case 10: field = first(.transcript, .durationMs)
            case 12: field = first(.intendedText)
            default: field = nil
            }
            guard let field else { return nil }
            self = field
        }
    }
}

extension TraceLineDecoder {
    /// The `type` values, matched against the line's bytes without building a string.
    enum WireType {
        case key, backspace, suggestion, cursor, paste, keyboardShow, keyboardHide, language, network
        case dictationStart, dictationStop, chipAccept, field, measure

        /// The types by their names on the wire.
        static let named: [(name: StaticString, type: WireType)] = [
            ("key", .key), ("backspace", .backspace), ("suggestion", .suggestion), ("cursor", .cursor),
            ("paste", .paste), ("keyboard.show", .keyboardShow), ("keyboard.hide", .keyboardHide),
            ("language", .language), ("network", .network), ("dictation.start", .dictationStart),
            ("dictation.stop", .dictationStop), ("chip.accept", .chipAccept), ("field", .field), ("measure", .measure),
        ]

        init?(_ token: JSONToken, in line: UnsafeBufferPointer<UInt8>) {
            // An escaped value (rare) is decoded and compared as text, the others byte for byte.
            let escaped = token.flag ? token.string(in: line) : nil
            for (name, type) in Self.named {
                let matches = escaped.map { $0 == name.description } ?? token.isUnescapedString(name, in: line)
                if matches {
                    self = type
                    return
                }
            }
            return nil
        }
    }
}
