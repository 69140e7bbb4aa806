/// Reads a whole stream into memory (a decompressed `.zst` input, say; a plain file reads
/// with `FileByteSource.readAll`), with a limit on its size.
enum WholeFile {
    /// Every byte `source` yields, for the file at `path`.
    /// - Throws: the source's `InputError`, or `.invalidContent` with `tooLarge` once more
    ///   than `bytesMax` bytes have been read.
    static func bytes(of source: any ByteSource, path: String, bytesMax: Int, tooLarge: String) throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = try source.read(into: chunk)
            if count == 0 { break }
            bytes += UnsafeRawBufferPointer(rebasing: chunk[0..<count])
            guard bytes.count <= bytesMax else {
                throw InputError(.invalidContent, file: path, message: tooLarge)
            }
        }
        return bytes
    }
}
