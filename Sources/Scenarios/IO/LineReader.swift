#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a text file line by line as raw UTF-8 bytes, decompressing `.zst` files on the fly.
///
/// A resource: owns its source (a file descriptor, perhaps a zstd stream) and one fixed
/// buffer of `chunkSize + lineLengthMax` bytes, so memory stays flat whatever the size of the
/// file. Each line is handed out in place, without copying:
///
///     let reader = try LineReader(path: "traces/session.jsonl.zst")
///     while let line = try reader.nextLine() {
///         try parser.parse(line.bytes, lineNumber: line.number)
///     }
///
/// Lines end at `"\n"`; a `"\r"` before it is dropped too, so CRLF files read like LF files.
/// A last line without a newline is still a line; an empty file has no lines. A UTF-8 byte
/// order mark at the very start of the file is skipped.
///
/// Errors name the file and, when known, the line (and byte column) like a compiler:
/// `traces/x.jsonl:12:7: error: invalid UTF-8 (byte 0xFF)`. A line that is too long or not
/// valid UTF-8 is reported and skipped: the next call goes on with the following line, so a
/// validator can report every bad line. A failure of the stream itself (read error,
/// truncated or corrupt zstd) ends the reading: every later call throws it again.
public final class LineReader {
    /// The default longest line, 1 MiB: far above any trace event, low enough that a binary
    /// file or a missing newline fails fast instead of filling memory.
    public static let defaultLineLengthMax = 1 << 20
    /// The default number of bytes asked of the source at a time.
    public static let defaultChunkSize = 256 << 10

    /// The file, as named by the user.
    public let path: String
    /// The longest line accepted, in bytes, not counting its `"\r\n"` or `"\n"`.
    public let lineLengthMax: Int
    /// Whether each line is checked to be valid UTF-8 before it is returned.
    public let validatesUTF8: Bool
    /// The 1-based number of the line most recently returned (or reported as bad); 0 before
    /// the first.
    public private(set) var lineNumber = 0

    private let source: any ByteSource
    private let chunkSize: Int
    private let buffer: UnsafeMutableRawBufferPointer
    private var base: UnsafeMutablePointer<UInt8>
    /// The unread bytes are `start..<end`; `scanFrom` is where the newline search resumes.
    private var start = 0
    private var end = 0
    private var scanFrom = 0
    private var sourceExhausted = false
    private var byteOrderMarkChecked = false
    /// Whether the rest of an over-long line is being thrown away.
    private var skippingLongLine = false
    private var failure: InputError?

    /// Opens `path`; a name ending in `.zst` is decompressed as zstd.
    /// - Parameters:
    ///   - lineLengthMax: the longest line accepted, 1 B...256 MiB.
    ///   - chunkSize: bytes read from the source at a time, 1 B...64 MiB.
    ///   - validatesUTF8: check every line (ASCII lines cost almost nothing); turn off only
    ///     when the consumer validates as it parses.
    /// - Throws: `InputError` `.noSuchFile` ("no such file") or `.unreadable`.
    public convenience init(path: String, lineLengthMax: Int = LineReader.defaultLineLengthMax,
                            chunkSize: Int = LineReader.defaultChunkSize, validatesUTF8: Bool = true) throws(InputError) {
        let file = try FileByteSource(path: path)
        let source: any ByteSource = path.hasSuffix(".zst") ? try ZstdDecompressor(source: file) : file
        self.init(source: source, lineLengthMax: lineLengthMax, chunkSize: chunkSize, validatesUTF8: validatesUTF8)
    }

    /// Reads lines from `source`, which yields uncompressed bytes.
    public init(source: any ByteSource, lineLengthMax: Int = LineReader.defaultLineLengthMax,
                chunkSize: Int = LineReader.defaultChunkSize, validatesUTF8: Bool = true) {
        precondition(lineLengthMax >= 1 && lineLengthMax <= 256 << 20, "lineLengthMax \(lineLengthMax) is outside 1...256 MiB")
        precondition(chunkSize >= 1 && chunkSize <= 64 << 20, "chunkSize \(chunkSize) is outside 1...64 MiB")
        self.source = source
        self.path = source.path
        self.lineLengthMax = lineLengthMax
        self.chunkSize = chunkSize
        self.validatesUTF8 = validatesUTF8
        // Room for one longest line with its "\r\n" plus one chunk: after compaction a read
        // of a whole chunk always fits behind a partial line.
        self.buffer = .allocate(byteCount: lineLengthMax + 2 + chunkSize, alignment: 64)
        self.base = buffer.baseAddress!.bindMemory(to: UInt8.self, capacity: buffer.count)
    }

