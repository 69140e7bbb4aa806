import XCTest
@testable import Sim

/// What a check request carries, by content (`docs/models.md`, "Debounce policies"), on
/// hand-made traces through `KeyboardHarness`. Every expected request — when it leaves and
/// the text it carries — is worked out by hand from `KeyboardConfig.exact`: a key lands 2 ms
/// after its touch, the fixed debounce fires 400 ms after the last edit, an answer takes
/// 50 ms of network and 300 ms of service.
final class CloudRequestContentTests: XCTestCase {
    private func backspace(_ h: inout KeyboardHarness, atMs ms: Double) throws {
        try h.feed(.backspace(touchUp: nil, point: nil), atMs: ms)
    }

    private func cursor(_ h: inout KeyboardHarness, by offset: Int, atMs ms: Double) throws {
        try h.feed(.cursorMove(offset: offset), atMs: ms)
    }

    /// The requests sent, as (ms, text), once nothing is pending.
    private func requests(_ h: inout KeyboardHarness) -> [String] {
        _ = h.finish()
        return h.sent.map { "\(Int($0.ms)) \($0.text.debugDescription)" }
    }

    // MARK: - Defect 1: a timer that sends nothing changes nothing

    func testABackspacedSpaceTypedAgainIsNotSentAgain() throws {
        var h = KeyboardHarness(.exact)
        try h.type("a ", fromMs: 0)              // lands 2, 102: sent at 502
        try backspace(&h, atMs: 1000)            // lands 1002: "a" is being typed, the 1402 timer sends nothing
        try h.type(" ", fromMs: 2000)            // lands 2002: "a" again, as the cloud saw it: nothing at 2402
        XCTAssertEqual(requests(&h), ["502 \"a \""])
    }

    func testPunctuationBeforeAWordIsSentWithItThoughATimerFiredBetween() throws {
        var h = KeyboardHarness(.exact)
        try h.type("a ", fromMs: 0)              // sent at 502
        try h.type(",", fromMs: 1000)            // lands 1002; at 1402 only "," differs, no word: nothing sent
        try h.type(" ok ", fromMs: 2000)         // lands 2302; at 2702 the text from "," on
        XCTAssertEqual(requests(&h), ["502 \"a \"", "2702 \", ok \""])
    }

    // MARK: - Defect 2: the first differing token, by content

    func testASpaceTypedBetweenSentWordsSendsNothing() throws {
        var h = KeyboardHarness(.exact)
        try h.type("a b ", fromMs: 0)            // lands 302: sent at 702
        try cursor(&h, by: -2, atMs: 1000)       // "a |b "
        try h.type(" ", fromMs: 1100)            // "a  b ", lands 1102: white space alone, nothing at 1502
        XCTAssertEqual(requests(&h), ["702 \"a b \""])
    }

    func testSplittingASentWordSendsBothHalves() throws {
        var h = KeyboardHarness(.exact)
        try h.type("tosee ", fromMs: 0)          // lands 502: sent at 902
        try cursor(&h, by: -4, atMs: 1000)       // "to|see "
        try h.type(" ", fromMs: 1100)            // "to see ", lands 1102: "to" differs from "tosee"
        XCTAssertEqual(requests(&h), ["902 \"tosee \"", "1502 \"to see \""])
    }

    func testAShortenedWordIsSent() throws {
        var h = KeyboardHarness(.exact)
        try h.type("ab ", fromMs: 0)             // lands 202: sent at 602
        try cursor(&h, by: -1, atMs: 1000)       // "ab| "
        try backspace(&h, atMs: 1100)            // "a| ", lands 1102
        try cursor(&h, by: 1, atMs: 1200)        // "a |": the word is left, finished
        XCTAssertEqual(requests(&h), ["602 \"ab \"", "1502 \"a \""])
    }

    // MARK: - Settled: text after the word being typed

    func testTextAfterTheWordBeingTypedWaitsUntilTheWordIsFinished() throws {
        var h = KeyboardHarness(.exact)
        try h.type("one two three ", fromMs: 0)  // lands 1302: sent at 1702
        try cursor(&h, by: -7, atMs: 2000)       // "one two| three "
        try h.type("s", fromMs: 2100)            // "one twos| three ", lands 2102; at 2502 "twos" is being typed:
                                                 // nothing before it changed, nothing after it goes
        try cursor(&h, by: 7, atMs: 3000)        // the word is left
        try h.type("x ", fromMs: 3100)           // lands 3202: at 3602 from "twos" to the end
        XCTAssertEqual(requests(&h), ["1702 \"one two three \"", "3602 \"twos three x \""])
    }

    func testAWordLeftBeforeTheTimerFiresIsSentWithTheTextAfterIt() throws {
        var h = KeyboardHarness(.exact)
        try h.type("one two three ", fromMs: 0)  // sent at 1702
        try cursor(&h, by: -7, atMs: 2000)
        try h.type("s", fromMs: 2100)            // lands 2102
        try cursor(&h, by: 7, atMs: 2200)        // left before the timer fires at 2502
        XCTAssertEqual(requests(&h), ["1702 \"one two three \"", "2502 \"twos three \""])
    }

