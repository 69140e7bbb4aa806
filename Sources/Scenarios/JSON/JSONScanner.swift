/// The limits every `JSONScanner` keeps, whatever its sink.
enum JSONScannerLimits {
    /// The deepest nesting of arrays and objects accepted (the outermost container counts
    /// as 1): deeper is refused rather than risking the stack.
    static var depthMax: Int { 64 }
}

/// The one JSON scanner of keysim: it validates a document in one pass over its UTF-8 bytes,
/// in strict JSON or in JSON5 (`JSONSyntax`), and tells its sink about every value as a token
/// (a kind and a byte range), so that what is built from the values is the sink's choice:
/// `JSONLineParser` records the members of a trace line as byte ranges and decodes nothing
/// (`JSONMemberRecorder`); `JSON5Parser` builds a `ConfigValue` tree with positions
/// (`JSONTreeBuilder`). The sink is a generic parameter, so a call it ignores costs nothing.
///
/// The structure (objects, arrays, nesting, the end of the document) is scanned once for both
/// syntaxes; strings, numbers and bare words have a scanner per syntax
/// (`JSONScanner+Strings`, `JSONScanner+Numbers`). Each syntax words its errors as its readers
/// always have: strict errors say "expected …, found …" about a byte, JSON5 errors say
/// "unexpected …" about a character. Errors carry a byte offset; the reader turns it into
/// its position.
struct JSONScanner<Sink: JSONScanSink> {
    /// The document.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The grammar.
    let syntax: JSONSyntax
    /// The offset of the next byte to read.
    var index = 0
    /// What hears about the values.
    var sink: Sink

