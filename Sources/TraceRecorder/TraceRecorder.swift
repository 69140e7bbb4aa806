import Foundation

/// Records what the user does on a keyboard into a keysim trace file (JSON Lines, format
/// version 1, `docs/trace-format.md`), for a keyboard extension to embed.
///
///     let recorder = try TraceRecorder(path: folder + "/session.jsonl",
///                                      options: .init(name: "session", anonymization: .letters(seed: secret)))
///     recorder.record(.keyboardShow)
///     recorder.record(.key(text: "h", upNanos: recorder.nowNanos, point: (x: 204, y: 77)), atNanos: touchDown)
///     …
///     try recorder.close()
///
/// Safety: the header and every event are written as whole lines, each with one `write(2)`
/// to a file opened for appending, so a killed extension leaves a valid trace up to its
/// last complete line. With `FlushPolicy.everyEvent` (the default) that is the last event
/// recorded; with `.batched` it is the last batch written. When a write fails (a full disk),
/// the file is cut back to its last complete line and recording stops (`failure` says why).
///
/// Memory is bounded: one line buffer of `Options.bufferBytes` (plus the longest line), and
/// the anonymizer's tables. Events that would make a line longer than the format's 1 MiB
/// limit, or that are not valid (an empty key text, a malformed language tag), are dropped
/// and counted in `droppedEventCount`.
///
/// Times are nanoseconds since the recorder was created, on the system's monotonic clock
/// (`nowNanos`), unless given explicitly. They never go backwards in the file: an event
/// earlier than the one before it is recorded at the earlier one's time.
///
/// Not thread-safe: use a recorder from one thread (the extension's main thread).
public final class TraceRecorder {
    /// How often lines reach the file.
    public enum FlushPolicy: Sendable, Equatable {
        /// Each event is written as soon as it is recorded (one `write(2)` per event).
        case everyEvent
        /// Events gather in the buffer and are written when it is full, on `flush()` and on
        /// `close()`: fewer system calls, but a kill loses the events still in the buffer.
        case batched
    }

    /// Whether and how text is anonymised as it is recorded.
    public enum Anonymization: Sendable, Equatable {
        /// Text is recorded as typed.
        case off
        /// Every letter and digit is replaced by another of the same class and script, one
        /// mapping for the whole text (keysim's `TraceAnonymizer(letterSeed:)`). It keeps the
        /// text from being read at a glance, not from frequency analysis: run `keysim trace
        /// anonymize` on the trace before sharing it. Keep the seed secret.
        case letters(seed: UInt64)
    }

    /// The recorder's settings.
    public struct Options: Sendable, Equatable {
        /// The header's `name`.
        public var name: String?
        /// The keyboard language at the start (the header's `language`).
        public var language: String
        /// The header's `intendedText`, when the text to type is known (a typing test).
        public var intendedText: String?
        /// The header's `source`.
        public var source: String
        /// Whether text is anonymised.
        public var anonymization: Anonymization
        /// When lines are written.
        public var flushPolicy: FlushPolicy
        /// The line buffer's size in bytes, 256 B to 16 MiB.
        public var bufferBytes: Int
        /// Whether `flush()` also asks the disk to store the file (`fsync`), not only the
        /// kernel. Slower; protects against power loss, not needed against being killed.
        public var syncOnFlush: Bool

        /// Options with the defaults: language "en", no anonymisation, every event written
        /// at once, a 16 KiB buffer.
        public init(name: String? = nil, language: String = "en", intendedText: String? = nil,
                    source: String = "TraceRecorder \(TraceRecorder.version)", anonymization: Anonymization = .off,
                    flushPolicy: FlushPolicy = .everyEvent, bufferBytes: Int = 16 << 10, syncOnFlush: Bool = false) {
            self.name = name
            self.language = language
            self.intendedText = intendedText
            self.source = source
            self.anonymization = anonymization
            self.flushPolicy = flushPolicy
            self.bufferBytes = bufferBytes
            self.syncOnFlush = syncOnFlush
        }
    }

    /// The recorder's version, written in the default `source`.
    public static let version = "1.0"
    /// The trace format version written.
    public static let formatVersion = 1
    /// The longest line written, in bytes: the format's limit (1 MiB).
    public static let lineBytesMax = 1 << 20

    /// The trace file.
    public let path: String
    /// The settings.
    public let options: Options
    /// Events recorded into the file (or its buffer).
    public private(set) var recordedEventCount = 0
    /// Events dropped because they were invalid or too long.
    public private(set) var droppedEventCount = 0
    /// The error that stopped recording, if any; later events are dropped.
    public private(set) var failure: TraceRecorderError?

    private let file: AppendOnlyFile
    private var buffer: [UInt8] = []
    private var line: [UInt8] = []
    private var anonymizer: LetterScrambler?
    private let startNanos: UInt64
    private let clock: () -> UInt64
    private var lastTimeNanos: Int64 = 0

