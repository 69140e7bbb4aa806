import Sim

/// Writes a trace (format in `docs/trace-format.md`): the header line, then one line per
/// event, compressed with zstd when the file name ends in `.zst`.
///
/// A file appears whole or not at all: lines go to an `AtomicFileWriter`, and only
/// `commit()` puts the file in place. A writer released without `commit()`, or after an
/// error, leaves no file behind (and an older file of the same name untouched).
///
///     let writer = try TraceFileWriter(path: "out/typing.jsonl.zst", header: header)
///     for event in events { try writer.write(event) }
///     try writer.commit()
///
/// A resource: owns the output file, perhaps a zstd stream, and one line buffer of at most
/// `flushThresholdBytes` plus one line, so memory stays flat whatever the trace's length.
public final class TraceFileWriter {
    /// Lines gathered before they are handed to the compressor or the file.
    public static let flushThresholdBytes = 64 << 10

    /// The destination, as named by the user ("-" for standard output).
    public let path: String
    /// The number of events written so far.
    public private(set) var eventCount = 0
    /// The time of the last event written.
    public private(set) var lastTime: SimTime?

    private let file: AtomicFileWriter?
    private let compressor: ZstdCompressor?
    private let sink: any ByteSink
    private let encoder = TraceLineEncoder()
    private var buffer: [UInt8] = []
    private var finished = false

    /// Creates `path` (atomically, on `commit()`) and writes the header. A name ending in
    /// `.zst` is compressed at `compressionLevel`.
    /// - Throws: `InputError` `.writeFailed` or `.noSpace` naming `path`.
    public init(path: String, header: TraceHeader,
                compressionLevel: Int = ZstdCompressor.defaultLevel) throws(InputError) {
        let file = try AtomicFileWriter(path: path)
        self.path = path
        self.file = file
        if path.hasSuffix(".zst") {
            let compressor = try ZstdCompressor(destination: file, level: compressionLevel)
            self.compressor = compressor
            self.sink = compressor
        } else {
            self.compressor = nil
            self.sink = file
        }
        buffer.reserveCapacity(Self.flushThresholdBytes + 4096)
        try writeHeader(header)
    }

    /// Writes the trace to `sink` (standard output, a test's memory sink), compressed when
    /// `compressed`. Nothing is atomic here: `commit()` only flushes.
    public init(sink: any ByteSink, header: TraceHeader, compressed: Bool = false) throws(InputError) {
        self.path = sink.path
        self.file = nil
        if compressed {
            let compressor = try ZstdCompressor(destination: sink)
            self.compressor = compressor
            self.sink = compressor
        } else {
            self.compressor = nil
            self.sink = sink
        }
        try writeHeader(header)
    }

    deinit {
        file?.discard()
    }

    private func writeHeader(_ header: TraceHeader) throws(InputError) {
        encoder.append(header, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Appends one event.
    /// - Precondition: the event is not earlier than the previous one (a trace's time never
    ///   goes backwards); `commit()` has not been called.
    /// - Throws: `InputError` from the compressor or the file; the writer is then unusable.
    public func write(_ event: TraceEvent) throws(InputError) {
        precondition(!finished, "TraceFileWriter for \(path) used after commit()")
        if let lastTime {
            precondition(event.time >= lastTime, "trace time goes backwards: \(event.time) after \(lastTime)")
        }
        encoder.append(event, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        lastTime = event.time
        eventCount += 1
        if buffer.count >= Self.flushThresholdBytes { try flushBuffer() }
    }

    /// Appends one measured duration (a `measure` line; not counted in `eventCount`).
    /// - Precondition: as `write(_:)` for an event.
    public func write(_ measurement: TraceMeasurement) throws(InputError) {
        precondition(!finished, "TraceFileWriter for \(path) used after commit()")
        if let lastTime {
            precondition(measurement.time >= lastTime, "trace time goes backwards: \(measurement.time) after \(lastTime)")
        }
        buffer.append(contentsOf: encoder.encode(measurement).utf8)
        buffer.append(UInt8(ascii: "\n"))
        lastTime = measurement.time
        if buffer.count >= Self.flushThresholdBytes { try flushBuffer() }
    }

    /// Flushes everything, ends the zstd frame and, for a file, puts it in place.
    public func commit() throws(InputError) {
        precondition(!finished, "TraceFileWriter for \(path) committed twice")
        finished = true
        try flushBuffer()
        try compressor?.finish()
        try file?.commit()
    }

    /// Gives up: the file is not created (an older one stays as it was).
    public func discard() {
        finished = true
        file?.discard()
    }

    private func flushBuffer() throws(InputError) {
        guard !buffer.isEmpty else { return }
        try sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