    /// A scanner at the start of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, syntax: JSONSyntax, sink: Sink) {
        self.bytes = bytes
        self.syntax = syntax
        self.sink = sink
    }

    /// An error at `offset`.
    func fail(_ offset: Int, _ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, message: message)
    }

    /// The byte at `at` as strict errors name it: "'x'", "a space", "control character
    /// U+0009", "byte 0xE2", or "the end of the line".
    func found(_ at: Int) -> String {
        at < bytes.count ? JSONBytes.describe(bytes, at) : "the end of the line"
    }

    /// The character at `at` as JSON5 errors name it: "'x'", or "end of line" for a line break.
    func foundCharacter(_ at: Int) -> String {
        guard let (scalar, _) = JSONBytes.scalar(bytes, at) else { return JSONBytes.describe(bytes, at) }
        return scalar == "\n" ? "end of line" : "'\(scalar)'"
    }

    // MARK: Documents and trivia

    /// Scans exactly one value with only trivia (white space; in JSON5 comments too) around it.
    /// Returns the value's token; the sink has seen everything inside it.
    mutating func scanDocument() throws(JSONSyntaxError) -> JSONToken {
        try skipTrivia()
        let token = try scanValue(depth: 0)
        try expectEnd()
        return token
    }

    /// Checks that only trivia follows the value just scanned.
    mutating func expectEnd() throws(JSONSyntaxError) {
        try skipTrivia()
        guard index < bytes.count else { return }
        switch syntax {
        case .strict: throw fail(index, "unexpected \(found(index)) after the end of the value")
        case .json5: throw fail(index, "unexpected \(foundCharacter(index)) after the end of the document")
        }
    }

    /// Skips JSON's four white-space bytes.
    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Skips white space, and in JSON5 its other spaces and comments.
    @inline(__always)
    mutating func skipTrivia() throws(JSONSyntaxError) {
        skipWhitespace()
        if syntax == .json5 { try skipJSON5Trivia() }
    }

    /// JSON5's white space beyond JSON's (byte-order mark, no-break space, line and paragraph
    /// separators), `//` comments to the end of the line and `/* */` comments.
    private mutating func skipJSON5Trivia() throws(JSONSyntaxError) {
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
            } else if byte == JSONBytes.slash && next == JSONBytes.slash {
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            } else if byte == JSONBytes.slash && next == JSONBytes.asterisk {
                let opening = index
                index += 2
                while index < bytes.count
                        && !(bytes[index] == JSONBytes.asterisk && index + 1 < bytes.count && bytes[index + 1] == JSONBytes.slash) {
                    index += 1
                }
                guard index < bytes.count else {
                    throw fail(opening, "unterminated /* comment (no */ before the end of the file)")
                }
                index += 2
            } else {
                let length = JSONBytes.json5SpaceLength(bytes, index)
                guard length > 0 else { return }
                index += length
            }
        }
    }

    // MARK: Values

    /// Scans one value starting at `index` (no trivia before it); `depth` is the number of
    /// containers already open around it.
    mutating func scanValue(depth: Int) throws(JSONSyntaxError) -> JSONToken {
        guard index < bytes.count else {
            switch syntax {
            case .strict: throw fail(index, "expected a value, found the end of the line")
            case .json5: throw fail(index, "unexpected end of file, expected a value")
            }
        }
        switch bytes[index] {
        case JSONBytes.quote:
            return syntax == .strict ? try scanString() : try scanJSON5String()
        case JSONBytes.openBrace:
            return try scanObject(depth: depth + 1)
        case JSONBytes.openBracket:
            return try scanArray(depth: depth + 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return syntax == .strict ? try scanNumber() : try scanJSON5Number()
        default:
            return syntax == .strict ? try scanLiteral() : try scanJSON5Word()
        }
    }

    /// Opens the container whose bracket is at `index` (`depth` counts it), refusing it past
    /// the nesting limit; returns where it starts.
    @inline(__always)
    private mutating func open(_ kind: JSONToken.Kind, depth: Int) throws(JSONSyntaxError) -> Int {
        guard depth <= JSONScannerLimits.depthMax else {
            throw fail(index, "nesting deeper than \(JSONScannerLimits.depthMax) levels")
        }
        sink.opened(kind, at: index)
        index += 1
        return index - 1
    }

    /// Closes the container that started at `start` at its closing bracket, at `index`.
    @inline(__always)
    private mutating func close(_ kind: JSONToken.Kind, from start: Int) -> JSONToken {
        index += 1
        let token = JSONToken(kind: kind, range: start..<index, flag: false)
        sink.closed(token)
        return token
    }

    /// Scans an object whose '{' is at `index`; `depth` counts this object.
    mutating func scanObject(depth: Int) throws(JSONSyntaxError) -> JSONToken {
        let start = try open(.object, depth: depth)
        var isFirst = true
        while try scanToNextItem(JSONBytes.closeBrace, isFirst: &isFirst) {
            let key = try scanKey()
            if let refused = sink.key(key) { throw refused }
            try skipTrivia()
            guard index < bytes.count, bytes[index] == JSONBytes.colon else {
                switch syntax {
                case .strict: throw fail(index, "expected ':' after the key, found \(found(index))")
                case .json5: throw fail(index, "expected ':' after key '\(key.keyText(in: bytes))'")
                }
            }
            index += 1
            try skipTrivia()
            let value = try scanValue(depth: depth)
            if let refused = sink.member(key, value, depth: depth) { throw refused }
        }
        return close(.object, from: start)
    }

    /// Scans an array whose '[' is at `index`; `depth` counts this array.
    mutating func scanArray(depth: Int) throws(JSONSyntaxError) -> JSONToken {
        let start = try open(.array, depth: depth)
        var isFirst = true
        while try scanToNextItem(JSONBytes.closeBracket, isFirst: &isFirst) {
            if syntax == .json5, index == bytes.count { throw fail(index, "unexpected end of file inside an array") }
            sink.element(try scanValue(depth: depth))
        }
        return close(.array, from: start)
    }

    /// Moves to the next member or element of the container being scanned: `true` when one
    /// follows, `false` at the closing bracket `close` (which `close(_:from:)` consumes).
    /// Items are separated by commas; strict JSON allows the closing bracket only right after
    /// the opening one, JSON5 also after a trailing comma.
    @inline(__always)
    private mutating func scanToNextItem(_ close: UInt8, isFirst: inout Bool) throws(JSONSyntaxError) -> Bool {
        try skipTrivia()
        if isFirst {
            isFirst = false
            return !(index < bytes.count && bytes[index] == close)
        }
        guard index < bytes.count, bytes[index] == JSONBytes.comma else {
            if index < bytes.count, bytes[index] == close { return false }
            let (bracket, container) = close == JSONBytes.closeBrace ? ("'}'", "an object") : ("']'", "an array")
            switch syntax {
            case .strict: throw fail(index, "expected ',' or \(bracket), found \(found(index))")
            case .json5 where index < bytes.count: throw fail(index, "unexpected \(foundCharacter(index)), expected ',' or \(bracket)")
            case .json5: throw fail(index, "unexpected end of file inside \(container)")
            }
        }
        index += 1
        try skipTrivia()
        return !(syntax == .json5 && index < bytes.count && bytes[index] == close)
    }
}
