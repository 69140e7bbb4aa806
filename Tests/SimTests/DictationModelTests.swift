import XCTest
@testable import Sim

final class DictationModelTests: XCTestCase {
    func testColdStartThenWarmTap() throws {
        var h = DictationHarness(.exact)
        h.start(1000, onsetMs: 200, lengthMs: 2000, "hello there")
        try h.stop(4000)
        h.start(10_000, onsetMs: 100, lengthMs: 1000, "again")
        try h.stop(12_000)
        h.finish(13_000)

        XCTAssertEqual(h.dictations.count, 2)
        let cold = h.dictations[0]
        XCTAssertTrue(cold.coldStart)
        XCTAssertEqual(cold.coldStartCost, dur(1500))              // launch 0 + swipe back 1.5 s
        XCTAssertEqual(cold.recordingStart, ms(1000))              // the app runs at once
        XCTAssertEqual(cold.captureStart, ms(1000))                // nothing buffered before the mic
        XCTAssertEqual(cold.clipped, .zero)
        XCTAssertEqual(cold.recordingEnd, ms(4003))
        XCTAssertEqual(cold.clipLength, dur(3003))
        XCTAssertEqual(cold.transcriptionStart, ms(4003))          // the model loaded at 1130
        XCTAssertEqual(cold.transcriptionEnd, ms(4083.03))         // 50 + 30.03 ms
        XCTAssertEqual(cold.textInserted, ms(4086.53))             // + 3 ms back + 0.5 ms insert
        XCTAssertEqual(cold.stopToText, dur(86.53))
        XCTAssertEqual(cold.engine, .neuralEngine)
        XCTAssertEqual(cold.modelLoadWait, .zero)

        let warm = h.dictations[1]
        XCTAssertFalse(warm.coldStart)
        XCTAssertNil(warm.coldStartCost)
        XCTAssertEqual(warm.tapToRecording, dur(3))
        XCTAssertEqual(warm.captureStart, ms(9603))                // 0.4 s of pre-roll
        XCTAssertEqual(warm.clipLength, dur(2400))
        XCTAssertEqual(warm.textInserted, ms(12_003 + 74 + 3.5))

        XCTAssertEqual(h.inserted.map(\.text), ["hello there", "again"])
        XCTAssertEqual(h.sessions.count, 1)
        let session = h.sessions[0]
        XCTAssertEqual(session.endReason, .endOfTrace)
        XCTAssertEqual(session.end, ms(13_000))
        XCTAssertEqual(session.micOn, dur(12_000))
        XCTAssertEqual(session.dictations, 2)
        XCTAssertEqual(session.dictated, dur(5403))
        XCTAssertEqual(session.modelLoad, dur(130))
        XCTAssertEqual(session.peakMemoryMegabytes, 70)
        XCTAssertEqual(session.micOnPerDictated!, 12_000 / 5403, accuracy: 1e-12)
        XCTAssertTrue(h.engine.isIdle)
        XCTAssertTrue(h.model.isIdle)
    }

    func testIdleTimeoutEndsTheSessionAndTheNextTapIsCold() throws {
        var h = DictationHarness(.exact)
        h.start(1000, onsetMs: 200, lengthMs: 2000)
        try h.stop(4000)
        h.run(until: ms(400_000))
        XCTAssertEqual(h.sessions.count, 1)
        XCTAssertEqual(h.sessions[0].endReason, .idleTimeout)
        XCTAssertEqual(h.sessions[0].end, ms(304_003))              // 5 minutes after the stop reached the app
        XCTAssertEqual(h.sessions[0].micOn, dur(303_003))
        XCTAssertFalse(h.model.hasSession)

        h.start(400_000, onsetMs: 0, lengthMs: 500)
        try h.stop(401_000)
        h.finish(401_000)
        XCTAssertTrue(h.dictations[1].coldStart)
        XCTAssertEqual(h.dictations[1].session, 1)
        XCTAssertEqual(h.sessions.count, 2)
        XCTAssertEqual(h.sessions[1].end, h.dictations[1].textInserted)   // work in flight at the end
        XCTAssertTrue(h.engine.isIdle)
    }

    func testConfiguredIdleTimeout() throws {
        var config = DictationConfig.exact
        config.idleTimeout = .seconds(60)
        var h = DictationHarness(config)
        h.start(0, onsetMs: 0, lengthMs: 500)
        try h.stop(1000)
        h.run()
        XCTAssertEqual(h.sessions.map(\.end), [ms(61_003)])
    }

    func testFinishClosesAtTheLastEventAndLeavesNothingPending() throws {
        var h = DictationHarness(.exact)
        h.start(1000, onsetMs: 200, lengthMs: 2000)
        try h.stop(4000)
        h.finish(5000)
        XCTAssertEqual(h.sessions.map(\.end), [ms(5000)])
        XCTAssertEqual(h.sessions[0].micOn, dur(4000))
        XCTAssertEqual(h.engine.now, ms(4086.53))                   // the idle timer never fired
        XCTAssertTrue(h.engine.isIdle)
    }

