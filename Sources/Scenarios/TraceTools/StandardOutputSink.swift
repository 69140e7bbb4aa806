/// Bytes written straight to standard output with `write(2)`, for commands that print a
/// trace instead of writing a file. Callers gather lines into large chunks first.
public final class StandardOutputSink: ByteSink {
    /// "-": how a command line names standard output.
    public let path = "-"

    /// Creates the sink.
    public init() {}

    /// Writes all of `bytes` to descriptor 1.
    /// - Throws: `InputError` `.writeFailed` (a closed pipe, say) naming "-".
    public func write(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        if let failure = SystemCalls.writeAll(1, bytes) {
            throw InputError(failure.isNoSpace ? .noSpace : .writeFailed, file: "standard output",
                             message: "cannot write: \(failure.description)")
        }
    }
}
