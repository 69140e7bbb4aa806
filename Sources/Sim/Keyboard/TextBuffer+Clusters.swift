// Grapheme clusters of `TextBuffer`: the safe places to cut the bytes for a Unicode question,
// the last characters, and cluster counts.

extension TextBuffer {
    /// Whether `offset` lies between two ASCII bytes that are not CR LF: a cluster boundary.
    @inline(__always) func isBoundaryBetweenASCII(_ offset: Int) -> Bool {
        let before = utf8[offset - 1], after = utf8[offset]
        return before < 0x80 && after < 0x80 && !(before == 0x0D && after == 0x0A)
    }

    /// The greatest cluster boundary at or before `offset` (< `utf8.count`) that holds
    /// whatever comes before it: 0, or a place between two ASCII bytes.
    func safeBoundary(atOrBefore offset: Int) -> Int {
        var p = offset
        while p > 0 && !isBoundaryBetweenASCII(p) { p -= 1 }
        return p
    }

    /// The least such boundary at or after `offset` (≥ 1), or the end of the text.
    func safeBoundary(atOrAfter offset: Int) -> Int {
        var p = offset
        while p < utf8.count && !isBoundaryBetweenASCII(p) { p += 1 }
        return p
    }

    /// The last character, if any.
    public var lastCharacter: Character? {
        guard !utf8.isEmpty else { return nil }
        if lastClusterStart == utf8.count - 1 && utf8[lastClusterStart] < 0x80 {
            return Character(Unicode.Scalar(utf8[lastClusterStart]))
        }
        return string(utf8: lastClusterStart..<utf8.count).first
    }

    /// The last character but one.
    public var characterBeforeLast: Character? {
        guard lastClusterStart > 0 else { return nil }
        let from = safeBoundary(atOrBefore: lastClusterStart - 1)
        return string(utf8: from..<lastClusterStart).last
    }

    /// Grapheme clusters in a UTF-8 range that starts and ends on cluster boundaries:
    /// counted byte by byte while the text is ASCII (only CR LF joins two ASCII bytes).
    /// O(range).
    public func characterCount(utf8 range: Range<Int>) -> Int {
        var clusters = 0
        var previous: UInt8 = 0
        for byte in utf8[range] {
            guard byte < 0x80 else { return string(utf8: range).count }
            if !(previous == 0x0D && byte == 0x0A) { clusters += 1 }
            previous = byte
        }
        return clusters
    }
}