    func testFinishStopsADictationTheTraceNeverStopped() throws {
        // A keyboard killed mid-dictation leaves a start and no stop: the recording ends at
        // the last event, its text is inserted, and nothing is left pending.
        var h = DictationHarness(.exact)
        h.start(1000, onsetMs: 200, lengthMs: 2000, "cut off")
        h.finish(5000)
        XCTAssertEqual(h.dictations.count, 1)
        XCTAssertEqual(h.dictations[0].recordingEnd, ms(5003))
        XCTAssertEqual(h.inserted.map(\.text), ["cut off"])
        XCTAssertEqual(h.sessions.count, 1)
        XCTAssertTrue(h.engine.isIdle)
        XCTAssertTrue(h.model.isIdle)
    }

    func testFinishAfterASecondStartWithoutStops() throws {
        var h = DictationHarness(.exact)
        h.start(1000, onsetMs: 0, lengthMs: 500)
        h.start(1001, onsetMs: 0, lengthMs: 500)               // stops the first
        h.finish(1001)
        XCTAssertEqual(h.dictations.count, 2)
        XCTAssertTrue(h.engine.isIdle)
        XCTAssertTrue(h.model.isIdle)
    }

    func testPausePolicySuspendsTheAppAndClipsWithoutPreRoll() throws {
        var config = DictationConfig.exact
        config.micPolicy = .pauseBetweenDictations
        var h = DictationHarness(config)
        h.start(1000, onsetMs: 100, lengthMs: 1000)
        try h.stop(3000)                                    // mic pauses at 3003; suspension due at 6003
        h.start(5000, onsetMs: 0, lengthMs: 800)            // before the suspension: the mic restarts
        try h.stop(6000)                                    // pauses at 6003; suspension due at 9003
        h.run(until: ms(11_000))
        h.start(12_000, onsetMs: 0, lengthMs: 800)          // suspended: cold again
        try h.stop(13_000)
        h.finish(13_000)

        XCTAssertEqual(h.dictations.map(\.coldStart), [true, false, true])
        let warm = h.dictations[1]
        XCTAssertEqual(warm.captureStart, ms(5003))                 // no ring buffer while paused
        XCTAssertEqual(warm.clipped, dur(3))
        XCTAssertTrue(warm.isClipped)
        XCTAssertEqual(h.sessions.count, 2)
        XCTAssertEqual(h.sessions[0].endReason, .suspended)
        XCTAssertEqual(h.sessions[0].end, ms(9003))
        XCTAssertEqual(h.sessions[0].suspensions, 1)
        XCTAssertEqual(h.sessions[0].micOn, dur(2003 + 1000))       // only while recording
        XCTAssertEqual(h.sessions[1].endReason, .endOfTrace)
    }

    func testSuspensionWaitsForTheUserToSwipeBack() throws {
        var config = DictationConfig.exact
        config.micPolicy = .pauseBetweenDictations
        config.swipeBack = .constant(5000)
        var h = DictationHarness(config)
        h.start(0, onsetMs: 0, lengthMs: 500)
        try h.stop(1000)
        h.run()
        XCTAssertEqual(h.sessions.map(\.end), [ms(8000)])           // back at 5 s, suspended 3 s later
    }

    func testPreRollTooShortForTheDoorbellClipsTheFirstWord() throws {
        var config = DictationConfig.exact
        config.doorbell = .constant(500)                    // a message takes 501 ms
        var h = DictationHarness(config)
        h.start(0, onsetMs: 1000, lengthMs: 1000)           // cold: mic on at once, nothing clipped
        try h.stop(3000)
        h.start(10_000, onsetMs: 50, lengthMs: 1000)        // capture from 10 501 − 400 = 10 101
        try h.stop(12_000)
        h.finish(14_000)
        XCTAssertEqual(h.dictations[0].clipped, .zero)
        XCTAssertEqual(h.dictations[1].captureStart, ms(10_101))
        XCTAssertEqual(h.dictations[1].clipped, dur(51))
    }

    func testSlowAppLaunchClipsTheColdStart() throws {
        var config = DictationConfig.exact
        config.appLaunch = .constant(300)
        var h = DictationHarness(config)
        h.start(0, onsetMs: 100, lengthMs: 1000)
        try h.stop(2000)
        h.finish(2000)
        let d = h.dictations[0]
        XCTAssertEqual(d.recordingStart, ms(300))
        XCTAssertEqual(d.clipped, dur(200))
        XCTAssertEqual(d.coldStartCost, dur(1800))
        XCTAssertEqual(h.sessions[0].micFirstOn, ms(300))
    }

    func testRecordingCapTruncatesAndCountsLostSpeech() throws {
        var config = DictationConfig.exact
        config.recordingCap = .seconds(1)
        var h = DictationHarness(config)
        h.start(1000, onsetMs: 200, lengthMs: 2000)         // speech 1.2 s – 3.2 s, audio 1 s – 2 s
        try h.stop(4000)
        h.finish(4000)
        let d = h.dictations[0]
        XCTAssertEqual(d.clipLength, dur(1000))
        XCTAssertEqual(d.speechLostToCap, dur(1200))
        XCTAssertEqual(d.transcriptionEnd, ms(4003 + 60))
        XCTAssertEqual(h.sessions[0].dictated, dur(1000))
    }

