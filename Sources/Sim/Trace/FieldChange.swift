/// A change of the text field the keyboard types into, as a `field` trace event records it.
///
/// A message app clears its field when a message is sent; the user can tap another text
/// field; a field can open with text already in it (a draft, a reply quoted above the
/// cursor). The keyboard sees each as the document under it changing at once, not as edits.
public struct FieldChange: Sendable, Equatable {
    /// What happened to the field. The wire name of each is its raw value.
    public enum Change: String, Sendable, Equatable, CaseIterable {
        /// The message was sent and the field emptied.
        case cleared
        /// Another text field got focus.
        case replaced
        /// A field opened with `text` before the cursor.
        case opened
    }

    /// What happened.
    public var change: Change
    /// The text before the cursor in the new field: meaningful for `opened` and `replaced`,
    /// empty for `cleared`.
    public var text: String
    /// The text the user means to type in the new field, when known (it decides which typed
    /// words of the field are errors).
    public var intendedText: String?

    /// Creates a field change.
    public init(_ change: Change, text: String = "", intendedText: String? = nil) {
        self.change = change
        self.text = text
        self.intendedText = intendedText
    }
}
