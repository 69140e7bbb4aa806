/// A JSON5 parser that keeps the line and column of every value.
///
/// Foundation's `JSONDecoder(allowsJSON5:)` reads the same files but reports a syntax
/// error without its position; scenario authors deserve `file:line:column`. Supports the
/// JSON5 features people use in config files: `//` and `/* */` comments, unquoted keys,
/// single-quoted strings, trailing commas, hexadecimal numbers, leading or trailing
/// decimal points, an explicit `+`, `Infinity` and `NaN`.
public struct JSON5Parser {
    /// A syntax error at a position.
    public struct SyntaxError: Error, Equatable, Sendable {
        /// 1-based line.
        public var line: Int
        /// 1-based column (in Unicode scalars).
        public var column: Int
        /// What is wrong.
        public var message: String
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    /// Nesting deeper than this is refused rather than risking the stack.
    private let depthMax = 64

    /// Parses a whole document: exactly one value, optionally surrounded by white space and comments.
    public static func parse(_ text: String) throws(SyntaxError) -> ConfigValue {
        var parser = JSON5Parser(text)
        try parser.skipTrivia()
        let value = try parser.parseValue()
        try parser.skipTrivia()
        if parser.index < parser.scalars.count {
            throw parser.error("unexpected \(parser.describe(parser.scalars[parser.index])) after the end of the document")
        }
        return value
    }

    private init(_ text: String) { scalars = Array(text.unicodeScalars) }

    private var column: Int { index - lineStart + 1 }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(line: line, column: column, message: message)
    }