    func testAWordTypedAndUndoneInTheMiddleSendsNothing() throws {
        var h = KeyboardHarness(.exact)
        try h.type("one two three ", fromMs: 0)  // sent at 1702
        try cursor(&h, by: -7, atMs: 2000)
        try h.type("s", fromMs: 2100)            // lands 2102; the 2502 timer sends nothing
        try backspace(&h, atMs: 3000)            // "one two| three ", lands 3002
        try cursor(&h, by: 7, atMs: 3100)
        try h.type("x ", fromMs: 3200)           // lands 3302: at 3702 only "x" is new
        XCTAssertEqual(requests(&h), ["1702 \"one two three \"", "3702 \"x \""])
    }

    // MARK: - Settled: the text a field opens with

    func testTheTextAFieldOpensWithIsNeverSentUnlessEdited() throws {
        var h = KeyboardHarness(.exact)
        try h.feed(.field(FieldChange(.opened, text: "See you at noon")), atMs: 0)
        try h.type(" tomorrow ", fromMs: 100)    // lands 1002: at 1402 only the typed word
        try cursor(&h, by: -10, atMs: 2000)      // "See you at noon| tomorrow "
        try backspace(&h, atMs: 2100)            // "See you at noo|", lands 2102
        try h.type("n", fromMs: 2200)            // "noon" again, lands 2202, then left before 2602
        try cursor(&h, by: 10, atMs: 2300)
        try h.type("x", fromMs: 3000)            // lands 3002: "x" is being typed, nothing at 3402
        try backspace(&h, atMs: 4000)
        try cursor(&h, by: -21, atMs: 4100)      // "See |you at noon tomorrow "
        try h.type("U", fromMs: 4200)            // "See U|you", lands 4202, left at 4300
        try cursor(&h, by: 21, atMs: 4300)
        XCTAssertEqual(requests(&h), ["1402 \"tomorrow \"", "4602 \"Uyou at noon tomorrow \""])
    }

    // MARK: - Settled: a picked suggestion is a finished word

    func testAPickedSuggestionIsSentWithoutTheSpaceAfterIt() throws {
        var h = KeyboardHarness(.exact)
        try h.type("I like bana", fromMs: 0)     // lands 1002
        try h.feed(.suggestionPicked(text: "bananas"), atMs: 1100)   // lands 1102: at 1502 "bananas" is finished
        try h.type(" ", fromMs: 2000)            // lands 2002: nothing new at 2402
        try h.type("x", fromMs: 3000)            // "bananas x": being typed, nothing at 3402
        XCTAssertEqual(requests(&h), ["1502 \"I like bananas\""])
    }

    func testAPickedSuggestionTypedIntoIsBeingTypedAgain() throws {
        var h = KeyboardHarness(.exact)
        try h.type("I like bana", fromMs: 0)
        try h.feed(.suggestionPicked(text: "banana"), atMs: 1100)    // lands 1102
        try h.type("s", fromMs: 1200)            // "bananas" is being typed again: at 1602 "I like " only
        try h.type(" ", fromMs: 2000)            // lands 2002: at 2402 "bananas "
        XCTAssertEqual(requests(&h), ["1602 \"I like \"", "2402 \"bananas \""])
    }

    // MARK: - Settled: an edit landing just after keyboard.hide

    func testAnEditLandingAfterTheKeyboardHidArmsNoTimerWhenHidingCancels() throws {
        var h = KeyboardHarness(.exact)
        try h.type("a ", fromMs: 0)              // the space lands at 102, after the hide at 101
        try h.feed(.keyboardHidden, atMs: 101)
        try h.feed(.keyboardShown, atMs: 1000)
        try h.type("b ", fromMs: 1100)           // lands 1202: at 1602 everything the cloud has not seen
        XCTAssertEqual(requests(&h), ["1602 \"a b \""])
    }

    func testAnEditLandingAfterTheKeyboardHidSendsAtOnceWhenHidingSends() throws {
        var config = KeyboardConfig.exact
        config.cloud.whenHidden = .send
        var h = KeyboardHarness(config)
        try h.type("a ", fromMs: 0)
        try h.feed(.keyboardHidden, atMs: 101)   // "a" is being typed: the timer fired now sends nothing
        try h.feed(.keyboardShown, atMs: 1000)   // the space landed at 102 and was sent then
        try h.type("b ", fromMs: 1100)
        XCTAssertEqual(requests(&h), ["102 \"a \"", "1602 \"b \""])
    }

    func testAnEditLandingAfterTheKeyboardHidKeepsItsTimerWhenHidingKeeps() throws {
        var config = KeyboardConfig.exact
        config.cloud.whenHidden = .keep
        var h = KeyboardHarness(config)
        try h.type("a ", fromMs: 0)
        try h.feed(.keyboardHidden, atMs: 101)
        try h.feed(.keyboardShown, atMs: 1000)
        try h.type("b ", fromMs: 1100)
        XCTAssertEqual(requests(&h), ["502 \"a \"", "1602 \"b \""])
    }

    // MARK: - What a failed request leaves

    func testAFailedRequestsTextIsSentAgain() throws {
        var config = KeyboardConfig.exact
        config.network.offlinePeriods = [SimTime.zero..<SimTime(milliseconds: 5000)]
        var h = KeyboardHarness(config)
        try h.type("a ", fromMs: 0)              // sent at 502; attempts fail at 507, 1012, 2017
        try h.type("b ", fromMs: 6000)           // lands 6102: at 6502 the cloud has seen nothing
        XCTAssertEqual(requests(&h), ["502 \"a \"", "6502 \"a b \""])
        XCTAssertEqual(h.sink.requests.map(\.outcome), [.failed, .answered])
    }
}
