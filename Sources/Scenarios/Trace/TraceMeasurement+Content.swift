import Sim

extension TraceMeasurement {
    /// What a trace's random streams are keyed by: the bytes of the trace at `path` with
    /// every `measure` line left out, so that measurements added to a trace change no number
    /// of its replay. `nil` for a `.zst` trace without measurements, whose compressed bytes
    /// are hashed as they are; a compressed trace with measurements gives its decompressed
    /// bytes without them.
    ///
    /// A line counts as a measurement when it decodes as one; only lines that contain the
    /// bytes `"measure"` are decoded, so a trace without measurements costs one scan. A
    /// `.jsonl` trace keeps its other bytes exactly (line endings included), so it keys the
    /// same as the same file without its `measure` lines.
    /// - Throws: `InputError` when the file cannot be read.
    public static func replayContent(path: String) throws(InputError) -> [UInt8]? {
        if path.hasSuffix(".zst") {
            // Look first, in flat memory: most traces have no measurements.
            let lines = try LineReader(path: path, validatesUTF8: false)
            var found = false
            while !found, let (_, bytes) = try lines.nextLine() { found = isMeasurement(bytes) }
            guard found else { return nil }
            let decompressed = try WholeFile.bytes(of: try ZstdDecompressor(source: try FileByteSource(path: path)), path: path,
                                                   bytesMax: Int.max, tooLarge: "")
            return withoutMeasurements(decompressed) ?? decompressed
        }
        let bytes = try FileByteSource.readAll(path: path, bytesMax: FileByteSource.defaultBytesMax)
        return withoutMeasurements(bytes) ?? bytes
    }

    /// `bytes` without their measurement lines, or `nil` when there are none.
    static func withoutMeasurements(_ bytes: [UInt8]) -> [UInt8]? {
        var kept: [UInt8] = []
        var removed = false
        var start = 0
        bytes.withUnsafeBufferPointer { all in
            while start < all.count {
                var end = start
                while end < all.count && all[end] != 0x0A { end += 1 }
                let next = Swift.min(end + 1, all.count)
                let line = UnsafeBufferPointer(rebasing: all[start..<end])
                if start > 0 && isMeasurement(line) {
                    if !removed { kept.reserveCapacity(all.count); kept.append(contentsOf: all[0..<start]) }
                    removed = true
                } else if removed {
                    kept.append(contentsOf: all[start..<next])
                }
                start = next
            }
        }
        return removed ? kept : nil
    }

    /// The bytes every measurement line holds.
    private static let measureBytes = Array(#""measure""#.utf8)

    /// Whether a line (without its newline) is a `measure` line.
    static func isMeasurement(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let needle = measureBytes
        guard line.count >= needle.count else { return false }
        var found = false
        for i in 0...(line.count - needle.count) where line[i] == needle[0] {
            var match = true
            for j in 1..<needle.count where line[i + j] != needle[j] { match = false; break }
            if match { found = true; break }
        }
        guard found else { return false }
        var decoder = TraceLineDecoder()
        var trimmed = line
        if let last = trimmed.last, last == 0x0D { trimmed = UnsafeBufferPointer(rebasing: trimmed.dropLast()) }
        guard case .measurement? = try? decoder.decodeLine(trimmed) else { return false }
        return true
    }
}
