import XCTest
@testable import Scenarios

/// The one-line JSON parser behind trace reading: grammar, escapes, numbers, errors, limits.
final class JSONLineTests: XCTestCase {
    // MARK: Helpers

    private func parse(_ bytes: [UInt8]) throws(JSONLineError) -> ConfigValue {
        let result: Result<ConfigValue, JSONLineError> = bytes.withUnsafeBufferPointer { line in
            Result { () throws(JSONLineError) in try JSONLineParser.parseValue(line) }
        }
        return try result.get()
    }

    private func parse(_ text: String) throws(JSONLineError) -> ConfigValue {
        try parse(Array(text.utf8))
    }

    /// A tree as compact JSON, to compare containers without their positions.
    private func text(_ value: ConfigValue) -> String {
        var writer = JSONWriter()
        writer.value(value)
        return writer.text
    }

    /// The error for `bytes`, failing the test when it parses.
    private func parseError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> JSONLineError? {
        do {
            let value = try parse(bytes)
            XCTFail("expected an error, parsed \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func assertError(_ text: String, column: Int, _ message: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        assertError(Array(text.utf8), column: column, message, file: file, line: line)
    }

    private func assertError(_ bytes: [UInt8], column: Int, _ message: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let error = parseError(bytes, file: file, line: line)
        XCTAssertEqual(error, JSONLineError(column: column, message: message), file: file, line: line)
    }

    /// Runs `body` with the first member value token of a parsed one-line object.
    private func withToken<R>(_ json: String, _ body: (JSONToken, UnsafeBufferPointer<UInt8>) -> R) throws -> R {
        var parser = JSONLineParser()
        let bytes = Array(json.utf8)
        return try bytes.withUnsafeBufferPointer { line in
            try parser.parseObject(line)
            return body(parser.members[0].value, line)
        }
    }

    private func number(_ text: String) throws -> Double {
        try withToken("{\"n\":\(text)}") { token, line in token.double(in: line) }
    }

    private func scaled(_ text: String, shift: Int = 6, max: Int64 = .max) throws -> Int64? {
        try withToken("{\"n\":\(text)}") { token, line in
            token.scaledInteger(decimalShift: shift, magnitudeMax: max, in: line)
        }
    }

    private func integer(_ text: String) throws -> Int? {
        try withToken("{\"n\":\(text)}") { token, line in token.integer(in: line) }
    }

    // MARK: Values

    func testScalars() throws {
        XCTAssertEqual(try parse("null").kind, .null)
        XCTAssertEqual(try parse("true").kind, .bool(true))
        XCTAssertEqual(try parse("false").kind, .bool(false))
        XCTAssertEqual(try parse("0").kind, .number(0))
        XCTAssertEqual(try parse("0").integerLiteral, 0)
        XCTAssertEqual(try parse("-12.5e1").kind, .number(-125))
        XCTAssertNil(try parse("-12.5e1").integerLiteral)
        XCTAssertEqual(try parse("9007199254740993").integerLiteral, 9_007_199_254_740_993)
        XCTAssertEqual(try parse("\"hi\"").kind, .string("hi"))
        XCTAssertEqual(try parse(" \t\r\n 42 \r\n").kind, .number(42))
    }

    func testNestedContainers() throws {
        let value = try parse(#"{"a":[1,{"b":null},[],{}],"c":{"d":[true,false,"x"]},"e":2}"#)
        XCTAssertEqual(text(value), #"{"a":[1,{"b":null},[],{}],"c":{"d":[true,false,"x"]},"e":2}"#)
        XCTAssertEqual(text(try parse("[ 1 , [ 2 , [ 3 ] ] ]")), "[1,[2,[3]]]")
    }

    func testTreesKeepPositionsInScalarsAndRefuseDuplicateKeys() throws {
        let value = try parse(#"{"é":"ü","b":[1, {"c":true}]}"#)
        XCTAssertEqual([value.line, value.column], [1, 1])
        XCTAssertEqual(value["é"]?.column, 6, "columns count Unicode scalars, not bytes")
        XCTAssertEqual(value["b"]?.column, 14)
        guard case .array(let elements)? = value["b"]?.kind else { return XCTFail("b") }
        XCTAssertEqual(elements.map(\.column), [15, 18])
        assertError(#"{"a":1,"b":{"c":2,"c":3}}"#, column: 19, "duplicate key 'c'")
    }

    func testStringEscapes() throws {
        XCTAssertEqual(try parse(#""\"\\\/\b\f\n\r\t""#).kind, .string("\"\\/\u{8}\u{C}\n\r\t"))
        XCTAssertEqual(try parse(#""\u0041\u00e9\u0416\u20AC""#).kind, .string("AéЖ€"))
        XCTAssertEqual(try parse(#""a\u0000b""#).kind, .string("a\u{0}b"))
        // Surrogate pairs: 👍 U+1F44D and the highest scalar U+10FFFF.
        XCTAssertEqual(try parse(#""\ud83d\udc4d \uDBFF\uDFFF""#).kind, .string("👍 \u{10FFFF}"))
        // Raw UTF-8 is kept as is, escapes and raw text mix.
        XCTAssertEqual(try parse(#""👩‍👩‍👧 \u0435 привет""#).kind, .string("👩‍👩‍👧 е привет"))
    }

    func testEscapedKeysDecode() throws {
        XCTAssertEqual(try parse(#"{"\u0074":1}"#)["t"]?.kind, .number(1))
    }

    // MARK: Numbers

    func testNumbersAreCorrectlyRounded() throws {
        let cases: [String] = [
            "0", "-0", "1", "-1", "12.5", "0.1", "0.3", "1e22", "1e23", "9007199254740993",
            "123456789012345678901234567890", "2.2250738585072014e-308", "4.9e-324", "5e-324",
            "1.7976931348623157e308", "0.000001", "1E+2", "1e-2", "123.456e-5", "0.0000000000000000000001",
            "179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000"
                + "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                + "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                + "000000000000000000000000000000000000",
        ]
        for text in cases {
            XCTAssertEqual(try number(text), Double(text)!, text)
        }
        XCTAssertEqual(try number("-0").sign, .minus)
        XCTAssertEqual(try number("1e400"), .infinity)
        XCTAssertEqual(try number("-1e400"), -.infinity)
        XCTAssertEqual(try number("1e-400"), 0)
    }

    /// Every finite double written in Swift's shortest form parses back to itself.
    func testRandomDoublesRoundTrip() throws {
        for seed: UInt64 in 1...5 {
            var random = SplitMix64(seed: seed)
            for _ in 0..<2_000 {
                let value = Double(bitPattern: random.next())
                guard value.isFinite else { continue }
                XCTAssertEqual(try number(value.description), value, "seed \(seed): \(value)")
                let decimal = Double(Int64(bitPattern: random.next()) % 10_000_000) / 100
                XCTAssertEqual(try number(decimal.description), decimal, "seed \(seed): \(decimal)")
            }
        }
    }

    func testScaledIntegerIsExact() throws {
        XCTAssertEqual(try scaled("123.5"), 123_500_000)
        XCTAssertEqual(try scaled("0"), 0)
        XCTAssertEqual(try scaled("-0.0"), 0)
        XCTAssertEqual(try scaled("1000"), 1_000_000_000)
        XCTAssertEqual(try scaled("0.000001"), 1)
        XCTAssertEqual(try scaled("123.456789"), 123_456_789)
        XCTAssertEqual(try scaled("1e3"), 1_000_000_000)
        XCTAssertEqual(try scaled("1.5E-3"), 1_500)
        XCTAssertEqual(try scaled("15e-1"), 1_500_000)
        XCTAssertEqual(try scaled("0.0000005"), 1, "half rounds away from zero")
        XCTAssertEqual(try scaled("0.00000049999"), 0)
        XCTAssertEqual(try scaled("0.0000004"), 0)
        XCTAssertEqual(try scaled("-0.0000025"), -3, "half rounds away from zero")
        XCTAssertEqual(try scaled("2.0000014999"), 2_000_001)
        XCTAssertEqual(try scaled("9007199254.740992", max: 1 << 53), 1 << 53)
        XCTAssertNil(try scaled("9007199254.740993", max: 1 << 53))
        XCTAssertEqual(try scaled("9223372036854.775807"), .max)
        XCTAssertNil(try scaled("9223372036854.775808"))
        XCTAssertNil(try scaled("1e30"))
        XCTAssertNil(try scaled("100000000000000000000000000000000"))
        XCTAssertEqual(try scaled("0e999999999"), 0)
        XCTAssertEqual(try scaled("1e-99999999999"), 0)
        XCTAssertEqual(try scaled("0.00000000000000000000000000001e28"), 100_000)
        XCTAssertEqual(try scaled("7", shift: 0), 7)
        XCTAssertEqual(try scaled("7.5", shift: 0), 8)
    }

    func testIntegers() throws {
        XCTAssertEqual(try integer("0"), 0)
        XCTAssertEqual(try integer("-17"), -17)
        XCTAssertEqual(try integer("9223372036854775807"), .max)
        XCTAssertEqual(try integer("-9223372036854775808"), .min)
        XCTAssertNil(try integer("9223372036854775808"))
        XCTAssertNil(try integer("-9223372036854775809"))
        XCTAssertNil(try integer("1.0"), "a fraction is not an integer")
        XCTAssertNil(try integer("1e2"), "an exponent is not an integer")
    }

    // MARK: Top-level objects

    func testParseObjectRecordsMembersAndReusesStorage() throws {
        var parser = JSONLineParser()
        let first = Array(#"{"t":1.5,"type":"key","x":[1,2],"o":{"p":"q"},"n":null,"b":true}"#.utf8)
        try first.withUnsafeBufferPointer { line in
            try parser.parseObject(line)
            XCTAssertEqual(parser.members.map { $0.key.string(in: line) }, ["t", "type", "x", "o", "n", "b"])
            XCTAssertEqual(parser.members.map(\.value.kind), [.number, .string, .array, .object, .null, .bool])
            XCTAssertEqual(parser.members[0].value.column, 6)
            XCTAssertEqual(parser.members[1].value.sourceText(in: line), "\"key\"")
            XCTAssertTrue(parser.members[1].value.isUnescapedString("key", in: line))
            XCTAssertFalse(parser.members[1].value.isUnescapedString("ke", in: line))
            XCTAssertEqual(text(try parser.members[2].value.value(in: line)), "[1,2]")
            XCTAssertEqual(text(try parser.members[3].value.value(in: line)), #"{"p":"q"}"#)
            XCTAssertEqual(try parser.members[3].value.value(in: line).column, 37, "positioned in the whole line")
            XCTAssertEqual(try parser.members[5].value.value(in: line).kind, .bool(true))
        }
        let second = Array(#"  { }  "#.utf8)
        try second.withUnsafeBufferPointer { line in
            try parser.parseObject(line)
            XCTAssertTrue(parser.members.isEmpty, "members of the previous line are cleared")
        }
    }

    func testParseObjectRejectsOtherValues() {
        var parser = JSONLineParser()
        for (text, column, message) in [
            ("[1]", 1, "expected '{', found '['"),
            ("  \"x\"", 3, "expected '{', found '\"'"),
            ("   ", 4, "expected '{', found the end of the line"),
            ("{} {}", 4, "unexpected '{' after the end of the value"),
        ] {
            let bytes = Array(text.utf8)
            XCTAssertThrowsError(try bytes.withUnsafeBufferPointer { try parser.parseObject($0) }, text) { error in
                XCTAssertEqual(error as? JSONLineError, JSONLineError(column: column, message: message), text)
            }
        }
    }

    func testMemberLimit() throws {
        var parser = JSONLineParser()
        let fits = "{" + (0..<JSONLineParser.maxMembers).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
        try Array(fits.utf8).withUnsafeBufferPointer { try parser.parseObject($0) }
        XCTAssertEqual(parser.members.count, JSONLineParser.maxMembers)
        let tooMany = "{" + (0...JSONLineParser.maxMembers).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
        let lastKeyColumn = tooMany.utf8.count - "\"k1024\":0}".utf8.count + 1
        XCTAssertThrowsError(try Array(tooMany.utf8).withUnsafeBufferPointer { try parser.parseObject($0) }) { error in
            XCTAssertEqual(error as? JSONLineError,
                           JSONLineError(column: lastKeyColumn, message: "more than 1024 fields in one object"))
        }
    }

    func testDepthLimit() throws {
        let deepest = String(repeating: "[", count: JSONLineParser.maxDepth) + String(repeating: "]", count: JSONLineParser.maxDepth)
        XCTAssertNoThrow(try parse(deepest))
        let tooDeep = "[" + deepest + "]"
        assertError(tooDeep, column: JSONLineParser.maxDepth + 1, "nesting deeper than 64 levels")
        let objects = String(repeating: "{\"a\":", count: JSONLineParser.maxDepth + 1) + "1" + String(repeating: "}", count: JSONLineParser.maxDepth + 1)
        assertError(objects, column: 5 * JSONLineParser.maxDepth + 1, "nesting deeper than 64 levels")
    }

    // MARK: Errors and their columns

    func testSyntaxErrors() {
        assertError("", column: 1, "expected a value, found the end of the line")
        assertError("{", column: 2, "expected a string key, found the end of the line")
        assertError("{\"a\" 1}", column: 6, "expected ':' after the key, found '1'")
        assertError("{\"a\":}", column: 6, "expected a value, found '}'")
        assertError("{\"a\":1", column: 7, "expected ',' or '}', found the end of the line")
        assertError("{\"a\":1 \"b\":2}", column: 8, "expected ',' or '}', found '\"'")
        assertError("{\"a\":1,}", column: 8, "expected a string key, found '}'")
        assertError("{a:1}", column: 2, "expected a string key, found 'a'")
        assertError("[1,]", column: 4, "expected a value, found ']'")
        assertError("[1 2]", column: 4, "expected ',' or ']', found '2'")
        assertError("[1", column: 3, "expected ',' or ']', found the end of the line")
        assertError("tru", column: 1, "invalid literal, expected 'true'")
        assertError("nul1", column: 1, "invalid literal, expected 'null'")
        assertError("[falsy]", column: 2, "invalid literal, expected 'false'")
        assertError("true false", column: 6, "unexpected 'f' after the end of the value")
        assertError("NaN", column: 1, "expected a value, found 'N'")
        assertError("'a'", column: 1, "expected a value, found '''")
        assertError("[ \u{1}]", column: 3, "expected a value, found control character U+0001")
    }

    func testNumberErrors() {
        assertError("-", column: 2, "expected a digit after '-', found the end of the line")
        assertError("-a", column: 2, "expected a digit after '-', found 'a'")
        assertError("012", column: 1, "leading zeros are not allowed in numbers")
        assertError("[1, -05]", column: 5, "leading zeros are not allowed in numbers")
        assertError("1.", column: 3, "expected a digit after '.', found the end of the line")
        assertError("1.e5", column: 3, "expected a digit after '.', found 'e'")
        assertError("1e", column: 3, "expected a digit in the exponent, found the end of the line")
        assertError("1e+", column: 4, "expected a digit in the exponent, found the end of the line")
        assertError("1E-x", column: 4, "expected a digit in the exponent, found 'x'")
        assertError("+1", column: 1, "expected a value, found '+'")
        assertError(".5", column: 1, "expected a value, found '.'")
        assertError("1.5.2", column: 4, "unexpected '.' after the end of the value")
    }

    func testStringErrors() {
        assertError("\"abc", column: 1, "unterminated string")
        assertError("{\"a\":\"b\\\"}", column: 6, "unterminated string")
        assertError("\"a\\", column: 1, "unterminated string")
        assertError("\"a\\x\"", column: 3, "invalid escape '\\x'")
        assertError("\"a\\'\"", column: 3, "invalid escape '\\''")
        assertError("\"\\u12\"", column: 2, "invalid \\u escape: expected 4 hexadecimal digits")
        assertError("\"\\u12G4\"", column: 2, "invalid \\u escape: expected 4 hexadecimal digits")
        assertError("\"ab\\uD83D\"", column: 4,
                    "unpaired surrogate \\uD83D (a high surrogate must be followed by a \\u escape of a low surrogate)")
        assertError("\"\\uD83D\\u0041\"", column: 2,
                    "unpaired surrogate \\uD83D (a high surrogate must be followed by a \\u escape of a low surrogate)")
        assertError("\"\\uD83Dx\"", column: 2,
                    "unpaired surrogate \\uD83D (a high surrogate must be followed by a \\u escape of a low surrogate)")
        assertError("\"\\uDC4D\"", column: 2,
                    "unpaired surrogate \\uDC4D (a low surrogate must follow a high surrogate)")
        assertError("\"a\tb\"", column: 3, "control character U+0009 must be escaped in a string")
        assertError("\"a\nb\"", column: 3, "control character U+000A must be escaped in a string")
        assertError([0x22, 0x61, 0x00, 0x22], column: 3, "control character U+0000 must be escaped in a string")
    }

    func testInvalidUTF8() {
        let quote: UInt8 = 0x22
        assertError([quote, 0x61, 0xFF, quote], column: 3, "invalid UTF-8 (byte 0xFF)")
        assertError([quote, 0xC0, 0x80, quote], column: 2, "invalid UTF-8 (byte 0xC0)") // overlong NUL
        assertError([quote, 0xE0, 0x80, 0x80, quote], column: 2, "invalid UTF-8 (byte 0xE0)") // overlong
        assertError([quote, 0xED, 0xA0, 0x80, quote], column: 2, "invalid UTF-8 (byte 0xED)") // surrogate
        assertError([quote, 0xF4, 0x90, 0x80, 0x80, quote], column: 2, "invalid UTF-8 (byte 0xF4)") // > U+10FFFF
        assertError([quote, 0xF5, 0x80, 0x80, 0x80, quote], column: 2, "invalid UTF-8 (byte 0xF5)")
        assertError([quote, 0x61, 0xE2, 0x82, quote], column: 3, "invalid UTF-8 (byte 0xE2)") // truncated €
        assertError([quote, 0x80, quote], column: 2, "invalid UTF-8 (byte 0x80)") // lone continuation
        assertError([0x7B, 0xE2, 0x82, 0xAC, 0x7D], column: 2, "expected a string key, found byte 0xE2")
        // Well-formed boundaries pass.
        XCTAssertEqual(try parse([quote, 0xF4, 0x8F, 0xBF, 0xBF, quote]).kind, .string("\u{10FFFF}"))
        XCTAssertEqual(try parse([quote, 0xEF, 0xBF, 0xBF, quote]).kind, .string("\u{FFFF}"))
        XCTAssertEqual(try parse([quote, 0xED, 0x9F, 0xBF, quote]).kind, .string("\u{D7FF}"))
    }

    func testErrorDescription() {
        XCTAssertEqual(JSONLineError(column: 7, message: "unterminated string").description, "column 7: unterminated string")
    }
}

/// The name the JSON and trace line tests use for the shared `SplitMix`. (It cannot live in
/// TestSupport: the engine tests see `Sim`'s own `SplitMix64`.)
typealias SplitMix64 = SplitMix
