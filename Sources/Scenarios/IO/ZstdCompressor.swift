import CZstd

/// Compresses bytes into zstd frames written to another `ByteSink`, chunk by chunk.
///
/// A resource: owns the zstd compression context and one fixed output buffer. Output is
/// deterministic for a given level and input (single-threaded, no dictionary), and frames
/// carry a content checksum by default so that damage is caught on reading.
///
///     let file = try AtomicFileWriter(path: "traces/session.jsonl.zst")
///     let zstd = try ZstdCompressor(destination: file, level: 3)
///     try zstd.write(lineBytes)
///     try zstd.finish()
///     try file.commit()
///
/// `finish()` ends the frame; writing after it starts a new frame in the same stream, which
/// readers decode as one continuous stream.
public final class ZstdCompressor: ByteSink {
    /// The destination file, for error messages.
    public var path: String { destination.path }

    /// zstd's default level: a good speed/size balance for traces.
    public static let defaultLevel = 3

    /// The levels zstd accepts (negative levels trade size for speed).
    public static var levelRange: ClosedRange<Int> { Int(ZSTD_minCLevel())...Int(ZSTD_maxCLevel()) }

    private let destination: any ByteSink
    private let context: OpaquePointer
    private let outputBuffer: UnsafeMutableRawBufferPointer
    /// The number of frames ended by `finish()` so far.
    public private(set) var frameCount = 0

    /// Whether bytes were written since the last `finish()`, so a frame is open.
    private var frameOpen = false
    private var failure: InputError?

    /// Creates a compressor writing to `destination`.
    /// - Parameters:
    ///   - level: a level in `levelRange`; 3 by default.
    ///   - checksum: whether each frame ends with a checksum of its content.
    /// - Throws: `InputError` `.writeFailed` if zstd cannot be set up.
    public init(destination: any ByteSink, level: Int = ZstdCompressor.defaultLevel,
                checksum: Bool = true) throws(InputError) {
        precondition(Self.levelRange.contains(level), "zstd level \(level) is outside \(Self.levelRange)")
        guard let context = ZSTD_createCCtx() else {
            throw InputError(.writeFailed, file: destination.path,
                             message: "cannot create a zstd compression context (out of memory)")
        }
        for (parameter, value) in [(ZSTD_c_compressionLevel, Int32(level)), (ZSTD_c_checksumFlag, checksum ? 1 : 0)] {
            let code = ZSTD_CCtx_setParameter(context, parameter, value)
            if ZSTD_isError(code) != 0 {
                ZSTD_freeCCtx(context)
                throw InputError(.writeFailed, file: destination.path,
                                 message: "cannot configure zstd: \(String(cString: ZSTD_getErrorName(code)))")
            }
        }
        self.destination = destination
        self.context = context
        self.outputBuffer = .allocate(byteCount: ZSTD_CStreamOutSize(), alignment: 16)
    }

    deinit {
        ZSTD_freeCCtx(context)
        outputBuffer.deallocate()
    }

    /// Compresses `bytes`; compressed output reaches the destination as zstd's buffers fill.
    /// - Throws: `InputError` from zstd or the destination; later calls throw it again.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        frameOpen = true
        try run(ZSTD_e_continue, input: UnsafeRawBufferPointer(start: base, count: bytes.count))
    }

    /// Writes out everything compressed so far as complete blocks, so a reader can decode
    /// all bytes written up to now (the frame stays open). Costs some compression ratio.
    public func flush() throws(InputError) {
        try run(ZSTD_e_flush, input: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Ends the current frame (with its checksum) and writes it out. Call before committing
    /// or closing the destination. Finishing twice without writing in between writes
    /// nothing more; finishing before any write produces one empty frame, a valid stream.
    public func finish() throws(InputError) {
        if let failure { throw failure }
        if !frameOpen && frameCount > 0 { return }
        try run(ZSTD_e_end, input: UnsafeRawBufferPointer(start: nil, count: 0))
        frameOpen = false
        frameCount += 1
    }

    private func run(_ directive: ZSTD_EndDirective, input bytes: UnsafeRawBufferPointer) throws(InputError) {
        if let failure { throw failure }
        var input = ZSTD_inBuffer(src: bytes.baseAddress, size: bytes.count, pos: 0)
        while true {
            var output = ZSTD_outBuffer(dst: outputBuffer.baseAddress, size: outputBuffer.count, pos: 0)
            let remaining = ZSTD_compressStream2(context, &output, &input, directive)
            if ZSTD_isError(remaining) != 0 {
                let failure = InputError(.writeFailed, file: path,
                                         message: "zstd compression failed: \(String(cString: ZSTD_getErrorName(remaining)))")
                self.failure = failure
                throw failure
            }
            if output.pos > 0 {
                do {
                    try destination.write(UnsafeRawBufferPointer(start: outputBuffer.baseAddress, count: output.pos))
                } catch {
                    self.failure = error
                    throw error
                }
            }
            // e_continue is done once zstd has taken all input; flush and end once nothing
            // remains to be written out.
            let done = directive == ZSTD_e_continue ? input.pos == input.size : remaining == 0
            if done { return }
        }
    }
}
