import Sim

/// A trace source that hands the models speech timing only: each `dictation.start` whose
/// audio is a WAV file (relative to the trace's folder) becomes inline timing found by a
/// `SpeechDetector`. A WAV's time zero is the start tap, so its detected onset is the
/// speech onset after the tap. A clip with no speech becomes `onset 0, length 0`.
///
/// It also checks the taps: a `dictation.stop` with no dictation recording is an error.
/// Every error names the trace file and the line, like `traces/t.jsonl:7: error: …`.
public struct DictationAudioResolver<Base: TraceEventSource>: TraceEventSource {
    /// The trace file, as the user named it.
    public let tracePath: String
    /// The detector applied to WAV files.
    public let detector: SpeechDetector
    private var base: Base
    private let lineOf: (Base) -> Int?
    private var recording = false
    private var resolved: [String: DictationAudio] = [:]

    /// Wraps `base`, reading trace `tracePath`; `line` gives the line of the event `base`
    /// returned last, for errors.
    public init(_ base: Base, tracePath: String, detector: SpeechDetector = SpeechDetector(), line: @escaping (Base) -> Int?) {
        self.base = base
        self.tracePath = tracePath
        self.detector = detector
        self.lineOf = line
    }

    /// The next event, with its audio resolved.
    public mutating func next() throws -> TraceEvent? { try nextEvent() }

    /// The next event, with a typed error for the problems this source finds (the base's
    /// own errors pass through as they are).
    public mutating func nextEvent() throws -> TraceEvent? {
        guard var event = try base.next() else { return nil }
        switch event.kind {
        case .dictationStart(.wavFile(let path, let transcript)):
            recording = true
            event.kind = .dictationStart(audio: try resolve(path, transcript: transcript))
        case .dictationStart:
            recording = true
        case .dictationStop:
            guard recording else {
                throw InputError(.invalidContent, file: tracePath, line: lineOf(base),
                                 message: "dictation.stop without a dictation.start before it")
            }
            recording = false
        default:
            break
        }
        return event
    }

    /// Where a WAV named in the trace lives: beside the trace.
    public static func audioPath(_ path: String, besideTrace tracePath: String) -> String {
        guard let slash = tracePath.lastIndex(of: "/") else { return path }
        return String(tracePath[...slash]) + path
    }

    private mutating func resolve(_ path: String, transcript: String?) throws(InputError) -> DictationAudio {
        if case .inline(let onset, let length, _)? = resolved[path] {
            return .inline(onset: onset, length: length, transcript: transcript)
        }
        let full = Self.audioPath(path, besideTrace: tracePath)
        let audio: WAVAudio
        do {
            audio = try WAVReader.read(path: full)
        } catch {
            let message = error.kind == .noSuchFile
                ? "audio file '\(path)' not found (looked for \(full))"
                : "audio file '\(path)': \(error.message)"
            throw InputError(error.kind, file: tracePath, line: lineOf(base), message: message)
        }
        let speech = detector.detect(audio) ?? (.zero, .zero)
        resolved[path] = .inline(onset: speech.onset, length: speech.length, transcript: nil)
        return .inline(onset: speech.onset, length: speech.length, transcript: transcript)
    }
}

extension DictationAudioResolver where Base == TraceFileReader {
    /// Wraps a trace file reader: WAV paths are relative to its folder, errors name its lines.
    public init(_ reader: TraceFileReader, detector: SpeechDetector = SpeechDetector()) {
        self.init(reader, tracePath: reader.path, detector: detector) { $0.lineNumber }
    }
}
