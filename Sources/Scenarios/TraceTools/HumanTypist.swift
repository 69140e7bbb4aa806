#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sim

/// A typist that types as people do, from a `TypistProfile`: intervals by context, pauses
/// with a heavy tail, slips noticed within the word, after it or never, picked suggestions,
/// and messages sent one after another with the field cleared and, now and then, the
/// keyboard hidden in between. The same profile, script and seed give the same trace.
///
/// The model is documented under "Typist profiles" in `docs/trace-format.md`. Its draws come
/// from separate named streams (typing intervals, pauses, slips, suggestions, messages,
/// touches, holds), so that changing one part of a profile leaves the others' draws alone. A
/// profile with a rhythm or hesitations draws its typing intervals from a stream of their own
/// ("rhythm"), so a profile without them types exactly as before they existed.
public struct HumanTypist: Sendable {
    /// The typist's parameters.
    public let profile: TypistProfile

    /// Creates a typist.
    public init(profile: TypistProfile) { self.profile = profile }

    /// The messages the typist types from `script`: each non-empty line a message of its own
    /// when the profile types a message per line, else the whole script as one.
    public func messages(of script: SynthScript) -> [SynthScript] {
        guard profile.messages.perLine else { return [script] }
        var messages: [SynthScript] = []
        var current: [SynthScript.Segment] = []
        func close() {
            let message = SynthScript(segments: current)
            if !Self.isBlank(message.intendedText) { messages.append(message) }
            current = []
        }
        for segment in script.segments {
            switch segment {
            case .typed(let text):
                for (index, line) in Self.lines(of: text).enumerated() {
                    if index > 0 { close() }
                    if !line.isEmpty { current.append(.typed(String(line))) }
                }
            case .dictation:
                current.append(segment)
            }
        }
        close()
        return messages
    }

    /// Whether every character of `text` is white space: `text.allSatisfy(\.isWhitespace)`,
    /// read from its bytes when they are all ASCII (each byte a cluster of its own but CR LF,
    /// and CR, LF and CR LF are all white space).
    static func isBlank(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return text.allSatisfy(\.isWhitespace) }
        return utf8.allSatisfy { TypedCharacter.properties(ofASCII: $0).isWhitespace }
    }

    /// The lines of `text` between its "\n" characters, as `text.split(separator: "\n",
    /// omittingEmptySubsequences: false)` gives them, found in its UTF-8 without walking its
    /// clusters: a line feed is a cluster of its own unless a carriage return comes just
    /// before it (Unicode's rules GB3–GB5).
    static func lines(of text: String) -> [Substring] {
        let utf8 = text.utf8
        let breaks: [Int]? = utf8.withContiguousStorageIfAvailable { bytes in
            var offsets: [Int] = []
            for offset in bytes.indices where bytes[offset] == 0x0A && (offset == 0 || bytes[offset - 1] != 0x0D) {
                offsets.append(offset)
            }
            return offsets
        }
        guard let breaks else { return text.split(separator: "\n", omittingEmptySubsequences: false) }
        var lines: [Substring] = []
        lines.reserveCapacity(breaks.count + 1)
        var start = utf8.startIndex
        for offset in breaks {
            let lineFeed = utf8.index(utf8.startIndex, offsetBy: offset)
            lines.append(text[start..<lineFeed])
            start = utf8.index(after: lineFeed)
        }
        lines.append(text[start...])
        return lines
    }

    /// The header's intended text for `script`: its messages, one per line.
    public func intendedText(of script: SynthScript) -> String {
        Self.intendedText(of: messages(of: script))
    }

    /// The header's intended text of a script split into `messages`.
    static func intendedText(of messages: [SynthScript]) -> String {
        messages.map(\.intendedText).joined(separator: "\n")
    }

    /// The trace of `script`, in time order.
    public func synthesize(_ script: SynthScript, seed: UInt64) -> [TraceEvent] {
        session(typing: script, seed: seed, recordsTimeline: false).events
    }

    /// The session that typed `script`: its trace, and its timeline when `recordsTimeline`.
    func session(typing script: SynthScript, seed: UInt64, recordsTimeline: Bool) -> HumanTypistSession {
        session(typing: script, messages: messages(of: script), seed: seed, recordsTimeline: recordsTimeline)
    }

    /// `session(typing:seed:recordsTimeline:)` of a script already split into its `messages`.
    func session(typing script: SynthScript, messages: [SynthScript], seed: UInt64,
                 recordsTimeline: Bool) -> HumanTypistSession {
        var session = HumanTypistSession(profile: profile, seed: seed, recordsTimeline: recordsTimeline)
        // An event a character, a quarter more for slips, picks and messages: most traces
        // grow their array once.
        let typedBytes = script.segments.reduce(0) { count, segment in
            if case .typed(let text) = segment { count + text.utf8.count } else { count + 2 }
        }
        let eventsExpected = 16 + typedBytes + typedBytes / 4 + 8 * messages.count
        session.events.reserveCapacity(eventsExpected)
        if recordsTimeline {
            session.timeline!.eventSteps.reserveCapacity(eventsExpected)
            session.timeline!.steps.reserveCapacity(eventsExpected)
            session.timeline!.draws.reserveCapacity(eventsExpected)
            session.timeline!.normals.reserveCapacity(eventsExpected)
        }
        session.emit(.keyboardShown)
        for (index, message) in messages.enumerated() {
            if index == 0 {
                session.emit(.field(FieldChange(.opened, intendedText: message.intendedText)))
                session.startAfterShow()
            }
            for segment in message.segments { session.type(segment) }
            session.finishMessage()
            let next = index + 1 < messages.count ? messages[index + 1] : nil
            session.send(next: next?.intendedText)
        }
        if recordsTimeline { session.timeline!.timingAfterNormals = session.timing }
        return session
    }
}

extension HumanTypist {
    /// The length of the word starting at `index` when a typist may complete it from the
    /// bar: letters only, at least `minimumLength` of them, after white space or at the
    /// start, and followed by no letter or digit.
    static func suggestibleWordLength(_ characters: [TypedCharacter], at index: Int, minimumLength: Int) -> Int? {
        guard index == 0 || characters[index - 1].properties.isWhitespace else { return nil }
        var end = index
        while end < characters.count, characters[end].properties.isLetter { end += 1 }
        let length = end - index
        guard length >= minimumLength else { return nil }
        if end < characters.count, characters[end].properties.isNumber { return nil }
        return length
    }

    /// The words of `text` a typist may complete from the bar.
    static func suggestibleWords(in text: String, minimumLength: Int) -> Int {
        let characters = TypedCharacter.characters(of: text)
        var count = 0
        for index in characters.indices where suggestibleWordLength(characters, at: index, minimumLength: minimumLength) != nil {
            count += 1
        }
        return count
    }
}
