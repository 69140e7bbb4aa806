import Foundation
import XCTest
@testable import Scenarios

final class NameSuggesterTests: XCTestCase {
    func testTyposSwapsCaseAndPrefixesFindTheName() {
        let fields = ["sentenceEndMs", "otherwiseMs", "policy"]
        XCTAssertEqual(NameSuggester.suggestion(for: "otherwiseMz", among: fields), "otherwiseMs")
        XCTAssertEqual(NameSuggester.suggestion(for: "OTHERWISEMS", among: fields), "otherwiseMs")
        XCTAssertEqual(NameSuggester.suggestion(for: "otherwiesMs", among: fields), "otherwiseMs", "a swap is one edit")
        XCTAssertEqual(NameSuggester.suggestion(for: "otherwise", among: fields), "otherwiseMs", "a unique prefix")
        XCTAssertEqual(NameSuggester.suggestion(for: "rnu", among: ["run", "report", "merge"]), "run")
        XCTAssertNil(NameSuggester.suggestion(for: "bogus", among: fields))
        // A short name allows one edit, no more: 'ab' is not 'xy'.
        XCTAssertNil(NameSuggester.suggestion(for: "xy", among: ["ab"]))
        // Two names begin with 're': no guess.
        XCTAssertNil(NameSuggester.suggestion(for: "re", among: ["replications", "report"]))
        XCTAssertNil(NameSuggester.suggestion(for: "rep", among: ["replications", "report"]))
        // The closest wins, then the earlier.
        XCTAssertEqual(NameSuggester.suggestion(for: "fulll", among: ["fuller", "full"]), "full")
        XCTAssertEqual(NameSuggester.suggestion(for: "cat", among: ["bat", "hat"]), "bat")
    }

    func testEditDistanceCountsInsertionsDeletionsReplacementsAndSwaps() {
        func distance(_ a: String, _ b: String) -> Int { NameSuggester.editDistance(Array(a), Array(b)) }
        XCTAssertEqual(distance("", "abc"), 3)
        XCTAssertEqual(distance("abc", ""), 3)
        XCTAssertEqual(distance("kitten", "sitting"), 3)
        XCTAssertEqual(distance("ab", "ba"), 1)
        XCTAssertEqual(distance("abcd", "badc"), 2)
        XCTAssertEqual(distance("seed", "seed"), 0)
    }

    func testLongNamesAreQuotedShortenedAndNeverCompared() {
        XCTAssertEqual(NameSuggester.quoted("otherwiseMs"), "'otherwiseMs'")
        let sixty = String(repeating: "x", count: 60)
        XCTAssertEqual(NameSuggester.shortened(sixty), sixty, "at the limit: whole")
        let long = String(repeating: "é", count: 61)
        XCTAssertEqual(NameSuggester.shortened(long), String(repeating: "é", count: 40) + "…(122 bytes)")
        // 5 MB: a one-line quote and no suggestion, at once.
        let huge = "otherwiseMs" + String(repeating: "a", count: 5 << 20)
        let started = ProcessInfo.processInfo.systemUptime
        XCTAssertNil(NameSuggester.suggestion(for: huge, among: ["otherwiseMs"]))
        XCTAssertEqual(NameSuggester.quoted(huge), "'otherwiseMsaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…(5242891 bytes)'")
        XCTAssertLessThan(ProcessInfo.processInfo.systemUptime - started, 1, "a length check, not an edit distance")
    }
}
