/// The bytes of a file, read with `read(2)` straight into the caller's buffer.
///
/// A resource: owns the file descriptor and closes it when released.
public final class FileByteSource: ByteSource {
    /// The file, as named by the user.
    public let path: String
    private let descriptor: Int32

    /// Opens `path` for reading.
    /// - Throws: `InputError` `.noSuchFile` ("no such file") or `.unreadable` (permission
    ///   denied, a directory, another `open(2)` failure).
    public init(path: String) throws(InputError) {
        switch SystemCalls.openForReading(path) {
        case .success(let descriptor):
            // Opening a directory read-only succeeds on Linux; reading it would fail later
            // with a vaguer message.
            if SystemCalls.isDirectory(descriptor) {
                SystemCalls.closeDescriptor(descriptor)
                throw InputError(.unreadable, file: path, message: "is a directory, not a file")
            }
            SystemCalls.adviseSequential(descriptor)
            self.descriptor = descriptor
            self.path = path
        case .failure(let failure):
            throw Self.openError(failure, path: path)
        }
    }

    deinit {
        SystemCalls.closeDescriptor(descriptor)
    }

    /// Reads the next bytes of the file; 0 at its end.
    /// - Throws: `InputError` `.unreadable` if `read(2)` fails (EIO and the like).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        switch SystemCalls.readSome(descriptor, into: buffer) {
        case .success(let count): return count
        case .failure(let failure):
            throw InputError(.unreadable, file: path, message: "cannot read: \(failure.description)")
        }
    }

    static func openError(_ failure: SystemCalls.Errno, path: String) -> InputError {
        if failure.isNotFound { return InputError(.noSuchFile, file: path, message: "no such file") }
        if failure.isPermissionDenied { return InputError(.unreadable, file: path, message: "permission denied") }
        return InputError(.unreadable, file: path, message: "cannot open: \(failure.description)")
    }
}
