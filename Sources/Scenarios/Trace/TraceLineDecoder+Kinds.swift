import Sim

/// The event kinds after the header: each kind's fields, checked and converted.
extension TraceLineDecoder {
    func decodeKind(_ type: WireType, _ fields: Fields, time: SimTime,
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
}
