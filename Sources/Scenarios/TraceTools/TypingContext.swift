import Sim

/// The rule that files the interval before an edit under a `TypistProfile.Context`, shared
/// by the typist that writes traces and the fitter that reads them, so that a profile fitted
/// from a synthesised trace measures what the typist drew.
///
/// The interval before an edit (a key, backspace, suggestion or cursor move) is the time since
/// the previous edit of the same message; its context comes from that previous edit and from
/// the text before the cursor:
/// - a backspace or cursor move after a key or suggestion: `correction` (the slip was noticed);
/// - anything after a backspace or cursor move: `afterBackspace`;
/// - a picked suggestion: `suggestion`;
/// - after white space: `sentenceStart` when the last other character ends a sentence
///   (`.`, `!`, `?`, `…`) or the white space is a line break or nothing precedes it,
///   `phraseStart` after `,`, `;` or `:`, `wordStart` otherwise;
/// - after another punctuation mark or symbol: `afterPunctuation`;
/// - after a letter or digit: `withinWord`.
/// The first edit after the keyboard shows is `messageStart`, timed from the show.
enum TypingContext {
    /// The context of `kind` after `previous` (an edit), with the text as it was before `kind`.
    static func of(_ kind: TraceEvent.Kind, after previous: TraceEvent.Kind, text: ReplayedText) -> TypistProfile.Context {
        let suggestion = if case .suggestionPicked = kind { true } else { false }
        return of(correction: isCorrection(kind), suggestion: suggestion, afterCorrection: isCorrection(previous), text: text)
    }

    /// The context of an edit that is a correction or a picked suggestion or neither, after
    /// an edit that was a correction or not, with the text as it was before it: `of(_:after:text:)`
    /// for a typist that knows what it types without building the event first.
    static func of(correction: Bool, suggestion: Bool, afterCorrection previousCorrects: Bool,
                   text: ReplayedText) -> TypistProfile.Context {
        if correction && !previousCorrects { return .correction }
        if previousCorrects { return .afterBackspace }
        if suggestion { return .suggestion }
        // The character's properties as the text keeps them from `TypedCharacter`'s tables:
        // the same answers as `Character`'s, without their cost on every key.
        guard let properties = text.propertiesBeforeCursor else { return .sentenceStart }
        if properties.isWhitespace {
            // The text keeps a cluster that is one ASCII byte as that byte: "\n" is the byte
            // 0x0A, and a byte is canonically equivalent to itself alone, so it decides.
            if text.asciiBeforeCursor == 0x0A { return .sentenceStart }
            if let byte = text.lastNonSpaceASCII {
                switch byte {
                case UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?"): return .sentenceStart
                case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"): return .phraseStart
                default: return .wordStart
                }
            }
            guard let content = text.otherLastNonSpace else { return .sentenceStart }
            return content == "…" ? .sentenceStart : .wordStart
        }
        if properties.isLetter || properties.isNumber { return .withinWord }
        return .afterPunctuation
    }

    /// Whether `kind` is an edit whose interval the profile models.
    static func isEdit(_ kind: TraceEvent.Kind) -> Bool {
        switch kind {
        case .key, .backspace, .suggestionPicked, .cursorMove: true
        default: false
        }
    }

    /// Backspaces and cursor moves: the edits of a correction.
    static func isCorrection(_ kind: TraceEvent.Kind) -> Bool {
        switch kind {
        case .backspace, .cursorMove: true
        default: false
        }
    }
}
