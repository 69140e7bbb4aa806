#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `close(2)`, under a name the class's own `close()` does not shadow.
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }

/// A file written only at its end, in whole lines: each `append` is one `write(2)` of
/// complete lines (retried after a short write), and a failed append cuts the file back to
/// where it was, so the file always ends with a complete line.
final class AppendOnlyFile {
    let path: String
    private var descriptor: Int32
    /// The length of the file after the last successful append.
    private var length: Int64 = 0

    /// Creates (or empties) the file at `path`.
    init(creating path: String) throws {
        self.path = path
        descriptor = -1
        while true {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
            if descriptor >= 0 { break }
            if errno != EINTR { throw TraceRecorderError.cannotOpen(path: path, reason: Self.describe(errno)) }
        }
    }

    deinit { close() }

    var isClosed: Bool { descriptor < 0 }

    /// Writes `bytes` (complete lines) at the end of the file.
    func append(_ bytes: [UInt8]) throws {
        guard descriptor >= 0 else { throw TraceRecorderError.closed }
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { return ENOSPC }
                offset += count
            }
            return nil
        }
        if let failure {
            // Drop the part of a line that did get written: the file stays a valid trace.
            _ = ftruncate(descriptor, off_t(length))
            throw TraceRecorderError.writeFailed(path: path, reason: Self.describe(failure))
        }
        length += Int64(bytes.count)
    }

    /// Asks the disk to store the file.
    func sync() throws {
        guard descriptor >= 0 else { return }
        while fsync(descriptor) != 0 {
            if errno != EINTR { throw TraceRecorderError.writeFailed(path: path, reason: Self.describe(errno)) }
        }
    }

    func close() {
        if descriptor >= 0 {
            _ = systemClose(descriptor)
            descriptor = -1
        }
    }

    /// Cuts the file at `path` after its last newline; returns the bytes removed.
    static func truncateToLastNewline(path: String) throws -> Int {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw TraceRecorderError.cannotOpen(path: path, reason: describe(errno)) }
        defer { _ = systemClose(descriptor) }
        let size = lseek(descriptor, 0, SEEK_END)
        guard size > 0 else { return 0 }
        // Read backwards in blocks until a newline is found.
        var end = Int64(size)
        var block = [UInt8](repeating: 0, count: 4096)
        while end > 0 {
            let start = max(0, end - Int64(block.count))
            let count = Int(end - start)
            let read = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, count, off_t(start)) }
            guard read == count else { throw TraceRecorderError.writeFailed(path: path, reason: describe(errno)) }
            if let newline = block[0..<count].lastIndex(of: 0x0A) {
                let keep = start + Int64(newline) + 1
                guard keep < Int64(size) else { return 0 }
                guard ftruncate(descriptor, off_t(keep)) == 0 else {
                    throw TraceRecorderError.writeFailed(path: path, reason: describe(errno))
                }
                return Int(Int64(size) - keep)
            }
            end = start
        }
        guard ftruncate(descriptor, 0) == 0 else { throw TraceRecorderError.writeFailed(path: path, reason: describe(errno)) }
        return Int(size)
    }

    static func describe(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}
