import Foundation
import XCTest
import Sim
@testable import Scenarios

/// Scenario text the parser and loader once accepted or misread.
final class ConfigRobustnessTests: XCTestCase {
    private func syntaxError(_ text: String) -> JSON5Parser.SyntaxError? {
        do {
            _ = try JSON5Parser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    func testAnUnterminatedBlockCommentIsAnErrorAtItsStart() {
        let error = syntaxError("{a: 1}\n  /* never closed")
        XCTAssertEqual(error?.line, 2)
        XCTAssertEqual(error?.column, 3)
        XCTAssertEqual(error?.message, "unterminated /* comment (no */ before the end of the file)")
        XCTAssertNotNil(syntaxError("{a: /* open"))
        XCTAssertNil(syntaxError("{a: 1 /* closed */}"))
    }

    func testEscapesFollowJSON5() throws {
        XCTAssertEqual(try JSON5Parser.parse(#"'\x41\x7a'"#).kind, .string("Az"))
        XCTAssertEqual(try JSON5Parser.parse(#"'\0'"#).kind, .string("\u{0}"))
        XCTAssertEqual(try JSON5Parser.parse(#"'\q'"#).kind, .string("q"))
        XCTAssertEqual(try JSON5Parser.parse("'a\\\r\nb'").kind, .string("ab"))
        XCTAssertEqual(syntaxError(#"'\x4G'"#)?.message, "expected two hexadecimal digits after \\x")
        XCTAssertEqual(syntaxError(#"'\x'"#)?.message, "expected two hexadecimal digits after \\x")
        XCTAssertEqual(syntaxError(#"'\1'"#)?.message, "invalid escape \\1 (octal escapes are not JSON5)")
        XCTAssertEqual(syntaxError(#"'\01'"#)?.column, 3)
    }

    func testSeedsAboveTwoToThe53AreReadExactly() throws {
        let fixture = try ScenarioFixture()
        for seed: UInt64 in [9_007_199_254_740_993, 9_223_372_036_854_775_807] {
            let path = try fixture.write("s.json5", "{traces: ['trace.jsonl'], seed: \(seed)}")
            XCTAssertEqual(try ScenarioLoader.load(path: path).seed, seed)
        }
        let error = try fixture.loadError("{traces: ['trace.jsonl'], seed: 9223372036854775808}")
        XCTAssertEqual(error?.line, 1)
        XCTAssertTrue(error?.message.contains("must be between 0 and 9223372036854775807") == true, "\(String(describing: error))")
        XCTAssertTrue(try fixture.loadError("{traces: ['trace.jsonl'], seed: 1.5}")?.message.contains("whole number") == true)
        let set = try ScenarioLoader.load(path: fixture.write("s.json5", "{traces: ['trace.jsonl']}"),
                                          overrides: [.init(path: "seed", value: JSON5Parser.parse("9007199254740993"))])
        XCTAssertEqual(set.seed, 9_007_199_254_740_993)
    }

    func testAMisspeltFieldInAPolicyIsReportedWithoutUsingIt() throws {
        let fixture = try ScenarioFixture()
        let error = try fixture.loadError("""
            {traces: ['trace.jsonl'],
             policies: {
               fine: {debounce: {otherwiseMs: 100}},
               typo: {debounce: {otherwiseMS: 100}},
             }}
            """)
        XCTAssertEqual(error?.description.hasSuffix(
            "s.json5:4:35: error: policies.typo.debounce.otherwiseMS: unknown field 'otherwiseMS'; did you mean 'otherwiseMs'?"), true,
            "\(String(describing: error))")
    }

    func testAnEmptySegmentInASetPathIsRefused() throws {
        let fixture = try ScenarioFixture()
        let path = try fixture.write("s.json5", "{traces: ['trace.jsonl']}")
        for bad in ["debounce..otherwiseMs", ".seed", "seed."] {
            XCTAssertThrowsError(try ScenarioLoader.load(path: path, overrides: [.init(path: bad, value: ConfigValue(.number(1)))]), bad) { error in
                XCTAssertEqual((error as? ConfigError)?.message, "not a field path")
            }
        }
    }
}
