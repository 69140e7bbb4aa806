import Foundation
import Scenarios
import Sim

/// The bodies of keysim's fuzz targets: each takes any bytes and must return, never trap
/// or hang. The libFuzzer executables in `Fuzz/` call them (`make fuzz`); the test suite
/// calls them on every input in `Fuzz/regressions/`, so an input that once crashed keysim
/// stays a test.
public enum FuzzHarness {
    /// The targets' names, as `make fuzz` and the regression folders name them.
    public static let targetNames = ["FuzzJSON5", "FuzzTraceLine", "FuzzZstd", "FuzzWAV", "FuzzScenario", "FuzzSweepSet"]

    /// Runs target `name` on `bytes`.
    public static func run(_ name: String, _ bytes: UnsafeRawBufferPointer) {
        switch name {
        case "FuzzJSON5": json5(bytes)
        case "FuzzTraceLine": traceLines(bytes)
        case "FuzzZstd": zstd(bytes)
        case "FuzzWAV": wav(bytes)
        case "FuzzScenario": scenario(bytes)
        case "FuzzSweepSet": sweepSet(bytes)
        default: preconditionFailure("no fuzz target named \(name)")
        }
    }

    /// Any bytes as a scenario file's text: the parser returns a value or a syntax error with
    /// a 1-based place; the loader on top fails only with a `ConfigError`.
    public static func json5(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            _ = try JSON5Parser.parse(text)
        } catch {
            precondition(error.line >= 1 && error.column >= 1, "a syntax error without a place: \(error)")
        }
        _ = try? ScenarioLoader.parse(text, path: "/nonexistent/fuzz.json5")
    }

    /// Any bytes as a trace file: the first line decoded as a header, every other as an
    /// event, by one decoder, as `trace validate` does; an error's column lies in its line.
    public static func traceLines(_ raw: UnsafeRawBufferPointer) {
        let bytes = raw.bindMemory(to: UInt8.self)
        var decoder = TraceLineDecoder()
        var lineStart = 0
        var first = true
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "\n") {
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<index])
            lineStart = index + 1
            do {
                if first { _ = try decoder.decodeHeader(line) } else { _ = try decoder.decodeEvent(line) }
            } catch {
                if let column = error.column { precondition(column >= 1 && column <= line.count + 1, "column \(column) outside the line") }
            }
            first = false
        }
    }

    /// Any bytes as a compressed trace, through the zstd reader and the line reader: every
    /// line comes out or an `InputError` names the damage (a 16 MiB decompression limit
    /// stands in for the 4 GiB default).
    public static func zstd(_ raw: UnsafeRawBufferPointer) {
        do {
            let zstd = try ZstdDecompressor(source: PieceSource(Array(raw)), decompressedBytesMax: 16 << 20)
            let lines = LineReader(source: zstd, lineLengthMax: 1 << 16, chunkSize: 4096)
            while true {
                do {
                    guard try lines.nextLine() != nil else { break }
                } catch where error.kind == .lineTooLong || error.kind == .invalidUTF8 {
                    continue
                }
            }
        } catch {
            precondition(error.file == PieceSource.name, "an error naming another file")
        }
    }

    /// Any bytes as a WAV clip, through the one WAV parser and the speech detector.
    public static func wav(_ raw: UnsafeRawBufferPointer) {
        guard let audio = try? WAVReader.decode(Array(raw), file: "fuzz.wav") else { return }
        precondition(audio.sampleRate > 0 && audio.channels > 0)
        if let speech = SpeechDetector().detect(audio) {
            precondition(speech.onset.nanoseconds >= 0 && speech.length.nanoseconds >= 0)
        }
    }

    /// Any bytes as a scenario, run for one replication over a short trace: it fails to load
    /// with a `ConfigError` or runs to a result or a limit error; no model may trap.
    public static func scenario(_ raw: UnsafeRawBufferPointer) {
        let text = String(decoding: raw, as: UTF8.self)
        let traces = ConfigValue(.array([ConfigValue(.string(shortTrace))]))
        guard var scenario = try? ScenarioLoader.parse(text, path: shortTrace + ".json5",
                                                       overrides: [.init(path: "traces", value: traces)]) else { return }
        // Small limits keep one input to a fraction of a second.
        scenario.keyboard.limits = RunLimits(simulatedTimeMax: SimTime(milliseconds: 3_600_000 * 4), eventsMax: 200_000)
        do {
            _ = try ScenarioRunner.runOne(scenario, item: WorkItem(replication: 0, traceIndex: 0))
        } catch is ReplicationLimitError {
        } catch is InputError {
        } catch {
            preconditionFailure("unexpected error from a loaded scenario: \(error)")
        }
    }

    /// A short trace (a typo, a backspace, a dictation, a suggestion), written once per process.
    static let shortTrace: String = {
        let folder = NSTemporaryDirectory() + "keysim-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/trace.jsonl"
        var lines = [#"{"keysim": "trace", "version": 1, "name": "fuzz", "language": "en", "intendedText": "Hi there. See you"}"#]
        for (k, c) in "Hi therr. See you".enumerated() {
            lines.append(#"{"t": \#(200 + 130 * k), "type": "key", "text": "\#(c)"}"#)
            if c == "r" && k == 7 { lines.append(#"{"t": \#(260 + 130 * k), "type": "backspace"}"#) }
        }
        lines.append(#"{"t": 4000, "type": "dictation.start", "onsetMs": 100, "lengthMs": 800, "transcript": "ok"}"#)
        lines.append(#"{"t": 5200, "type": "suggestion", "text": "you"}"#)
        try? (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()
}

/// Bytes handed out in small, uneven pieces, so every buffer boundary of a reader is met.
final class PieceSource: ByteSource {
    static let name = "fuzz.jsonl.zst"
    let path = PieceSource.name
    private let bytes: [UInt8]
    private var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(buffer.count, bytes.count - offset, 1 + offset % 977)
        for k in 0..<count { buffer[k] = bytes[offset + k] }
        offset += count
        return count
    }
}
