/// What a `JSONScanner` tells as it validates a document: containers opening and closing,
/// keys, and each value once it is complete, in document order.
///
/// The scanner is generic over its sink, so the calls a sink ignores are compiled away: the
/// trace line's `JSONMemberRecorder` costs no more than a scanner that records by itself. A
/// sink refuses a document by returning an error rather than throwing it, which keeps its
/// calls inlined into the scanner.
protocol JSONScanSink {
    /// An object or array starts at `offset`.
    mutating func opened(_ kind: JSONToken.Kind, at offset: Int)
    /// An object's key was read; its ':' and value come next. Returns an error to refuse it.
    mutating func key(_ key: JSONToken) -> JSONSyntaxError?
    /// A member of an object is complete. `depth` is the object's own (1 for the outermost).
    /// Returns an error to refuse it.
    mutating func member(_ key: JSONToken, _ value: JSONToken, depth: Int) -> JSONSyntaxError?
    /// An element of an array is complete.
    mutating func element(_ value: JSONToken)
    /// The object or array that opened last ends; `token` spans it.
    mutating func closed(_ token: JSONToken)
}

/// Records the members of the outermost object as (key, value) tokens and nothing else: the
/// sink of `JSONLineParser`.
struct JSONMemberRecorder: JSONScanSink {
    /// The most members accepted in the outermost object.
    static var membersMax: Int { 1024 }

    /// The members of the outermost object, in document order.
    var members: [JSONLineMember] = []

    @inline(__always) mutating func opened(_ kind: JSONToken.Kind, at offset: Int) {}
    @inline(__always) mutating func key(_ key: JSONToken) -> JSONSyntaxError? { nil }
    @inline(__always) mutating func element(_ value: JSONToken) {}
    @inline(__always) mutating func closed(_ token: JSONToken) {}

    @inline(__always)
    mutating func member(_ key: JSONToken, _ value: JSONToken, depth: Int) -> JSONSyntaxError? {
        guard depth == 1 else { return nil }
        guard members.count < Self.membersMax else {
            return JSONSyntaxError(offset: key.range.lowerBound, message: "more than \(Self.membersMax) fields in one object")
        }
        members.append(JSONLineMember(key: key, value: value))
        return nil
    }
}
