import CZstd

/// Decompresses a zstd stream read from another `ByteSource`, chunk by chunk.
///
/// A resource: owns the zstd decompression context and one fixed input buffer, both freed
/// when released, so memory stays flat whatever the size of the file. Frames that follow one
/// another (as written by `zstd a b > ab.zst` or by appending) decode as one stream, and
/// skippable frames are skipped.
///
/// Damage is reported, never silently ignored:
/// - a stream that ends inside a frame (a file cut short, or an empty file) throws
///   `InputError` `.truncated` once the bytes decoded before the cut have been returned;
/// - bytes that are not zstd, or a frame whose checksum does not match, throw `.corrupt`
///   with zstd's own description.
public final class ZstdDecompressor: ByteSource {
    /// The compressed file, for error messages.
    public var path: String { source.path }

    /// The default largest window a frame may ask for, as a power of two: 2^27 = 128 MiB,
    /// zstd's own default limit. Frames made with `zstd --long=31` need more, and are
    /// refused rather than allowed to take gigabytes.
    public static let defaultWindowLogMax = 27
    /// The default limit on the bytes one stream decompresses to: 4 GiB, far above any
    /// trace, so that a small file that expands without end (a zstd bomb) is refused.
    public static let defaultDecompressedBytesMax: Int64 = 4 << 30
    /// The most bytes this stream may decompress to.
    public let decompressedBytesMax: Int64
    private var decompressedBytes: Int64 = 0

    private let source: any ByteSource
    private let context: OpaquePointer
    private let inputBuffer: UnsafeMutableRawBufferPointer
    /// The unread part of `inputBuffer` is `inputStart..<inputEnd`.
    private var inputStart = 0
    private var inputEnd = 0
    private var sourceExhausted = false
    /// Whether the decoder is inside a frame (its last result was non-zero).
    private var frameInProgress = false
    /// Whether the last call filled the output, so the decoder may hold more to flush.
    private var outputMayBePending = false
    /// Whether any compressed byte was seen; an empty file is not a zstd stream.
    private var sawInput = false
    /// The damage already reported; every later read reports it again, since the decoder
    /// state after an error is undefined.
    private var failure: InputError?

    /// Wraps `source`, which yields zstd-compressed bytes.
    /// - Parameters:
    ///   - source: the compressed bytes.
    ///   - windowLogMax: the largest window (log2 of bytes) a frame may require, 10...31.
    /// - Throws: `InputError` `.corrupt` if the zstd context cannot be created.
    public init(source: any ByteSource, windowLogMax: Int = ZstdDecompressor.defaultWindowLogMax,
                decompressedBytesMax: Int64 = ZstdDecompressor.defaultDecompressedBytesMax) throws(InputError) {
        precondition((10...31).contains(windowLogMax), "windowLogMax \(windowLogMax) is outside 10...31")
        guard let context = ZSTD_createDCtx() else {
            throw InputError(.corrupt, file: source.path, message: "cannot create a zstd decompression context (out of memory)")
        }
        let code = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Int32(windowLogMax))
        if ZSTD_isError(code) != 0 {
            ZSTD_freeDCtx(context)
            throw InputError(.corrupt, file: source.path,
                             message: "cannot configure zstd: \(String(cString: ZSTD_getErrorName(code)))")
        }
        self.source = source
        self.context = context
        self.decompressedBytesMax = decompressedBytesMax
        // ZSTD_DStreamInSize is the block size plus a header: one whole block per read.
        self.inputBuffer = .allocate(byteCount: ZSTD_DStreamInSize(), alignment: 16)
    }

    /// Opens the zstd-compressed file at `path`.
    /// - Throws: `InputError` `.noSuchFile` or `.unreadable`.
    public convenience init(path: String, windowLogMax: Int = ZstdDecompressor.defaultWindowLogMax) throws(InputError) {
        try self.init(source: try FileByteSource(path: path), windowLogMax: windowLogMax)
    }

    deinit {
        ZSTD_freeDCtx(context)
        inputBuffer.deallocate()
    }

    /// Decompresses into `buffer`, filling it unless the stream ends.
    /// - Returns: the number of bytes written; 0 only at the clean end of the last frame.
    /// - Throws: `InputError` `.truncated`, `.corrupt`, or the source's error.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if let failure { throw failure }
        guard let outputBase = buffer.baseAddress, buffer.count > 0 else { return 0 }
        var output = ZSTD_outBuffer(dst: outputBase, size: buffer.count, pos: 0)
        while output.pos < output.size {
            if inputStart == inputEnd && !sourceExhausted {
                let count = try source.read(into: inputBuffer)
                if count == 0 {
                    sourceExhausted = true
                } else {
                    inputStart = 0
                    inputEnd = count
                    sawInput = true
                }
            }
            if inputStart == inputEnd && sourceExhausted && !outputMayBePending {
                // Hand over what this call decoded first; the next call reports the damage,
                // so a reader sees every complete line before the error.
                if output.pos > 0 { break }
                if !sawInput {
                    throw InputError(.truncated, file: path, message: "truncated zstd stream (the file is empty)")
                }
                if frameInProgress {
                    throw InputError(.truncated, file: path, message: "truncated zstd stream (the file ends inside a frame)")
                }
                break
            }
            var input = ZSTD_inBuffer(src: UnsafeRawPointer(inputBuffer.baseAddress! + inputStart),
                                      size: inputEnd - inputStart, pos: 0)
            let outputBefore = output.pos
            let result = ZSTD_decompressStream(context, &output, &input)
            inputStart += input.pos
            if ZSTD_isError(result) != 0 {
                let failure = InputError(.corrupt, file: path,
                                         message: "corrupt zstd data: \(String(cString: ZSTD_getErrorName(result)))")
                self.failure = failure
                throw failure
            }
            // 0 means a frame ended and everything decoded was flushed. A call that took no
            // input and gave no output says nothing new (after a frame it would merely ask
            // for the next header), so it must not make a finished stream look cut short.
            if input.pos > 0 || output.pos > outputBefore {
                frameInProgress = result != 0
            }
            outputMayBePending = output.pos == output.size
        }
        decompressedBytes += Int64(output.pos)
        if decompressedBytes > decompressedBytesMax {
            let failure = InputError(.corrupt, file: path,
                                     message: "decompresses to more than the limit of \(decompressedBytesMax >> 20) MiB for one input file")
            self.failure = failure
            throw failure
        }
        return output.pos
    }
}
