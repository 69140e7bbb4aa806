/// A fixed set of short strings (enum labels, thread names) held as C strings for as long as
/// the table lives, so that rows can bind them without SQLite copying each one
/// (`SQLITE_STATIC`). Hot report paths repeat a handful of labels millions of times.
///
///     let kinds = StaticTexts(["key", "lookup", "draw"])
///     try statement.bind(kinds, 2, at: 5)   // binds "draw"
///
/// Immutable once made (its C strings are written by `init` and freed by `deinit` only), so
/// one table may serve every thread.
public final class StaticTexts: @unchecked Sendable {
    private let storage: [UnsafeMutablePointer<CChar>]
    private let lengths: [Int32]

    /// The strings, in the order their ordinals refer to.
    public let strings: [String]

    /// Copies `strings` into C strings.
    public init(_ strings: [String]) {
        self.strings = strings
        storage = strings.map { string in
            let bytes = Array(string.utf8CString)
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            pointer.initialize(from: bytes, count: bytes.count)
            return pointer
        }
        lengths = strings.map { Int32($0.utf8.count) }
    }

    deinit {
        for pointer in storage { pointer.deallocate() }
    }

    /// How many strings there are.
    public var count: Int { strings.count }

    /// The bytes of the string at `ordinal` (NUL-terminated) and their length without the NUL.
    @inline(__always)
    func bytes(_ ordinal: Int) -> (UnsafePointer<CChar>, Int32) {
        (UnsafePointer(storage[ordinal]), lengths[ordinal])
    }
}
