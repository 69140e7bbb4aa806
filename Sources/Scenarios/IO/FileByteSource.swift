/// The bytes of a regular file, read with `read(2)` straight into the caller's buffer, up to
/// a limit on the bytes read.
///
/// A resource: owns the file descriptor and closes it when released. Devices, pipes,
/// sockets and directories are refused at opening: `/dev/zero` as a trace would otherwise
/// be read without end.
public final class FileByteSource: ByteSource {
    /// The file, as named by the user.
    public let path: String
    /// The file's size when it was opened, in bytes.
    public let sizeBytes: Int64
    /// The most bytes read before `read(into:)` throws.
    public let bytesMax: Int64
    private let descriptor: Int32
    private var bytesRead: Int64 = 0

    /// The default limit on the bytes of one input file: 4 GiB, far above any trace (a day
    /// of typing is a few megabytes), so that a wrong path cannot make keysim read for hours.
    public static let defaultBytesMax: Int64 = 4 << 30

    /// Opens `path` for reading.
    /// - Throws: `InputError` `.noSuchFile` ("no such file") or `.unreadable` (permission
    ///   denied, a directory, a device or pipe, a file over `bytesMax`, another `open(2)` failure).
    public init(path: String, bytesMax: Int64 = FileByteSource.defaultBytesMax) throws(InputError) {
        switch SystemCalls.openForReading(path) {
        case .success(let descriptor):
            let (kind, size) = SystemCalls.nonRegularKind(descriptor)
            if let kind {
                SystemCalls.closeDescriptor(descriptor)
                throw InputError(.unreadable, file: path, message: kind == "directory" ? "is a directory, not a file"
                                 : "is a \(kind), not a regular file (keysim reads its inputs from regular files)")
            }
            if size > bytesMax {
                SystemCalls.closeDescriptor(descriptor)
                throw Self.tooLarge(path, bytesMax: bytesMax)
            }
            SystemCalls.adviseSequential(descriptor)
            self.descriptor = descriptor
            self.path = path
            self.sizeBytes = size
            self.bytesMax = bytesMax
        case .failure(let failure):
            throw Self.openError(failure, path: path)
        }
    }

    /// Every byte of the file at `path`, which must not be larger than `bytesMax`.
    public static func readAll(path: String, bytesMax: Int64) throws(InputError) -> [UInt8] {
        let source = try FileByteSource(path: path, bytesMax: bytesMax)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(source.sizeBytes))
        while true {
            let read = try source.read(into: chunk)
            if read == 0 { return bytes }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<read]))
        }
    }

    static func tooLarge(_ path: String, bytesMax: Int64) -> InputError {
        InputError(.unreadable, file: path, message: "is larger than the limit of \(bytesMax >> 20) MiB for one input file")
    }

    deinit {
        SystemCalls.closeDescriptor(descriptor)
    }

    /// Reads the next bytes of the file; 0 at its end.
    /// - Throws: `InputError` `.unreadable` if `read(2)` fails (EIO and the like).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        switch SystemCalls.readSome(descriptor, into: buffer) {
        case .success(let count):
            // A file that grows while it is read is held to the same limit.
            bytesRead += Int64(count)
            if bytesRead > bytesMax { throw Self.tooLarge(path, bytesMax: bytesMax) }
            return count
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
