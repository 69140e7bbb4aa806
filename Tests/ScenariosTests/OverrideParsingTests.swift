import Foundation
import XCTest
@testable import Scenarios

/// The `--set` grammar: `PATH=VALUE` of run, compare and gate, `PATH=VALUES` of sweep.
final class OverrideParsingTests: XCTestCase {
    typealias Override = ScenarioLoader.Override

    func testAValueIsJSON5OrElseAString() throws {
        let number = try Override.parse("debounce.otherwiseMs=1500")
        XCTAssertEqual(number.path, "debounce.otherwiseMs")
        XCTAssertEqual(number.value.kind, .number(1500))
        XCTAssertEqual(try Override.parse("detail=full").value.kind, .string("full"))
        XCTAssertEqual(try Override.parse("a=b=c").value.kind, .string("b=c"), "the first = splits")
        let object = try Override.parse("network.roundTrip={type: 'constant', valueMs: 80}").value
        XCTAssertEqual(object["valueMs"]?.kind, .number(80))
        XCTAssertEqual(object["valueMs"]?.line, 0, "a value from the command line has no place in the file")
        for (text, message) in [("x", "--set needs PATH=VALUE, not 'x'"), ("=1", "--set needs PATH=VALUE, not '=1'"), ("a=", "--set a= needs a value")] {
            XCTAssertThrowsError(try Override.parse(text)) { XCTAssertEqual(($0 as? OverrideSyntaxError)?.message, message) }
        }
    }

    func testRangesListsAndSingleValues() throws {
        func numbers(_ text: String) throws -> [Double] {
            try Override.parseValues(text).values.map { value in
                guard case .number(let x) = value.kind else { XCTFail("\(value)"); return .nan }
                return x
            }
        }
        XCTAssertEqual(try numbers("d=250..1000/250"), [250, 500, 750, 1000])
        XCTAssertEqual(try numbers("x=0.1..0.3/0.1"), [0.1, 0.2, 0.3], "the last value survives rounding")
        XCTAssertEqual(try numbers("x= 1, 2 ,3"), [1, 2, 3])
        XCTAssertEqual(try Override.parseValues("n=[1, 2]").values.count, 1, "an array is one value")
        XCTAssertEqual(try Override.parseValues("p=fifo,edf").values.map(\.kind), [.string("fifo"), .string("edf")])
    }

    /// Ends near the largest double: the span overflows, the steps do not (issue 29 #1).
    func testRangesNearTheLargestDoubleGiveFiniteValuesOrAClearError() throws {
        let wide = try Override.parseValues("debounce.otherwiseMs=-1e308..1e308/1e307").values
        XCTAssertEqual(wide.count, 21)
        XCTAssertEqual(wide.first?.kind, .number(-1e308))
        XCTAssertEqual(wide[10].kind, .number(0))
        XCTAssertEqual(wide.last?.kind, .number(1e308))
        let max = Double.greatestFiniteMagnitude
        let widest = try Override.parseValues("x=\(-max)..\(max)/\(max)").values
        XCTAssertEqual(widest.map(\.kind), [.number(-max), .number(0), .number(max)])
        for text in ["debounce.otherwiseMs=-1e308..1e308/1", "x=0..1e308/1e304", "x=0..1/1e-320", "x=0..10000/1"] {
            XCTAssertThrowsError(try Override.parseValues(text), text) { error in
                let message = (error as? OverrideSyntaxError)?.message ?? ""
                XCTAssertTrue(message.hasPrefix("--set \(text.split(separator: "=")[0])="), message)
                XCTAssertTrue(message.hasSuffix("at most 10000 per parameter"), message)
            }
        }
        XCTAssertThrowsError(try Override.parseValues("x=0..1e308/1e304")) {
            XCTAssertEqual(($0 as? OverrideSyntaxError)?.message, "--set x=0..1e308/1e304: 10001 values; at most 10000 per parameter")
        }
        XCTAssertThrowsError(try Override.parseValues("x=" + Array(repeating: "1", count: 10_001).joined(separator: ","))) {
            XCTAssertEqual(($0 as? OverrideSyntaxError)?.message, "--set x: 10001 values; at most 10000 per parameter")
        }
    }

    func testBadSpecsNameTheOptionAndWhatIsWrong() {
        let bad: [(String, String)] = [
            ("x=1..5", "--set x=1..5: the range needs a step, such as 1..5/STEP"),
            ("x=..5", "--set x=..5: the range needs a step, such as ..5/1"),
            ("x=1..2..3/1", "--set x=1..2..3/1: a range is LOW..HIGH/STEP, such as 250..5000/250"),
            ("x=a..b/1", "--set x=a..b/1: LOW, HIGH and STEP must be numbers"),
            ("x=1..inf/1", "--set x=1..inf/1: LOW, HIGH and STEP must be numbers"),
            ("x=5..1/1", "--set x=5..1/1: empty range (1 is below 5)"),
            ("x=1..2/-1", "--set x=1..2/-1: the step must be greater than zero"),
            ("x=1,,2", "--set x=1,,2: the list has an empty item"),
            ("x= ", "--set x= needs a value, a list A,B,C or a range LOW..HIGH/STEP"),
            ("a..b=1,2", "--set a..b=1,2: 'a..b' is not a field path such as debounce.otherwiseMs"),
            ("=1", "--set needs PATH=VALUES, such as debounce.otherwiseMs=250..5000/250, not '=1'"),
        ]
        for (text, message) in bad {
            XCTAssertThrowsError(try Override.parseValues(text), text) { XCTAssertEqual(($0 as? OverrideSyntaxError)?.message, message) }
        }
    }
}