    func testTheEngineQueuesASecondDictation() throws {
        var h = DictationHarness(.exact)
        h.start(0, onsetMs: 0, lengthMs: 1000)
        try h.stop(2000)                                    // clip 2003 ms: 70.03 ms on the engine from 2003
        h.start(2010, onsetMs: 0, lengthMs: 5)
        try h.stop(2020)                                    // clip 2023 − 1613 = 410 ms: 54.1 ms
        h.finish(2020)
        let (a, b) = (h.dictations[0], h.dictations[1])
        XCTAssertEqual(a.transcriptionEnd, ms(2073.03))
        XCTAssertEqual(b.clipLength, dur(410))
        XCTAssertEqual(b.transcriptionRelease, ms(2023))
        XCTAssertEqual(b.transcriptionStart, ms(2073.03))
        XCTAssertEqual(b.engineWait, dur(50.03))
        XCTAssertEqual(b.transcriptionEnd, ms(2127.13))
        XCTAssertEqual(h.model.engineBusy[0], dur(70.03 + 54.1))
    }

    func testCPUFallbackWaitsForTheSlowModelLoad() throws {
        var config = DictationConfig.exact
        config.neuralEngineInBackground = false
        var h = DictationHarness(config)
        h.start(0, onsetMs: 0, lengthMs: 500)
        try h.stop(1000)
        h.finish(1000)
        let d = h.dictations[0]
        XCTAssertEqual(d.engine, .cpu)
        XCTAssertEqual(d.modelLoadWait, dur(2797))                  // the model is ready at 3.8 s
        XCTAssertEqual(d.transcriptionStart, ms(3800))
        XCTAssertEqual(h.sessions[0].peakMemoryMegabytes, 88)
        XCTAssertEqual(h.sessions[0].modelLoad, dur(3800))
        XCTAssertEqual(h.model.engineBusy[1], dur(60.03))
    }

    func testStopBeforeTheAppRunsGivesAnEmptyClip() throws {
        var config = DictationConfig.exact
        config.appLaunch = .constant(500)
        var h = DictationHarness(config)
        h.start(0, onsetMs: 0, lengthMs: 100)
        try h.stop(100)                                     // reaches the app (launching) at 103
        h.finish(100)
        let d = h.dictations[0]
        XCTAssertEqual(d.recordingStart, ms(500))
        XCTAssertEqual(d.recordingEnd, ms(500))
        XCTAssertEqual(d.clipLength, .zero)
        XCTAssertEqual(d.clipped, dur(100))
        XCTAssertEqual(d.transcriptionStart, ms(630))
    }

    func testAStartWhileRecordingStopsTheFirstDictation() throws {
        var h = DictationHarness(.exact)
        h.start(0, onsetMs: 0, lengthMs: 500)
        h.start(1000, onsetMs: 0, lengthMs: 500)
        try h.stop(2000)
        h.finish(2000)
        XCTAssertEqual(h.dictations.map(\.stopTap), [ms(1000), ms(2000)])
    }

    func testStopWithoutStartIsAnError() {
        var model = DictationModel(config: .exact, seed: 1, replication: 0)
        XCTAssertThrowsError(try model.tapStop(at: ms(250))) { error in
            XCTAssertEqual(error as? DictationError, .stopWithoutStart(at: ms(250)))
            XCTAssertEqual("\(error)", "dictation.stop at 250.0 ms without a dictation.start before it")
        }
    }

    func testSeedDefaultsGiveShortDictationsIn60To80Milliseconds() throws {
        var h = DictationHarness(DictationConfig(), seed: 7)
        var time = 0.0
        for _ in 0..<200 {
            h.start(time, onsetMs: 300, lengthMs: 2500)
            try h.stop(time + 3000)
            time += 10_000
        }
        h.finish(time)
        let latencies = h.dictations.dropFirst().map(\.stopToText.milliseconds).sorted()
        let median = latencies[latencies.count / 2]
        XCTAssertGreaterThan(median, 60)
        XCTAssertLessThan(median, 80)
        XCTAssertEqual(h.dictations.filter(\.coldStart).count, 1)
        XCTAssertEqual(h.dictations.filter(\.isClipped).count, 0)
    }

    func testSameSeedSameRecordsAndStreamsAreNamed() throws {
        func run(seed: UInt64) throws -> [DictationRecord] {
            var h = DictationHarness(DictationConfig(), seed: seed)
            for i in 0..<20 {
                h.start(Double(i) * 7000, onsetMs: 100, lengthMs: 3000)
                try h.stop(Double(i) * 7000 + 4000)
            }
            h.finish(200_000)
            return h.dictations
        }
        XCTAssertEqual(try run(seed: 3), try run(seed: 3))
        XCTAssertNotEqual(try run(seed: 3), try run(seed: 4))
        var names: [String] = []
        _ = DictationModel(config: DictationConfig()) { names.append($0); return RandomStream(seed: 0, replication: 0, name: $0) }
        XCTAssertEqual(names, DictationModel.streamNames)
    }
}
