/// A stream of bytes read in chunks: a file, or a decompressor over another source.
///
/// Sources are resources (they own descriptors or codec state), so the protocol is
/// class-bound; a source is read by one thread at a time.
public protocol ByteSource: AnyObject {
    /// The file the bytes come from, as named by the user, for error messages.
    var path: String { get }

    /// Reads up to `buffer.count` bytes into `buffer`.
    /// - Returns: the number of bytes read; 0 only at the end of the stream. Fewer than
    ///   `buffer.count` bytes does not mean the end.
    /// - Throws: `InputError` naming `path`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
}

/// A destination for bytes written in chunks: a file, or a compressor in front of another
/// sink.
public protocol ByteSink: AnyObject {
    /// The file the bytes go to, as named by the user, for error messages.
    var path: String { get }

    /// Writes all of `bytes`, or throws.
    /// - Throws: `InputError` (`.writeFailed`, `.noSpace`) naming `path`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(InputError)
}

extension ByteSink {
    /// Writes all of `bytes`, or throws.
    public func write(_ bytes: [UInt8]) throws(InputError) {
        // withUnsafeBytes rethrows untyped; carry the typed error out by hand.
        let failure: InputError? = bytes.withUnsafeBytes { (buffer) -> InputError? in
            do throws(InputError) { try write(buffer); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    /// Writes the UTF-8 bytes of `text`, or throws.
    public func write(_ text: String) throws(InputError) {
        var text = text
        let failure: InputError? = text.withUTF8 { (utf8) -> InputError? in
            do throws(InputError) { try write(UnsafeRawBufferPointer(utf8)); return nil } catch { return error }
        }
        if let failure { throw failure }
    }
}
