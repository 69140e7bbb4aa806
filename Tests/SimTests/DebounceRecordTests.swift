import XCTest
@testable import Sim

/// The debounce timer's records (`DebounceObservation`): every arm, re-arm, cancel and fire,
/// with the key whose edit armed it and the request a fire sent, at exact times
/// (`KeyboardConfig.exact`: keys land 2 ms after their touch, a fixed 400 ms debounce).
final class DebounceRecordTests: XCTestCase {
    /// The records as (time ms, event, due ms, key, request).
    private func records(_ h: KeyboardHarness) -> [String] {
        h.sink.debounceEvents.map { record in
            "\(Int(record.time.milliseconds)) \(record.event.rawValue) \(Int(record.due.milliseconds)) key \(record.keyIndex.map(String.init) ?? "-")"
                + " \(record.trigger.rawValue)" + (record.requestID.map { " request \($0)" } ?? "")
        }
    }

    func testEveryKeyArmsOrReArmsAndTheFireNamesTheLastKeyAndItsRequest() throws {
        var h = KeyboardHarness(.exact)
        try h.type("a ", fromMs: 0)
        try h.type("b", fromMs: 1000)
        _ = h.finish()
        XCTAssertEqual(records(h), [
            "2 arm 402 key 0 fixed", "102 rearm 502 key 1 fixed", "502 fire 502 key 1 fixed request 0",
            "1002 arm 1402 key 2 fixed", "1402 fire 1402 key 2 fixed",   // "b" is not finished: nothing is sent
        ])
        XCTAssertEqual(h.sink.requests.map(\.sent), [SimTime(milliseconds: 502)])
    }

    func testHidingUnderSendFiresTheTimerEarlyAndEveryLandingEditAtOnce() throws {
        var config = KeyboardConfig.exact
        config.cloud.whenHidden = .send
        var h = KeyboardHarness(config)
        try h.type("a ", fromMs: 0)
        try h.feed(.keyboardHidden, atMs: 101)   // the timer armed by "a" fires now and sends nothing
        try h.feed(.keyboardShown, atMs: 1000)   // the space landed at 102, armed and fired at once
        _ = h.finish()
        XCTAssertEqual(records(h), [
            "2 arm 402 key 0 fixed", "101 fire 402 key 0 fixed", "102 arm 502 key 1 fixed", "102 fire 502 key 1 fixed request 0",
        ])
    }

    func testHidingUnderCancelCancelsTheArmedTimer() throws {
        var config = KeyboardConfig.exact
        config.cloud.whenHidden = .cancel
        var h = KeyboardHarness(config)
        try h.type("a ", fromMs: 0)
        try h.feed(.keyboardHidden, atMs: 150)
        try h.feed(.keyboardShown, atMs: 1000)
        try h.type("b ", fromMs: 1100)
        _ = h.finish()
        XCTAssertEqual(records(h), [
            "2 arm 402 key 0 fixed", "102 rearm 502 key 1 fixed", "150 cancel 502 key 1 fixed",
            "1102 arm 1502 key 2 fixed", "1202 rearm 1602 key 3 fixed", "1602 fire 1602 key 3 fixed request 0",
        ])
    }

    func testTheSeedPolicyNamesItsTriggerAndABufferWithoutTimelinesKeepsNoRecords() throws {
        var config = KeyboardConfig.exact
        config.debounce = .seedDefault
        var h = KeyboardHarness(config)
        try h.type("a.", fromMs: 0)
        _ = h.finish()
        XCTAssertEqual(records(h), ["2 arm 2002 key 0 idle", "102 rearm 502 key 1 sentence-end", "502 fire 502 key 1 sentence-end request 0"])

        var quiet = KeyboardHarness(config)
        quiet.sink.keepsTasks = false
        try quiet.type("a.", fromMs: 0)
        _ = quiet.finish()
        XCTAssertEqual(quiet.sink.debounceEvents, [], "runs that keep no timeline keep no timer records")
        XCTAssertEqual(quiet.sink.requests, h.sink.requests, "recording changes nothing")
    }
}