    private func describe(_ scalar: Unicode.Scalar) -> String {
        scalar == "\n" ? "end of line" : "'\(scalar)'"
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func skipTrivia() throws(SyntaxError) {
        while let c = current {
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{FEFF}" || c == "\u{A0}" || c == "\u{2028}" || c == "\u{2029}" {
                advance()
            } else if c == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while let d = current, d != "\n" { advance() }
            } else if c == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                let opening = error("unterminated /* comment (no */ before the end of the file)")
                advance(); advance()
                while index < scalars.count, !(scalars[index] == "*" && index + 1 < scalars.count && scalars[index + 1] == "/") {
                    advance()
                }
                guard index < scalars.count else { throw opening }
                advance(); advance()
            } else {
                return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> ConfigValue {
        let startLine = line, startColumn = column
        guard let c = current else { throw error("unexpected end of file, expected a value") }
        let kind: ConfigValue.Kind
        switch c {
        case "{": kind = try parseObject()
        case "[": kind = try parseArray()
        case "\"", "'": kind = .string(try parseString())
        case "-", "+", ".", "0"..."9":
            let (number, exact) = try parseNumber()
            var value = ConfigValue(.number(number), line: startLine, column: startColumn)
            value.integerLiteral = exact
            return value
        default:
            let word = readIdentifier()
            switch word {
            case "true": kind = .bool(true)
            case "false": kind = .bool(false)
            case "null": kind = .null
            case "Infinity": kind = .number(.infinity)
            case "NaN": kind = .number(.nan)
            case "":
                throw error("unexpected \(describe(c)), expected a value")
            default:
                throw SyntaxError(line: startLine, column: startColumn,
                                  message: "unexpected word '\(word)', expected a value (strings need quotes)")
            }
        }
        return ConfigValue(kind, line: startLine, column: startColumn)
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > depthMax { throw error("nesting deeper than \(depthMax) levels") }
    }

    private mutating func parseObject() throws(SyntaxError) -> ConfigValue.Kind {
        try enter()
        advance() // {
        var members: [ConfigValue.Member] = []
        while true {
            try skipTrivia()
            guard let c = current else { throw error("unexpected end of file inside an object") }
            if c == "}" { advance(); break }
            let keyLine = line, keyColumn = column
            let key: String
            if c == "\"" || c == "'" {
                key = try parseString()
            } else {
                key = readIdentifier()
                if key.isEmpty { throw error("unexpected \(describe(c)), expected a key or '}'") }
            }
            if members.contains(where: { $0.key == key }) {
                throw SyntaxError(line: keyLine, column: keyColumn, message: "duplicate key '\(key)'")
            }
            try skipTrivia()
            guard current == ":" else { throw error("expected ':' after key '\(key)'") }
            advance()
            try skipTrivia()
            members.append(ConfigValue.Member(key: key, value: try parseValue()))
            try skipTrivia()
            if current == "," { advance(); continue }
            if current == "}" { advance(); break }
            if let c = current { throw error("unexpected \(describe(c)), expected ',' or '}'") }
            throw error("unexpected end of file inside an object")
        }
        depth -= 1
        return .object(members)
    }

    private mutating func parseArray() throws(SyntaxError) -> ConfigValue.Kind {
        try enter()
        advance() // [
        var elements: [ConfigValue] = []
        while true {
            try skipTrivia()
            guard let c = current else { throw error("unexpected end of file inside an array") }
            if c == "]" { advance(); break }
            elements.append(try parseValue())
            try skipTrivia()
            if current == "," { advance(); continue }
            if current == "]" { advance(); break }
            if let c = current { throw error("unexpected \(describe(c)), expected ',' or ']'") }
            throw error("unexpected end of file inside an array")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func readIdentifier() -> String {
        var word = String.UnicodeScalarView()
        while let c = current, c == "_" || c == "$" || c.properties.isAlphabetic || ("0"..."9").contains(c) {
            word.append(c)
            advance()
        }
        return String(word)
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        let quote = current!
        advance()
        var out = String.UnicodeScalarView()
        while true {
            guard let c = current else { throw error("unterminated string") }
            if c == quote { advance(); break }
            if c == "\n" { throw error("unterminated string (use \\n for a line break)") }
            if c == "\\" {
                advance()
                guard let e = current else { throw error("unterminated string") }
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "b": out.append("\u{8}")
                case "f": out.append("\u{C}")
                case "v": out.append("\u{B}")
                case "0":
                    if index + 1 < scalars.count, ("0"..."9").contains(scalars[index + 1]) {
                        throw error("invalid escape \\0 followed by a digit (octal escapes are not JSON5)")
                    }
                    out.append("\u{0}")
                case "1"..."9": throw error("invalid escape \\\(e) (octal escapes are not JSON5)")
                case "\n", "\u{2028}", "\u{2029}": break // line continuation
                case "\r":
                    // Line continuation across "\r\n".
                    if index + 1 < scalars.count, scalars[index + 1] == "\n" { advance() }
                case "x":
                    advance()
                    out.append(Unicode.Scalar(UInt8(try readHex(2, after: "x"))))
                    continue
                case "u":
                    advance()
                    let scalar = try parseUnicodeEscape()
                    out.append(scalar)
                    continue
                default: out.append(e)
                }
                advance()
                continue
            }
            out.append(c)
            advance()
        }
        return String(out)
    }

    private mutating func readHex4() throws(SyntaxError) -> UInt32 { try readHex(4, after: "u") }

    /// `count` hexadecimal digits (2 after `\x`, 4 after `\u`) as a number.
    private mutating func readHex(_ count: Int, after escape: String) throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let c = current, let digit = Self.hexValue(c) else {
                throw error("expected \(count == 2 ? "two" : "four") hexadecimal digits after \\\(escape)")
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(SyntaxError) -> Unicode.Scalar {
        let high = try readHex4()
        if (0xD800..<0xDC00).contains(high) {
            guard current == "\\", index + 1 < scalars.count, scalars[index + 1] == "u" else {
                throw error("unpaired surrogate \\u\(String(high, radix: 16))")
            }
            advance(); advance()
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate") }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("invalid escape \\u\(String(high, radix: 16))") }
        return scalar
    }

    private static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": c.value - 48
        case "a"..."f": c.value - 87
        case "A"..."F": c.value - 55
        default: nil
        }
    }

    /// A number, and its exact value when it is written as a decimal integer that fits an
    /// `Int64` (a seed above 2^53 has no exact `Double`).
    private mutating func parseNumber() throws(SyntaxError) -> (Double, Int64?) {
        let startColumn = column
        var text = ""
        var sign = 1.0
        if current == "+" || current == "-" {
            if current == "-" { sign = -1 }
            advance()
        }
        if current == "I" || current == "N" {
            let word = readIdentifier()
            if word == "Infinity" { return (sign * .infinity, nil) }
            if word == "NaN" { return (.nan, nil) }
            throw SyntaxError(line: line, column: startColumn, message: "invalid number")
        }
        if current == "0", index + 1 < scalars.count, scalars[index + 1] == "x" || scalars[index + 1] == "X" {
            advance(); advance()
            var value: UInt64 = 0
            var digits = 0
            while let c = current, let d = Self.hexValue(c) {
                value = value &* 16 &+ UInt64(d)
                digits += 1
                advance()
            }
            if digits == 0 || digits > 15 { throw SyntaxError(line: line, column: startColumn, message: "invalid hexadecimal number") }
            return (sign * Double(value), nil)
        }
        while let c = current, ("0"..."9").contains(c) || c == "." || c == "e" || c == "E"
                || ((c == "+" || c == "-") && (text.last == "e" || text.last == "E")) {
            text.unicodeScalars.append(c)
            advance()
        }
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasSuffix(".") { text += "0" }
        if let dot = text.firstIndex(of: "."), text.index(after: dot) < text.endIndex,
           text[text.index(after: dot)] == "e" || text[text.index(after: dot)] == "E" {
            text.insert("0", at: text.index(after: dot))
        }
        guard !text.isEmpty, let value = Double(text) else {
            throw SyntaxError(line: line, column: startColumn, message: "invalid number '\(text)'")
        }
        let exact = text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } ? Int64(sign < 0 ? "-" + text : text) : nil
        return (sign * value, exact)
    }
}