    deinit {
        buffer.deallocate()
    }

    /// The size of the fixed line buffer, in bytes; it never grows.
    public var bufferCapacity: Int { buffer.count }

    /// Returns the next line without its line ending, or `nil` at the end of the input.
    ///
    /// The bytes live in the reader's buffer and stay valid only until the next call (or
    /// until the reader is released): copy what must outlive that.
    /// - Throws: `InputError` `.lineTooLong` or `.invalidUTF8` for one bad line (the next
    ///   call continues after it); `.truncated`, `.corrupt` or `.unreadable` for the stream,
    ///   with the number of the last line read.
    public func nextLine() throws(InputError) -> (number: Int, bytes: UnsafeBufferPointer<UInt8>)? {
        if let failure { throw failure }
        while true {
            if !byteOrderMarkChecked {
                if end - start < 3 && !sourceExhausted {
                    try fill()
                    continue
                }
                if end - start >= 3 && base[start] == 0xEF && base[start + 1] == 0xBB && base[start + 2] == 0xBF {
                    start += 3
                    scanFrom = start
                }
                byteOrderMarkChecked = true
            }
            if scanFrom < end, let found = memchr(base + scanFrom, Int32(UInt8(ascii: "\n")), end - scanFrom) {
                let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                let lineStart = start
                start = newline + 1
                scanFrom = start
                if skippingLongLine {
                    skippingLongLine = false
                    continue
                }
                return try deliver(from: lineStart, to: newline)
            }
            scanFrom = end
            if skippingLongLine {
                // Drop what was read of the long line; only its end matters.
                start = end
            } else if end - start > lineLengthMax + 1 {
                // Even if a "\r\n" came next, the line would be over the limit. One byte is
                // allowed over for a "\r" that may precede the newline.
                start = end
                skippingLongLine = true
                lineNumber += 1
                throw lineTooLong()
            }
            if sourceExhausted {
                guard start < end, !skippingLongLine else { return nil }
                let lineStart = start
                start = end
                return try deliver(from: lineStart, to: end)
            }
            try fill()
        }
    }

    /// Calls `body` with each remaining line's number and bytes (valid only during the call).
    /// - Throws: the reader's `InputError`s, or what `body` throws; either stops the loop.
    public func forEachLine(_ body: (_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        while let line = try nextLine() {
            try body(line.number, line.bytes)
        }
    }

    /// An error at the line most recently returned, for consumers that find a problem in
    /// its content: `path:line:column: error: message`.
    /// - Parameter column: the 1-based byte column, if known.
    public func error(_ message: String, column: Int? = nil, kind: InputError.Kind = .invalidContent) -> InputError {
        InputError(kind, file: path, line: lineNumber > 0 ? lineNumber : nil, column: column, message: message)
    }

    // MARK: - Private

    /// Numbers, checks and returns the line `lineStart..<lineEnd` (line ending included).
    @inline(__always)
    private func deliver(from lineStart: Int, to lineEnd: Int) throws(InputError) -> (number: Int, bytes: UnsafeBufferPointer<UInt8>) {
        var contentEnd = lineEnd
        if contentEnd > lineStart && base[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
        lineNumber += 1
        if contentEnd - lineStart > lineLengthMax { throw lineTooLong() }
        let bytes = UnsafeBufferPointer(start: base + lineStart, count: contentEnd - lineStart)
        if validatesUTF8, let offset = Self.validateUTF8(bytes) {
            throw InputError(.invalidUTF8, file: path, line: lineNumber, column: offset + 1,
                             message: "invalid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))")
        }
        return (lineNumber, bytes)
    }

    private func lineTooLong() -> InputError {
        InputError(.lineTooLong, file: path, line: lineNumber, column: lineLengthMax + 1,
                   message: "line is longer than the limit of \(lineLengthMax) bytes")
    }

    /// Reads more bytes behind `end`, first moving a partial line to the front if the space
    /// left is under one chunk.
    private func fill() throws(InputError) {
        if buffer.count - end < chunkSize {
            let pending = end - start
            if pending > 0 && start > 0 {
                // copyMemory is memmove: the regions may overlap.
                UnsafeMutableRawPointer(base).copyMemory(from: base + start, byteCount: pending)
            }
            scanFrom -= start
            start = 0
            end = pending
        }
        let free = UnsafeMutableRawBufferPointer(start: base + end, count: buffer.count - end)
        let count: Int
        do {
            count = try source.read(into: free)
        } catch {
            let located = error.line == nil && lineNumber > 0 ? error.at(line: lineNumber) : error
            failure = located
            throw located
        }
        if count == 0 { sourceExhausted = true } else { end += count }
    }
}
