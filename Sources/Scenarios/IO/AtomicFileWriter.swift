/// Writes a file so that it appears whole or not at all.
///
/// Bytes go to `<path>.tmp-<pid>` next to the destination; `commit()` flushes them, syncs the
/// file to disk, renames it over `path` (an atomic step in POSIX) and syncs the directory. A
/// crash, a full disk or a thrown error before `commit()` therefore never leaves a
/// half-written `path`: the old file, if any, stays as it was. A writer released without
/// `commit()`, or one that failed, removes its temporary file.
///
/// A resource: owns the descriptor and a fixed write buffer. One writer per destination at a
/// time; two writers in the same process to the same path would share the temporary name.
///
///     let output = try AtomicFileWriter(path: "out/report.csv")
///     try output.write("replication,key_p99_ns\n")
///     try output.commit()
public final class AtomicFileWriter: ByteSink {
    private enum State {
        case open
        case committed
        case failed(InputError)
        case discarded
    }

    /// The destination, as named by the user.
    public let path: String
    /// The temporary file the bytes go to until `commit()`.
    public let temporaryPath: String
    /// The number of bytes accepted so far.
    public private(set) var byteCount: Int64 = 0

    /// The default size of the write buffer: small writes are gathered into one `write(2)`.
    public static let defaultBufferSize = 64 << 10

    private var descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private var bufferedCount = 0
    private var state = State.open

    /// Creates the temporary file for `path`, replacing a stale one left by an earlier
    /// process with the same id.
    /// - Parameters:
    ///   - path: the destination; its directory must exist.
    ///   - bufferSize: bytes gathered before a `write(2)`, 1 B...64 MiB.
    /// - Throws: `InputError` `.writeFailed` (or `.noSpace`) naming `path`.
    public init(path: String, bufferSize: Int = AtomicFileWriter.defaultBufferSize) throws(InputError) {
        precondition(bufferSize >= 1 && bufferSize <= 64 << 20, "bufferSize \(bufferSize) is outside 1...64 MiB")
        let temporaryPath = "\(path).tmp-\(SystemCalls.processID)"
        switch SystemCalls.createForWriting(temporaryPath) {
        case .success(let descriptor):
            self.descriptor = descriptor
        case .failure(let failure):
            throw InputError(failure.isNoSpace ? .noSpace : .writeFailed, file: path,
                             message: "cannot create temporary file \(temporaryPath): \(failure.description)")
        }
        self.path = path
        self.temporaryPath = temporaryPath
        self.buffer = .allocate(byteCount: bufferSize, alignment: 16)
    }

    /// Writes `data` to `path` atomically in one call.
    public static func write(_ data: [UInt8], to path: String) throws(InputError) {
        let writer = try AtomicFileWriter(path: path)
        try writer.write(data)
        try writer.commit()
    }

    /// Writes the UTF-8 bytes of `text` to `path` atomically in one call.
    public static func write(_ text: String, to path: String) throws(InputError) {
        let writer = try AtomicFileWriter(path: path)
        try writer.write(text)
        try writer.commit()
    }

    deinit {
        if case .open = state { abandon() }
        buffer.deallocate()
    }

    /// Appends `bytes` to the temporary file.
    /// - Throws: `InputError` `.noSpace` or `.writeFailed`; the temporary file is then
    ///   removed and every later call throws the same error.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        try checkOpen()
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        byteCount += Int64(bytes.count)
        if bufferedCount + bytes.count <= buffer.count {
            (buffer.baseAddress! + bufferedCount).copyMemory(from: source, byteCount: bytes.count)
            bufferedCount += bytes.count
            return
        }
        try flushBuffer()
        if bytes.count >= buffer.count {
            // Large writes go straight through rather than being copied chunk by chunk.
            try writeToDescriptor(bytes)
        } else {
            buffer.baseAddress!.copyMemory(from: source, byteCount: bytes.count)
            bufferedCount = bytes.count
        }
    }

    /// Makes the written bytes the content of `path`: flush, `fsync`, close, rename, and sync
    /// the directory.
    /// - Throws: `InputError` if any step fails; `path` is then unchanged and the temporary
    ///   file removed.
    public func commit() throws(InputError) {
        try checkOpen()
        try flushBuffer()
        if let failure = SystemCalls.sync(descriptor) {
            throw fail(failure, doing: "cannot sync to disk")
        }
        let closeFailure = SystemCalls.closeDescriptor(descriptor)
        descriptor = -1
        if let closeFailure {
            throw fail(closeFailure, doing: "cannot close")
        }
        if let failure = SystemCalls.renameFile(temporaryPath, to: path) {
            throw fail(failure, doing: "cannot rename \(temporaryPath) into place")
        }
        state = .committed
        // The data is safe in the file; syncing the directory makes the new name durable.
        if let failure = SystemCalls.syncParentDirectory(of: path) {
            throw InputError(.writeFailed, file: path, message: "cannot sync the directory: \(failure.description)")
        }
    }

    /// Gives up: closes and removes the temporary file, leaving `path` untouched. Does
    /// nothing after `commit()`.
    public func discard() {
        guard case .open = state else { return }
        abandon()
        state = .discarded
    }

    private func checkOpen() throws(InputError) {
        switch state {
        case .open: return
        case .failed(let failure): throw failure
        case .committed: preconditionFailure("AtomicFileWriter for \(path) used after commit()")
        case .discarded: preconditionFailure("AtomicFileWriter for \(path) used after discard()")
        }
    }

    private func flushBuffer() throws(InputError) {
        guard bufferedCount > 0 else { return }
        let pending = UnsafeRawBufferPointer(start: buffer.baseAddress, count: bufferedCount)
        bufferedCount = 0
        try writeToDescriptor(pending)
    }

    private func writeToDescriptor(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        if let failure = SystemCalls.writeAll(descriptor, bytes) {
            throw fail(failure, doing: "cannot write")
        }
    }

    /// Records `failure`, removes the temporary file and returns the error to throw.
    private func fail(_ failure: SystemCalls.Errno, doing action: String) -> InputError {
        let error = InputError(failure.isNoSpace ? .noSpace : .writeFailed, file: path,
                               message: "\(action): \(failure.description)")
        abandon()
        state = .failed(error)
        return error
    }

    private func abandon() {
        if descriptor >= 0 {
            SystemCalls.closeDescriptor(descriptor)
            descriptor = -1
        }
        SystemCalls.removeFile(temporaryPath)
    }
}
