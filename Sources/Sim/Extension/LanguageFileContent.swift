/// The modelled content of a language file, so that checking a download's SHA-256 is a real
/// computation over the bytes on disk rather than a flag.
///
/// A language file of N bytes is modelled as blocks of `blockBytes` bytes, each block
/// stood in for by one 8-byte label derived from the language's name and the block's index
/// (SplitMix64 over FNV-1a of `"language-file/<language>"` plus the index). The digest of
/// the first `bytes` bytes is the SHA-256 of the labels of every block those bytes touch,
/// followed by `bytes` as a little-endian 64-bit integer. The stand-in is 1/512 of the
/// file's size (a 7.6 MiB file hashes 15.6 kB), which keeps verification cheap in debug
/// builds, and a partial file — fewer bytes under the right name — never has the digest of
/// the complete one.
public enum LanguageFileContent {
    /// Bytes of file content per 8-byte stand-in label.
    public static let blockBytes = 4096

    /// The SHA-256 (lower-case hex) of the first `bytes` bytes of `language`'s file. A pure
    /// function: replications look it up in their job's `SimulationCaches`.
    /// - Complexity: O(bytes / blockBytes)
    public static func digest(language: String, bytes: Int) -> String {
        precondition(bytes >= 0, "a file holds no negative number of bytes")
        let base = RandomStream.fnv1a64("language-file/\(language)")
        let blocks = (bytes + blockBytes - 1) / blockBytes
        var standIn: [UInt8] = []
        standIn.reserveCapacity(8 * blocks + 8)
        func append(_ word: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { standIn.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        for block in 0..<blocks { append(SplitMix64.mix(base &+ UInt64(block))) }
        append(UInt64(bytes))
        return SHA256.hex(standIn)
    }

    /// Whether `text` is 64 lower-case hex digits.
    public static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
