/// Whole-file reading for the calibration inputs that are not line-based (XML, MetricKit
/// JSON), with the same errors as the line readers.
enum CostFile {
    /// The largest input read whole: 512 MiB.
    static let bytesMax = 512 << 20

    /// The file's bytes (decompressed when the name ends in `.zst`).
    static func bytes(path: String) throws(InputError) -> [UInt8] {
        guard path.hasSuffix(".zst") else { return try FileByteSource.readAll(path: path, bytesMax: Int64(bytesMax)) }
        return try WholeFile.bytes(of: try ZstdDecompressor(source: try FileByteSource(path: path)), path: path, bytesMax: bytesMax,
                                   tooLarge: "larger than the \(bytesMax >> 20) MiB limit for one input")
    }

    /// The file as UTF-8 text.
    static func text(path: String) throws(InputError) -> String {
        let data = try bytes(path: path)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw InputError(.invalidUTF8, file: path, message: "not valid UTF-8 text")
        }
        return text
    }
}
