import XCTest
@testable import Scenarios

final class JSON5ParserTests: XCTestCase {
    func testReadsTheJSON5FeaturesConfigFilesUse() throws {
        let value = try JSON5Parser.parse("""
        // a comment
        {
          name: 'single quoted',   /* block */
          "quoted key": 1,
          hex: 0x1F, lead: .5, trail: 5., plus: +3, exp: 1.5e3,
          list: [1, 2, 3,],
          nested: { ok: true, nothing: null, },
        }
        """)
        XCTAssertEqual(value["name"]?.kind, .string("single quoted"))
        XCTAssertEqual(value["quoted key"]?.kind, .number(1))
        XCTAssertEqual(value["hex"]?.kind, .number(31))
        XCTAssertEqual(value["lead"]?.kind, .number(0.5))
        XCTAssertEqual(value["trail"]?.kind, .number(5))
        XCTAssertEqual(value["plus"]?.kind, .number(3))
        XCTAssertEqual(value["exp"]?.kind, .number(1500))
        XCTAssertEqual(value["nested"]?["ok"]?.kind, .bool(true))
        XCTAssertEqual(value["nested"]?["nothing"]?.kind, .null)
        guard case .array(let list) = value["list"]?.kind else { return XCTFail("list") }
        XCTAssertEqual(list.count, 3)
    }

    func testPositionsOfValues() throws {
        let value = try JSON5Parser.parse("{\n  a: 1,\n  b: {\n    c: 'x',\n  },\n}")
        XCTAssertEqual(value["a"]?.line, 2)
        XCTAssertEqual(value["a"]?.column, 6)
        XCTAssertEqual(value["b"]?["c"]?.line, 4)
        XCTAssertEqual(value["b"]?["c"]?.column, 8)
    }

    func testStringEscapesIncludingSurrogatePairs() throws {
        let value = try JSON5Parser.parse(#"{s: "a\n\t\"\u00e9\ud83d\udc4d", t: 'it\'s'}"#)
        XCTAssertEqual(value["s"]?.kind, .string("a\n\t\"é👍"))
        XCTAssertEqual(value["t"]?.kind, .string("it's"))
    }

    func testSyntaxErrorsCarryLineAndColumn() {
        let cases: [(String, Int, Int, String)] = [
            ("{a: 1,\n b: ,}", 2, 5, "expected a value"),
            ("{a: 1\n b: 2}", 2, 2, "expected ',' or '}'"),
            ("{a: 'open", 1, 10, "unterminated string"),
            ("{a: 1, a: 2}", 1, 8, "duplicate key 'a'"),
            ("{a: yes}", 1, 5, "unexpected word 'yes'"),
            ("{a: 1} x", 1, 8, "after the end of the document"),
            ("", 1, 1, "unexpected end of file"),
            ("[1, 2", 1, 6, "unexpected end of file inside an array"),
        ]
        for (text, line, column, fragment) in cases {
            XCTAssertThrowsError(try JSON5Parser.parse(text), text) { error in
                guard let error = error as? JSON5Parser.SyntaxError else { return XCTFail("wrong error type") }
                XCTAssertEqual(error.line, line, text)
                XCTAssertEqual(error.column, column, text)
                XCTAssertTrue(error.message.contains(fragment), "\(text): \(error.message)")
            }
        }
    }

    func testDeepNestingIsRefused() {
        let text = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        XCTAssertThrowsError(try JSON5Parser.parse(text))
    }

    func testSettingAndMergingPaths() throws {
        let base = try JSON5Parser.parse("{a: {b: 1, c: 2}, d: 3}")
        let set = base.setting(["a", "b"], to: ConfigValue(.number(9)))
        XCTAssertEqual(set["a"]?["b"]?.kind, .number(9))
        XCTAssertEqual(set["a"]?["c"]?.kind, .number(2))
        let created = base.setting(["x", "y"], to: ConfigValue(.string("z")))
        XCTAssertEqual(created["x"]?["y"]?.kind, .string("z"))
        let merged = base.merging(try JSON5Parser.parse("{a: {c: 5}, e: 6}"))
        XCTAssertEqual(merged["a"]?["b"]?.kind, .number(1))
        XCTAssertEqual(merged["a"]?["c"]?.kind, .number(5))
        XCTAssertEqual(merged["e"]?.kind, .number(6))
    }
}
