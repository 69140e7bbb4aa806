import Foundation
import Report
import Scenarios
import Sim

/// The bodies of keysim's fuzz targets: each takes any bytes and must return, never trap
/// or hang. The libFuzzer executables in `Fuzz/` call them (`make fuzz`); the test suite
/// calls them on every input in `Fuzz/regressions/`, so an input that once crashed keysim
/// stays a test.
public enum FuzzHarness {
    /// The targets' names, as `make fuzz` and the regression folders name them.
    public static let targetNames = ["FuzzJSON5", "FuzzTraceLine", "FuzzZstd", "FuzzWAV", "FuzzScenario", "FuzzSweepSet", "FuzzCalibration"]

    /// Runs target `name` on `bytes`.
    public static func run(_ name: String, _ bytes: UnsafeRawBufferPointer) {
        switch name {
        case "FuzzJSON5": json5(bytes)
        case "FuzzTraceLine": traceLines(bytes)
        case "FuzzZstd": zstd(bytes)
        case "FuzzWAV": wav(bytes)
        case "FuzzScenario": scenario(bytes)
        case "FuzzSweepSet": sweepSet(bytes)
        case "FuzzCalibration": calibration(bytes)
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
    /// A trace whose every line decodes is then anonymised as `trace anonymize` does.
    public static func traceLines(_ raw: UnsafeRawBufferPointer) {
        let bytes = raw.bindMemory(to: UInt8.self)
        var decoder = TraceLineDecoder()
        var lineStart = 0
        var first = true
        var header: TraceHeader?
        var events: [TraceEvent] = []
        var whole = true
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "\n") {
            let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<index])
            lineStart = index + 1
            // What follows the last newline, when nothing does, is no line.
            if index == bytes.count && line.isEmpty && !first { break }
            do {
                if first { header = try decoder.decodeHeader(line) } else { events.append(try decoder.decodeEvent(line)) }
            } catch {
                whole = false
                if let column = error.column { precondition(column >= 1 && column <= line.count + 1, "column \(column) outside the line") }
            }
            first = false
        }
        if whole, let header { anonymize(header, events, digest: SHA256.hex(raw)) }
    }

    /// The trace anonymised: every event kept with its time and kind, every text keeping its
    /// length in scalars, the header's source dropped; written out, it reads back.
    static func anonymize(_ header: TraceHeader, _ events: [TraceEvent], digest: String) {
        var anonymizer = TraceAnonymizer(seed: 29, traceDigest: digest, language: header.language)
        for event in events { anonymizer.learn(event) }
        anonymizer.finishLearning()
        let encoder = TraceLineEncoder()
        let newHeader = anonymizer.anonymize(header)
        precondition(newHeader.source == TraceAnonymizer.anonymizedSource, "the header's source kept: \(newHeader)")
        precondition(newHeader.name?.unicodeScalars.count == header.name?.unicodeScalars.count, "the name changed length")
        precondition(newHeader.intendedText?.unicodeScalars.count == header.intendedText?.unicodeScalars.count, "the intended text changed length")
        var lines = [encoder.encode(newHeader)]
        for event in events {
            let anonymous = anonymizer.anonymize(event)
            precondition(anonymous.time == event.time, "an event moved: \(event) became \(anonymous)")
            lines.append(encoder.encode(anonymous))
        }
        var decoder = TraceLineDecoder()
        for (index, line) in lines.enumerated() {
            var bytes = Array(line.utf8)
            do {
                _ = try bytes.withUnsafeMutableBufferPointer { buffer throws(TraceLineError) in
                    let line = UnsafeBufferPointer(buffer)
                    if index == 0 { _ = try decoder.decodeHeader(line) } else { _ = try decoder.decodeEvent(line) }
                }
            } catch {
                preconditionFailure("the anonymised trace does not read back, line \(index + 1): \(error)\n\(line)")
            }
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

    /// Any bytes as a calibration input, read as each format `keysim calibrate` reads (CSV,
    /// Instruments XML, unified-log NDJSON, MetricKit JSON, a trace's `measure` lines): each
    /// reading holds durations and counts within `ValueLimits`, or fails with an `InputError`
    /// naming the file. What was read is then calibrated, and its overlay and page written,
    /// as the command does; the overlay must load as a scenario.
    public static func calibration(_ raw: UnsafeRawBufferPointer) {
        let path = scratchFolder + "/calibration-input"
        guard FileManager.default.createFile(atPath: path, contents: Data(raw)) else { return }
        var readings: [CostReading] = []
        for format in CostFormat.allCases {
            do {
                let reading = try CostInputReader.read(path: path, format: format)
                for series in reading.series {
                    precondition(series.samplesMs.allSatisfy { ValueLimits.isDuration(ms: $0) }, "a duration out of range: \(series.samplesMs)")
                    precondition(series.buckets.allSatisfy { ValueLimits.isDuration(ms: $0.lowerMs) && $0.lowerMs <= $0.upperMs
                        && ValueLimits.isDuration(ms: $0.upperMs) && $0.count >= 0 }, "a bucket out of range: \(series.buckets)")
                    precondition(series.count <= ValueLimits.countMax, "\(series.count) durations of one name")
                }
                readings.append(reading)
            } catch {
                precondition(error.file == path, "an error naming another file: \(error)")
            }
        }
        // Every name measured calibrates some target, in turn.
        var mapping = NameMapping()
        let names = Set(readings.flatMap { $0.series.map(\.name) }).sorted()
        for (index, name) in names.enumerated() {
            _ = mapping.add("\(name)=\(CalibrationTarget.all[index % CalibrationTarget.all.count].name)")
        }
        let run = CalibrationRun(readings: readings, mapping: mapping, kind: nil)
        let overlay = CalibrationOverlay.text(run, command: "keysim calibrate fuzz")
        _ = CalibrationPage.html(run, command: "keysim calibrate fuzz --html page.html")
        guard !run.calibrations.isEmpty else { return }
        let traces = ConfigValue(.array([ConfigValue(.string(shortTrace))]))
        do {
            _ = try ScenarioLoader.parse(overlay, path: scratchFolder + "/costs.json5", overrides: [.init(path: "traces", value: traces)])
        } catch {
            preconditionFailure("calibrate wrote an overlay the scenario reader refuses: \(error)\n\(overlay)")
        }
    }

    /// A folder of this process's own for the files the targets write.
    static let scratchFolder: String = {
        let folder = NSTemporaryDirectory() + "keysim-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// A short trace (a typo, a backspace, a dictation, a suggestion), written once per process.
    static let shortTrace: String = {
        let path = scratchFolder + "/trace.jsonl"
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
