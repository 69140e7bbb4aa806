/// What the cloud has seen of the text, or will see from the requests in flight: the cloud
/// client's own record, kept apart from the shared document.
///
/// It holds the text as it stood at the last send (cut back where a request never got
/// through) and the lowest offset any edit touched since, fed by every edit the router
/// hands out (`TextBuffer.lastEdit`). Before that offset the text and the view agree, so a
/// send compares only what changed: O(changed text), not O(text).
struct CloudView {
    /// The text the cloud has seen, as UTF-8.
    private(set) var seen: [UInt8] = []
    /// The lowest UTF-8 offset edited since the last send.
    private(set) var dirtyFromUTF8 = 0

    /// An edit landed: the text from its start on may differ from what the cloud saw.
    @inline(__always) mutating func follow(_ edit: TextEdit) {
        dirtyFromUTF8 = min(dirtyFromUTF8, edit.atUTF8)
    }

    /// The first UTF-8 offset before `end` where `text` differs from what the cloud saw
    /// (`end`, or the end of the view, when they agree that far).
    func firstDifference(in text: [UInt8], before end: Int) -> Int {
        let common = min(end, seen.count)
        var same = min(dirtyFromUTF8, common)
        while same < common && text[same] == seen[same] { same += 1 }
        return same
    }

    /// The text up to `end` is what the cloud sees now: the bytes from `same` (the first
    /// difference) on replace the view's.
    mutating func saw(_ text: [UInt8], from same: Int, to end: Int) {
        seen.removeSubrange(same...)
        seen.append(contentsOf: text[same..<end])
        dirtyFromUTF8 = text.count
    }

    /// A request from `offset` on never got through: the cloud forgets that text.
    mutating func forget(fromUTF8 offset: Int) {
        if offset < seen.count { seen.removeSubrange(offset...) }
    }

    /// A new field: the cloud needs to see none of the text it opens with.
    mutating func reset(to text: [UInt8]) {
        seen = text
        dirtyFromUTF8 = text.count
    }
}
