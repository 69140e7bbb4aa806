/// What the synthetic typist is to produce: text to type, with dictations in between.
///
/// The text file is UTF-8; its lines are typed one after another with the return key
/// between them, and trailing white space at the end of the file is dropped. A line of the
/// form `@dictate AUDIO TRANSCRIPT` is not typed: the typist taps the mic, the clip AUDIO
/// (a WAV file, relative to the output trace's folder) plays, the typist taps stop, and
/// TRANSCRIPT is what the dictation inserts.
public struct SynthScript: Sendable, Equatable {
    /// The longest text accepted, 256 KiB: it travels in the header line of the trace.
    public static let textBytesMax = 256 << 10
    /// The prefix of a dictation line.
    public static let dictationPrefix = "@dictate "

    /// One part of the script.
    public enum Segment: Sendable, Equatable {
        /// Text typed key by key.
        case typed(String)
        /// A dictation: the clip `audio` lasting `lengthNanos`, inserting `transcript`.
        case dictation(audio: String, transcript: String, lengthNanos: Int64)
    }

    /// The parts in order.
    public var segments: [Segment]

    /// The text the script leaves behind: typed text and transcripts, in order.
    public var intendedText: String {
        // A message of one segment (most of a typist's) is that segment's text, without an
        // array and a join.
        if segments.count == 1 { return Self.text(of: segments[0]) }
        return segments.map(Self.text(of:)).joined()
    }

    /// What `segment` leaves behind: its typed text or transcript.
    private static func text(of segment: Segment) -> String {
        switch segment {
        case .typed(let text): text
        case .dictation(_, let transcript, _): transcript
        }
    }

    /// Creates a script.
    public init(segments: [Segment]) { self.segments = segments }

    /// Reads the script in `path`. `clipLength` gives the length in nanoseconds of an audio
    /// clip named by a dictation line (it reads the WAV file).
    /// - Throws: `InputError` for a missing or unreadable file, invalid UTF-8, a text over
    ///   the limit, an empty text, or a malformed dictation line, with its line and column.
    public static func read(path: String,
                            clipLength: (String) throws(InputError) -> Int64) throws(InputError) -> SynthScript {
        let reader = try LineReader(path: path)
        var lines: [(number: Int, text: String)] = []
        var byteCount = 0
        while let (number, bytes) = try reader.nextLine() {
            byteCount += bytes.count + 1
            guard byteCount <= textBytesMax else {
                throw InputError(.invalidContent, file: path, line: number,
                                 message: "text is longer than the limit of \(textBytesMax >> 10) KiB")
            }
            lines.append((number, String(decoding: bytes, as: UTF8.self)))
        }
        while let last = lines.last, last.text.allSatisfy(\.isWhitespace) { lines.removeLast() }
        guard !lines.isEmpty else {
            throw InputError(.invalidContent, file: path, message: "no text to type")
        }
        var segments: [Segment] = []
        var pending = ""
        for (index, line) in lines.enumerated() {
            var text = line.text
            if index == lines.count - 1 {
                while let last = text.last, last.isWhitespace { text.removeLast() }
            }
            if text.hasPrefix(dictationPrefix) {
                let rest = text.dropFirst(dictationPrefix.count)
                let parts = rest.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
                guard parts.count == 2, !parts[1].allSatisfy(\.isWhitespace) else {
                    throw InputError(.invalidContent, file: path, line: line.number, column: dictationPrefix.utf8.count + 1,
                                     message: "a dictation line is '@dictate AUDIO TRANSCRIPT' (a WAV file, then the words)")
                }
                let audio = String(parts[0])
                guard !audio.hasPrefix("/") else {
                    throw InputError(.invalidContent, file: path, line: line.number, column: dictationPrefix.utf8.count + 1,
                                     message: "the audio path must be relative to the trace's folder, found \"\(audio)\"")
                }
                if !pending.isEmpty { segments.append(.typed(pending)) }
                pending = ""
                let length: Int64
                do {
                    length = try clipLength(audio)
                } catch {
                    throw InputError(error.kind, file: path, line: line.number, column: dictationPrefix.utf8.count + 1,
                                     message: "\(error.file): \(error.message)")
                }
                segments.append(.dictation(audio: audio, transcript: String(parts[1]), lengthNanos: length))
            } else {
                pending += text
            }
            if index < lines.count - 1 { pending += "\n" }
        }
        if !pending.isEmpty { segments.append(.typed(pending)) }
        return SynthScript(segments: segments)
    }
}
