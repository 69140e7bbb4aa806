/// Bytes gathered in memory: a trace encoded to be hashed rather than written.
public final class MemoryByteSink: ByteSink {
    /// A name for error messages (writing to memory does not fail).
    public let path: String
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink, named `path` in messages.
    public init(path: String = "memory") { self.path = path }

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        self.bytes.append(contentsOf: bytes)
    }
}