    /// Creates the trace at `path` and writes its header. An existing file of that name is
    /// replaced: give each session its own file, so that the file of a session that was
    /// killed stays for the app to collect.
    /// - Parameters:
    ///   - clock: a monotonic clock in nanoseconds; the system's by default (tests pass
    ///     their own).
    /// - Throws: `TraceRecorderError` when the file cannot be created or written, or an
    ///   option is invalid.
    public init(path: String, options: Options = Options(),
                clock: @escaping () -> UInt64 = TraceRecorder.monotonicNanos) throws {
        guard (256...(16 << 20)).contains(options.bufferBytes) else {
            throw TraceRecorderError.invalidOption("bufferBytes \(options.bufferBytes) is outside 256 B…16 MiB")
        }
        guard JSONLineWriter.isLanguageTag(options.language) else {
            throw TraceRecorderError.invalidOption("language \"\(options.language)\" is not a BCP 47 tag such as \"en\" or \"pt-BR\"")
        }
        self.path = path
        self.options = options
        self.clock = clock
        startNanos = clock()
        if case .letters(let seed) = options.anonymization { anonymizer = LetterScrambler(seed: seed) }
        file = try AppendOnlyFile(creating: path)
        buffer.reserveCapacity(options.bufferBytes)
        line.reserveCapacity(256)
        JSONLineWriter.appendHeader(version: Self.formatVersion, name: options.name, language: options.language,
                                    intendedText: options.intendedText.map { anonymizer?.scramble($0) ?? $0 },
                                    source: options.source, to: &line)
        guard line.count < Self.lineBytesMax else {
            throw TraceRecorderError.invalidOption("the header is longer than the 1 MiB line limit (intendedText too long)")
        }
        line.append(0x0A)
        try file.append(line)
    }

    deinit {
        try? close()
    }

    /// Nanoseconds since the recorder was created, on its clock: the time to pass for
    /// `up` and `atNanos`.
    public var nowNanos: Int64 { Int64(clock() &- startNanos) }

    /// The system's monotonic clock in nanoseconds.
    public static func monotonicNanos() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// Records `event` at `atNanos` (nanoseconds since the recorder was created; now when
    /// `nil`). Never throws: a failure stops recording and is kept in `failure`.
    /// - Returns: whether the event was recorded.
    @discardableResult
    public func record(_ event: TraceRecorderEvent, atNanos: Int64? = nil) -> Bool {
        guard failure == nil else { droppedEventCount += 1; return false }
        let time = max(atNanos ?? nowNanos, lastTimeNanos)
        let recorded = anonymizer.map { event.scrambled(by: $0) } ?? event
        line.removeAll(keepingCapacity: true)
        guard JSONLineWriter.appendEvent(recorded, timeNanos: time, to: &line), line.count < Self.lineBytesMax else {
            droppedEventCount += 1
            if line.capacity > 64 << 10 { line = [] } // do not keep a huge paste's buffer
            return false
        }
        line.append(0x0A)
        lastTimeNanos = time
        recordedEventCount += 1
        if buffer.count + line.count > options.bufferBytes { writeBuffer() }
        if line.count > options.bufferBytes {
            write(line)
            if line.capacity > 64 << 10 { line = [] }
        } else {
            buffer.append(contentsOf: line)
            if options.flushPolicy == .everyEvent { writeBuffer() }
        }
        return failure == nil
    }

    /// Writes every buffered line to the file (and syncs it with `syncOnFlush`).
    /// - Throws: the failure that stopped recording, if any.
    public func flush() throws {
        writeBuffer()
        if let failure { throw failure }
        if options.syncOnFlush { try file.sync() }
    }

    /// Flushes, syncs and closes the file. Recording after `close()` drops events.
    public func close() throws {
        guard !file.isClosed else { return }
        writeBuffer()
        if failure == nil { try? file.sync() }
        file.close()
        if failure == nil { failure = .closed }
        if let failure, failure != .closed { throw failure }
    }

    private func writeBuffer() {
        guard !buffer.isEmpty else { return }
        write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        do {
            try file.append(bytes)
        } catch let error as TraceRecorderError {
            failure = error
        } catch {
            failure = .writeFailed(path: path, reason: "\(error)")
        }
    }

    /// Cuts a trace back to its last complete line, for a file whose writer died in the
    /// middle of a line (a full disk, a crash inside `write(2)`).
    /// - Returns: the number of bytes removed.
    @discardableResult
    public static func repair(path: String) throws -> Int {
        try AppendOnlyFile.truncateToLastNewline(path: path)
    }
}

/// Why a recorder stopped or could not start.
public enum TraceRecorderError: Error, Equatable, CustomStringConvertible {
    /// The file could not be created or opened.
    case cannotOpen(path: String, reason: String)
    /// A write failed; the file was cut back to its last complete line.
    case writeFailed(path: String, reason: String)
    /// An option is not valid.
    case invalidOption(String)
    /// The recorder was closed.
    case closed

    /// A sentence for logs.
    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): "\(path): cannot open: \(reason)"
        case let .writeFailed(path, reason): "\(path): cannot write: \(reason)"
        case let .invalidOption(message): "invalid option: \(message)"
        case .closed: "the recorder is closed"
        }
    }
}
