/// What the cloud has seen of the text, or will see from the requests in flight, as content:
/// its tokens (runs of non-white-space), in order. The cloud client's own record, kept apart
/// from the shared document.
///
/// Only a request changes it: a request replaces the tokens from its first one on with the
/// ones it carried, and a request that never got through makes it forget from its first
/// token on. A comparison that sends nothing changes nothing. White space is no token, so
/// white space alone never differs.
///
/// Comparing is O(changed text): the view remembers how many leading tokens of the text
/// agreed with it at the last comparison and the lowest offset any edit touched since (fed by
/// every edit the router hands out, `TextBuffer.lastEdit`); tokens wholly before that offset
/// are as they were, so a comparison starts at the first token an edit may have changed.
/// After an edit away from the end (which tokenizes the text again) it compares from the
/// first token: such edits are rare, and the comparison still costs only a byte compare a token.
struct CloudView {
    /// The seen tokens' bytes, one token after another.
    private var bytes: [UInt8] = []
    /// Where each seen token ends in `bytes`.
    private var ends: [Int] = []
    /// How many leading tokens of the text agreed with the view at the last comparison.
    private var agreed = 0
    /// The lowest UTF-8 offset of the text edited since the last comparison.
    private var dirtyFromUTF8 = 0

    /// The number of tokens seen.
    var count: Int { ends.count }

    /// The seen tokens, as text (for tests and invariants).
    var tokens: [String] {
        ends.indices.map { String(decoding: bytes[start(of: $0)..<ends[$0]], as: UTF8.self) }
    }

    /// An edit landed: tokens from the one it touched on may differ from what the cloud saw
    /// (any token, when the edit found the tokens again from the start).
    @inline(__always) mutating func follow(_ edit: TextEdit) {
        dirtyFromUTF8 = edit.retokenized ? 0 : min(dirtyFromUTF8, edit.atUTF8)
    }

    /// The first of the text's first `finished` tokens whose content differs from the
    /// view's, or `finished` when those tokens are the view's first ones (or all of them).
    func firstDifference(in text: TextBuffer, finishedTokens finished: Int) -> Int {
        // The first token whose range reaches the first edited byte: the ones before it are
        // as they were at the last comparison (an edit right after a token may extend it).
        let unedited = dirtyFromUTF8 == 0 ? 0 : text.tokenOrdinal(atOrAfterUTF8: dirtyFromUTF8 - 1)
        let limit = min(finished, ends.count)
        var ordinal = min(agreed, unedited, limit)
        while ordinal < limit, let range = text.tokenRange(ordinal),
              text.utf8[range].elementsEqual(bytes[start(of: ordinal)..<ends[ordinal]]) {
            ordinal += 1
        }
        return ordinal
    }

    /// The text was compared and nothing was sent: its first `agreeing` tokens are the
    /// view's; the view itself does not change.
    mutating func compared(agreeing: Int, text: TextBuffer) {
        agreed = agreeing
        dirtyFromUTF8 = text.utf8.count
    }

    /// A request carried the text's tokens `sent`, whose ranges (`text.tokenRange`) are
    /// `ranges`: the cloud's view is the text's tokens up to `sent.upperBound` (those before
    /// `sent` agreed already).
    mutating func saw(_ text: TextBuffer, tokens sent: Range<Int>, ranges: [Range<Int>?]) {
        precondition(ranges.count == sent.count, "one range a token sent")
        forget(fromToken: sent.lowerBound)
        // Room for all of it at once (a request after a long silence carries many tokens),
        // growing geometrically so that many small requests still cost amortised O(1).
        if let first = ranges.first ?? nil, let last = ranges.last ?? nil {
            Self.reserve(&bytes, room: last.upperBound - first.lowerBound)
            Self.reserve(&ends, room: sent.count)
        }
        for range in ranges {
            if let range { bytes.append(contentsOf: text.utf8[range]) }
            ends.append(bytes.count)
        }
        compared(agreeing: sent.upperBound, text: text)
    }

    /// A request whose first token was `ordinal` never got through: the cloud forgets the
    /// tokens from it on, so that the next request carries them again.
    mutating func forget(fromToken ordinal: Int) {
        guard ordinal < ends.count else { return }
        bytes.removeSubrange(start(of: ordinal)...)
        ends.removeSubrange(ordinal...)
        agreed = min(agreed, ordinal)
    }

    /// A new field: the text it opens with counts as seen (see `docs/models.md`).
    mutating func reset(to text: TextBuffer) {
        bytes = []
        ends = []
        for ordinal in 0..<text.wordCount {
            if let range = text.tokenRange(ordinal) { bytes.append(contentsOf: text.utf8[range]) }
            ends.append(bytes.count)
        }
        compared(agreeing: ends.count, text: text)
    }

    private func start(of ordinal: Int) -> Int { ordinal == 0 ? 0 : ends[ordinal - 1] }

    /// Makes room in `array` for `room` more elements, at least doubling when it grows.
    private static func reserve<Element>(_ array: inout [Element], room: Int) {
        let needed = array.count + room
        if needed > array.capacity { array.reserveCapacity(max(needed, 2 * array.capacity)) }
    }
}
