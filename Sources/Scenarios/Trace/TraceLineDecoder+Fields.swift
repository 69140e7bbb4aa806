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
    /// The `type` values.
    enum WireType {
        case key, backspace, suggestion, cursor, paste, keyboardShow, keyboardHide, language, network
        case dictationStart, dictationStop, chipAccept, field, measure

        /// The type a string token names, or nil.
        init?(_ token: JSONToken, in line: UnsafeBufferPointer<UInt8>) {
            guard !token.flag else {
                // An escaped name (rare): its decoded bytes.
                var text = token.string(in: line)
                guard let type = text.withUTF8(Self.named) else { return nil }
                self = type
                return
            }
            guard let type = Self.named(UnsafeBufferPointer(rebasing: line[(token.range.lowerBound + 1)..<(token.range.upperBound - 1)])) else {
                return nil
            }
            self = type
        }

        /// The type `name` spells. Its length (and where two names share one, a byte) picks
        /// the only candidate, which is then compared byte for byte: no string is built.
        private static func named(_ name: UnsafeBufferPointer<UInt8>) -> WireType? {
            let candidate: (type: WireType, name: StaticString)
            switch name.count {
            case 3: candidate = (.key, "key")
            case 5: candidate = name[0] == UInt8(ascii: "p") ? (.paste, "paste") : (.field, "field")
            case 6: candidate = (.cursor, "cursor")
            case 7: candidate = name[0] == UInt8(ascii: "n") ? (.network, "network") : (.measure, "measure")
            case 8: candidate = (.language, "language")
            case 9: candidate = (.backspace, "backspace")
            case 10: candidate = (.suggestion, "suggestion")
            case 11: candidate = (.chipAccept, "chip.accept")
            case 13: candidate = name[9] == UInt8(ascii: "s") ? (.keyboardShow, "keyboard.show") : (.keyboardHide, "keyboard.hide")
            case 14: candidate = (.dictationStop, "dictation.stop")
            case 15: candidate = (.dictationStart, "dictation.start")
            default: return nil
            }
            return JSONBytes.equal(name, 0, name.count, candidate.name) ? candidate.type : nil
        }
    }
}
