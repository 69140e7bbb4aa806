#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the POSIX calls the IO types share: retrying on `EINTR` and turning
/// `errno` into readable text. Internal: callers see `InputError`, never `errno`.
enum SystemCalls {
    /// An `errno` value, matched by family.
    struct Errno: Error, Equatable {
        /// The raw `errno`.
        let code: Int32
        /// The file or a directory on its path does not exist.
        var isNotFound: Bool { code == ENOENT || code == ENOTDIR }
        /// Permissions forbid the operation.
        var isPermissionDenied: Bool { code == EACCES || code == EPERM }
        /// The disk or the user's quota is full.
        var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }
        /// `strerror` text with the number, such as "No space left on device (errno 28)".
        var description: String { SystemCalls.describe(errno: code) }
    }

    /// `strerror` text with the number, such as "No space left on device (errno 28)".
    static func describe(errno code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// Opens `path` for reading; returns the descriptor or the `errno`.
    static func openForReading(_ path: String) -> Result<Int32, Errno> {
        while true {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 { return .success(descriptor) }
            let code = errno
            if code != EINTR { return .failure(Errno(code: code)) }
        }
    }

    /// Creates (or truncates) `path` for writing with mode 0644 less the umask.
    static func createForWriting(_ path: String) -> Result<Int32, Errno> {
        while true {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if descriptor >= 0 { return .success(descriptor) }
            let code = errno
            if code != EINTR { return .failure(Errno(code: code)) }
        }
    }

    /// Whether the open descriptor is a directory.
    /// What kind of file a descriptor is open on, in words, and its size; `nil` kind for a
    /// regular file.
    static func nonRegularKind(_ descriptor: Int32) -> (kind: String?, size: Int64) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return ("file whose kind cannot be read", 0) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return (nil, Int64(status.st_size))
        case S_IFDIR: return ("directory", 0)
        case S_IFCHR: return ("character device", 0)
        case S_IFBLK: return ("block device", 0)
        case S_IFIFO: return ("pipe", 0)
        case S_IFSOCK: return ("socket", 0)
        default: return ("special file", 0)
        }
    }

    /// What kind of file `path` names (following links), in words; `nil` for a regular file
    /// or a path that does not exist.
    static func nonRegularKind(atPath path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return nonRegularKind(descriptor).kind
    }

    static func isDirectory(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Tells the kernel the file will be read once from start to end, so it reads ahead
    /// generously and drops pages behind. A hint only: failures are ignored.
    static func adviseSequential(_ descriptor: Int32) {
        #if os(Linux)
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
        #endif
    }

    /// `read(2)` retried on `EINTR`: bytes read (0 at end of file) or the `errno`.
    static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .success(0) }
        while true {
            let count = read(descriptor, base, buffer.count)
            if count >= 0 { return .success(count) }
            let code = errno
            if code != EINTR { return .failure(Errno(code: code)) }
        }
    }

    /// Writes all of `buffer`, retrying on `EINTR` and short writes; `nil` or the `errno`.
    static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Errno? {
        guard var cursor = buffer.baseAddress else { return nil }
        var remaining = buffer.count
        while remaining > 0 {
            let count = write(descriptor, cursor, remaining)
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                return Errno(code: code)
            }
            // write(2) returning 0 for a non-zero request should not happen on a regular
            // file; treat it as a full disk rather than spinning forever.
            if count == 0 { return Errno(code: ENOSPC) }
            cursor += count
            remaining -= count
        }
        return nil
    }

    /// `fsync(2)` retried on `EINTR`; `nil` or the `errno`.
    static func sync(_ descriptor: Int32) -> Errno? {
        while fsync(descriptor) != 0 {
            let code = errno
            if code != EINTR { return Errno(code: code) }
        }
        return nil
    }

    /// `close(2)`; `nil` or the `errno`. Never retried: on Linux the descriptor is released
    /// even when close reports an error.
    @discardableResult
    static func closeDescriptor(_ descriptor: Int32) -> Errno? {
        close(descriptor) == 0 ? nil : Errno(code: errno)
    }

    /// `rename(2)`; `nil` or the `errno`.
    static func renameFile(_ source: String, to destination: String) -> Errno? {
        rename(source, destination) == 0 ? nil : Errno(code: errno)
    }

    /// `unlink(2)`, ignoring failures (used to clean up temporary files).
    static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// Syncs the directory holding `path`, so that a rename inside it survives a crash.
    /// `nil` or the `errno`; file systems that cannot sync directories (EINVAL) count as done.
    static func syncParentDirectory(of path: String) -> Errno? {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return Errno(code: errno) }
        defer { close(descriptor) }
        if let failure = sync(descriptor), failure.code != EINVAL { return failure }
        return nil
    }

    /// The process id, for temporary file names.
    static var processID: Int32 { getpid() }
}
