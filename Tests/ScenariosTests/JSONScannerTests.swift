import XCTest
@testable import Scenarios

/// The one scanner in its two syntaxes over whole documents: what each accepts, how each
/// words and places its errors, and the positions of values across lines.
final class JSONScannerTests: XCTestCase {
    private func error(_ text: String, _ syntax: JSONSyntax) -> String? {
        do {
            _ = try JSON5Parser.parse(text, syntax: syntax)
            return nil
        } catch {
            return "\(error.line):\(error.column): \(error.message)"
        }
    }

    func testStrictDocumentsRefuseJSON5AndSayWhereInLinesAndColumns() {
        XCTAssertEqual(error("{\n  // comment\n  \"a\": 1\n}", .strict), "2:3: expected a string key, found '/'")
        XCTAssertEqual(error("{\"a\": 'x'}", .strict), "1:7: expected a value, found '''")
        XCTAssertEqual(error("[1, 2,]", .strict), "1:7: expected a value, found ']'")
        XCTAssertEqual(error("{\"é\": \"ü\" \"b\"}", .strict), "1:11: expected ',' or '}', found '\"'")
        XCTAssertEqual(error("[\"a\tb\"]", .strict), "1:4: control character U+0009 must be escaped in a string")
        XCTAssertEqual(error("{\"a\": 1, \"a\": 2}", .strict), "1:10: duplicate key 'a'")
        XCTAssertNil(error("{\n  \"a\": [1, 2.5e3, -0, true, null, \"\\u00e9\"]\n}", .strict))
        XCTAssertEqual(error("[1, 2,]", .json5), nil)
        XCTAssertEqual(error("[1, 2", .json5), "1:6: unexpected end of file inside an array")
    }

    func testPositionsCountLinesAndScalars() throws {
        let text = "{\n\t\"日本\": [\"é\", 12],\r\n  b: {c: 'x'}, // note\n  d: /* é */ 0x10,\n}"
        let value = try JSON5Parser.parse(text)
        XCTAssertEqual(value["日本"].map { [$0.line, $0.column] }, [2, 8])
        guard case .array(let elements)? = value["日本"]?.kind else { return XCTFail("array") }
        XCTAssertEqual(elements.map { [$0.line, $0.column] }, [[2, 9], [2, 14]])
        XCTAssertEqual(value["b"]?["c"].map { [$0.line, $0.column] }, [3, 10])
        XCTAssertEqual(value["d"].map { [$0.line, $0.column] }, [4, 14])
        XCTAssertEqual(value["d"]?.kind, .number(16))
        XCTAssertEqual(error("{a: 1,\n  'é': 'ü' x}", .json5), "2:12: unexpected 'x', expected ',' or '}'")
    }

    func testJSON5EscapesDecodeLikeJavaScript() throws {
        XCTAssertEqual(try JSON5Parser.parse(#"'\v\0\x41\u00e9\ud83d\udc4d\é\''"#).kind, .string("\u{B}\u{0}Aé👍é'"))
        XCTAssertEqual(try JSON5Parser.parse("'a\\\u{2028}b'").kind, .string("ab"), "a line continuation across U+2028")
        XCTAssertEqual(try JSON5Parser.parse("'a\\\nb'").kind, .string("ab"))
        XCTAssertEqual(try JSON5Parser.parse("'a\\\r\nb'").kind, .string("ab"))
        XCTAssertEqual(try JSON5Parser.parse("'raw\ttab'").kind, .string("raw\ttab"))
    }
}
