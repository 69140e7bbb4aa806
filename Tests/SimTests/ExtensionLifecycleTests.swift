import XCTest
@testable import Sim

/// The extension's memory, kills and restarts, language files and device token, on
/// hand-built configurations whose every time is exact.
final class ExtensionLifecycleTests: XCTestCase {
    func exactConfig() -> KeyboardConfig {
        var config = KeyboardConfig()
        config.work[.key]!.cost = .constant(2)
        config.work[.lookup]!.cost = .constant(4)
        config.work[.rerank]!.cost = .constant(20)
        config.work[.draw]!.cost = .constant(1)
        config.work[.check]!.cost = .constant(3)
        config.network.goodRoundTrip = .constant(50)
        config.network.goodLoss = 0
        config.cloud.service = .constant(300)
        config.memory.limitMegabytes = 50
        config.memory.baseMegabytes = 20
        config.memory.dictionaryMegabytes = 0
        config.memory.modelMegabytes = 0
        config.memory.languageFileMegabytes = 7.6
        config.memory.cacheMegabytesPerWord = 10
        config.memory.cacheCapMegabytes = 30
        config.memory.restart = .constant(400)
        return config
    }

    func key(_ ms: Double, _ text: String) -> TraceEvent {
        TraceEvent(time: SimTime(milliseconds: ms), kind: .key(text: text, touchUp: nil, point: nil))
    }

    func event(_ ms: Double, _ kind: TraceEvent.Kind) -> TraceEvent { TraceEvent(time: SimTime(milliseconds: ms), kind: kind) }

    func run(_ config: KeyboardConfig, _ events: [TraceEvent]) throws -> (ObservationBuffer, ReplicationSummary) {
        var source = ArrayTraceSource(events)
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: config, seed: 1, replication: 0, header: TraceHeader(language: "en"))
        let summary = try simulation.run(&source, into: &sink)
        return (sink, summary)
    }

    // MARK: - Memory and kills

    func testTheCacheCrossingTheLimitKillsTheExtensionAtThatInstant() throws {
        var config = exactConfig()
        config.checker.recall = 1
        config.checker.falsePositiveRate = 1
        // Each finished word adds 10 MB to 27.6 MB: the third, landing at 502 ms, makes 57.6 MB > 50.
        let (sink, summary) = try run(config, [key(0, "a"), key(100, " "), key(200, "b"), key(300, " "), key(400, "c"),
                                               key(500, " "), key(600, "d"), key(700, "e")])
        let records = sink.extensionRecords
        XCTAssertEqual(records.kills.count, 1)
        let kill = try XCTUnwrap(records.kills.first)
        XCTAssertEqual(kill.time.milliseconds, 502)
        XCTAssertEqual(kill.footprintMegabytes, 57.6, accuracy: 1e-9)
        XCTAssertEqual(kill.restarted.milliseconds, 902)
        XCTAssertEqual(kill.restartDuration, .milliseconds(400))
        XCTAssertEqual(kill.keysHeld, [6, 7])
        // The chips of "a" and "b" were open; the check of "c" and its suggestion jobs were queued.
        XCTAssertEqual(kill.chipsLost, 2)
        XCTAssertEqual(kill.checksLost, 1)
        XCTAssertEqual(sink.underlines.filter { $0.outcome == .killed }.map(\.end.milliseconds), [502, 502])
        XCTAssertGreaterThanOrEqual(kill.suggestionsLost, 1)
        XCTAssertEqual(sink.suggestions.filter { $0.outcome == .killed }.count, kill.suggestionsLost)
        XCTAssertEqual(records.memory.map(\.event), [.start, .load, .grow, .grow, .grow, .kill, .restart, .load])
        XCTAssertEqual(records.memory.first { $0.event == .kill }?.footprintMegabytes, 0)
        XCTAssertEqual(records.totals.peakFootprintMegabytes, 57.6, accuracy: 1e-9)
        // Keys touched during the restart are handled after it, in order; the text is whole.
        let held = sink.keys.filter { $0.index >= 6 }
        XCTAssertEqual(held.map(\.inserted.milliseconds), [904, 906])
        XCTAssertEqual(held.map(\.latency.milliseconds), [304, 206])
        XCTAssertEqual(summary.characters, 8)
        XCTAssertEqual(sink.keys.count, 8)
    }

    func testAKeyTouchedAtTheKillWaitsExactlyTheRestartTime() throws {
        var config = exactConfig()
        config.memory.cacheMegabytesPerWord = 30   // the first word kills: 20 + 7.6 + 30 > 50
        config.memory.restart = .constant(750)
        // " " lands at 102 ms and kills; "x" is touched at that instant, after the kill.
        let (sink, _) = try run(config, [key(0, "a"), key(100, " "), key(102.5, "x")])
        let kill = try XCTUnwrap(sink.extensionRecords.kills.first)
        XCTAssertEqual(kill.time.milliseconds, 102)
        XCTAssertEqual(kill.restarted.milliseconds, 852)
        let x = try XCTUnwrap(sink.keys.first { $0.index == 2 })
        XCTAssertEqual(x.start.milliseconds, 852)
        XCTAssertEqual(x.latency, .milliseconds(750) + .milliseconds(2) - SimDuration(milliseconds: 0.5))
    }

    func testAKillAbandonsRequestsInFlightAndNothingIsLeftPending() throws {
        var config = exactConfig()
        config.debounce = .fixed(delay: .milliseconds(10))
        config.memory.cacheMegabytesPerWord = 1
        config.cloud.service = .constant(5000)
        config.network.timeout = .milliseconds(10_000)
        // Requests go out 10 ms after each edit and take 5 s; the 23rd word (23 MB of cache) kills.
        var events: [TraceEvent] = []
        for i in 0..<24 { events += [key(Double(i) * 200, "w"), key(Double(i) * 200 + 100, " ")] }
        let (sink, _) = try run(config, events)
        let kill = try XCTUnwrap(sink.extensionRecords.kills.first)
        XCTAssertGreaterThan(kill.requestsAbandoned, 0)
        XCTAssertEqual(sink.requests.filter { $0.outcome == .killed }.count, kill.requestsAbandoned)
        XCTAssertTrue(sink.requests.filter { $0.outcome == .killed }.allSatisfy { $0.end == kill.time })
        // The text they carried goes again with the next request after the restart.
        XCTAssertTrue(sink.requests.contains { $0.sent > kill.restarted && $0.outcome == .answered })
    }

    func testTheDefaultMemoryKeepsAnEnglishKeyboardUnderTheLimit() {
        let memory = MemoryConfig()
        let full = memory.baseMegabytes + memory.dictionaryMegabytes + memory.modelMegabytes + memory.languageFileMegabytes
            + memory.cacheCapMegabytes
        XCTAssertLessThan(full, memory.limitMegabytes)
        XCTAssertGreaterThan(full + memory.languageFileMegabytes, memory.limitMegabytes, "a second language file must not fit")
        XCTAssertEqual(memory.problems, [])
        var tight = memory
        tight.limitMegabytes = 40
        XCTAssertEqual(tight.problems.count, 1)
    }

    // MARK: - Language files

    /// ru: 8000 bytes over 64 kbit/s (8000 B/s) after a 50 ms round trip: a 1.05 s download.
    func languageConfig(verify: Bool) -> KeyboardConfig {
        var config = exactConfig()
        config.memory.cacheMegabytesPerWord = 0
        config.languages.manifest = [LanguageFileEntry(language: "ru", sizeBytes: 8000)]
        config.languages.goodKilobitsPerSecond = 64
        config.languages.verify = verify
        return config
    }

    func testASwitchDownloadsTheFileAndLoadingItOverTheLimitKills() throws {
        var config = languageConfig(verify: true)
        config.memory.limitMegabytes = 30   // en 27.6; with ru kept beside it 35.2
        let (sink, _) = try run(config, [key(0, "a"), event(1000, .languageSwitch(language: "ru")), key(3000, "b")])
        let records = sink.extensionRecords
        XCTAssertEqual(records.downloads.map(\.outcome), [.complete])
        XCTAssertEqual(records.downloads.first?.end.milliseconds, 2050)
        XCTAssertEqual(records.downloads.first?.bytes, 8000)
        XCTAssertEqual(records.loads.map(\.outcome), [.bundled, .missing, .loaded, .loaded])
        XCTAssertEqual(records.loads.map(\.language), ["en", "ru", "ru", "ru"])
        XCTAssertEqual(records.kills.map(\.time.milliseconds), [2050])
        XCTAssertEqual(records.kills.first?.footprintMegabytes ?? 0, 35.2, accuracy: 1e-9)
        // After the restart only the current language is loaded, from the verified file.
        XCTAssertEqual(records.loads.last?.outcome, .loaded)
        XCTAssertEqual(records.memory.last?.footprintMegabytes ?? 0, 27.6, accuracy: 1e-9)
    }

    func testEvictingThePreviousLanguageAvoidsTheKill() throws {
        var config = languageConfig(verify: true)
        config.memory.limitMegabytes = 30
        config.memory.keepPreviousLanguage = false
        let (sink, _) = try run(config, [key(0, "a"), event(1000, .languageSwitch(language: "ru")), key(3000, "b")])
        let records = sink.extensionRecords
        XCTAssertEqual(records.kills, [])
        XCTAssertEqual(records.memory.map(\.event), [.start, .load, .evict, .load])
        XCTAssertEqual(records.memory.map(\.footprintMegabytes), [20, 27.6, 20, 27.6])
    }

    /// Switch to ru at 1 s; the network drops at 1.55 s (4000 of 8000 bytes on disk); back to
    /// en, then ru again at 2 s: the partial file is loaded.
    func interruptedDownload(verify: Bool) throws -> ObservationBuffer {
        let events = [key(0, "a"), event(1000, .languageSwitch(language: "ru")), event(1550, .network(.offline)),
                      event(1600, .network(.online)), event(1700, .languageSwitch(language: "en")),
                      event(2000, .languageSwitch(language: "ru")), key(2100, "b"), key(2200, " "), key(2300, "c")]
        return try run(languageConfig(verify: verify), events).0
    }

    func testVerificationDetectsThePartialFileAndDownloadsAgain() throws {
        let records = try interruptedDownload(verify: true).extensionRecords
        XCTAssertEqual(records.downloads.map(\.outcome), [.offline, .complete])
        XCTAssertEqual(records.downloads.map(\.bytes), [4000, 8000])
        XCTAssertEqual(records.downloads.last?.start.milliseconds, 2000)
        XCTAssertEqual(records.downloads.last?.end.milliseconds, 3050)
        XCTAssertEqual(records.loads.map(\.outcome), [.bundled, .missing, .rejected, .loaded])
        XCTAssertEqual(records.loads[2].bytesOnDisk, 4000)
        XCTAssertEqual(records.corruptLoads, 0)
        XCTAssertEqual(records.verificationFailures, 1)
        XCTAssertEqual(records.totals.silentlyWrongSuggestions, 0)
        XCTAssertEqual(records.totals.silentlyWrongChecks, 0)
    }

    func testWithoutVerificationTheCorruptModelIsLoadedAndSilentlyWrong() throws {
        let sink = try interruptedDownload(verify: false)
        let records = sink.extensionRecords
        XCTAssertEqual(records.downloads.map(\.outcome), [.offline])
        XCTAssertEqual(records.loads.map(\.outcome), [.bundled, .missing, .corrupt])
        XCTAssertEqual(records.corruptLoads, 1)
        XCTAssertEqual(records.verificationFailures, 0)
        // Every suggestion bar after the corrupt load came from the corrupt model.
        let shownAfter = sink.suggestions.filter { $0.outcome == .shown && $0.touch.milliseconds >= 2000 }.count
        XCTAssertGreaterThan(shownAfter, 0)
        XCTAssertEqual(records.totals.silentlyWrongSuggestions, shownAfter)
        XCTAssertEqual(records.totals.silentlyWrongChecks, 1)
    }

    func testAKillInterruptsADownloadLeavingAPartialFile() throws {
        var config = languageConfig(verify: true)
        config.memory.cacheMegabytesPerWord = 30   // the first word kills
        let (sink, _) = try run(config, [event(1000, .languageSwitch(language: "ru")), key(1300, "a"), key(1400, " ")])
        let records = sink.extensionRecords
        XCTAssertEqual(records.kills.map(\.time.milliseconds), [1402])
        XCTAssertEqual(records.kills.first?.downloadsInterrupted, 1)
        XCTAssertEqual(records.downloads.first?.outcome, .killed)
        XCTAssertEqual(records.downloads.first?.bytes, 2816)   // 352 ms × 8000 B/s
        // The restart loads ru: the partial file fails verification and is downloaded again.
        XCTAssertEqual(records.loads.map(\.outcome), [.bundled, .missing, .rejected, .loaded])
        XCTAssertEqual(records.downloads.last?.outcome, .complete)
    }

    func testTheModelledContentDigestIsARealSHA256() {
        // No bytes: the stand-in is just the length, eight zero bytes.
        XCTAssertEqual(LanguageFileContent.digest(language: "ru", bytes: 0), SHA256.hex([UInt8](repeating: 0, count: 8)))
        let entry = LanguageFileEntry(language: "ru", sizeBytes: 7_969_177)
        XCTAssertEqual(entry.sha256, LanguageFileContent.digest(language: "ru", bytes: 7_969_177))
        XCTAssertTrue(LanguageFileContent.isDigest(entry.sha256))
        XCTAssertEqual(entry.sha256, "c948b215ffc50d101e2914daf8fb0b6ddde1eb2109d814e43fafd291f3a39ebd")
        XCTAssertNotEqual(LanguageFileContent.digest(language: "ru", bytes: 7_969_176), entry.sha256)
        XCTAssertNotEqual(LanguageFileContent.digest(language: "ru", bytes: 4096), LanguageFileContent.digest(language: "ru", bytes: 4095))
        XCTAssertNotEqual(LanguageFileContent.digest(language: "de", bytes: 7_969_177), entry.sha256)
    }

    // MARK: - Device token

    func tokenConfig(refreshMs: Double) -> DeviceTokenConfig {
        var token = DeviceTokenConfig()
        token.enabled = true
        token.rotationPeriod = .milliseconds(10_000)
        token.grace = .milliseconds(1_000)
        token.refresh = .constant(refreshMs)
        return token
    }

    func testTheServerAcceptsTheOldTokenExactlyUntilTheGraceWindowEnds() {
        var model = DeviceTokenModel(config: tokenConfig(refreshMs: 3000), refreshDelays: RandomStream(seed: 1, replication: 0, name: "t"),
                                     tokenPrefix: "test/")
        func at(_ ns: Int64) -> DeviceTokenModel.Verdict { model.check(at: SimTime(nanoseconds: ns)) }
        XCTAssertEqual(at(9_999_999_999), .accepted)
        XCTAssertEqual(at(10_000_000_000), .accepted)            // rotated; the old token is in grace
        XCTAssertEqual(at(10_999_999_999), .accepted)
        XCTAssertEqual(at(11_000_000_000), .expired(keyboard: 0, server: 1))
        XCTAssertEqual(at(12_999_999_999), .expired(keyboard: 0, server: 1))
        XCTAssertEqual(at(13_000_000_000), .accepted)            // the app refreshed the token
        XCTAssertEqual(model.refreshed(at: SimTime(milliseconds: 11_500)).milliseconds, 13_000)
        XCTAssertEqual(model.keyboardGeneration(at: SimTime(milliseconds: 25_000)), 2)

        var quick = DeviceTokenModel(config: tokenConfig(refreshMs: 500), refreshDelays: RandomStream(seed: 1, replication: 0, name: "t"),
                                     tokenPrefix: "test/")
        for ms in stride(from: 0.0, to: 60_000, by: 250) { XCTAssertEqual(quick.check(at: SimTime(milliseconds: ms)), .accepted) }
    }

    func testARejectedRequestWaitsForTheRefreshAndRetries() throws {
        var config = exactConfig()
        config.debounce = .fixed(delay: .milliseconds(100))
        config.token = tokenConfig(refreshMs: 3000)
        // The request leaves at 11502 ms with generation 0, out of grace since 11 s.
        let (sink, _) = try run(config, [key(11_400, "a ")])
        let rejection = try XCTUnwrap(sink.extensionRecords.tokenRejections.first)
        XCTAssertEqual(sink.extensionRecords.tokenRejections.count, 1)
        XCTAssertEqual(rejection.reason, .expired)
        XCTAssertEqual(rejection.attempt.milliseconds, 11_502)
        XCTAssertEqual(rejection.rejected.milliseconds, 11_552)
        XCTAssertEqual(rejection.retry?.milliseconds, 13_000)
        XCTAssertEqual(rejection.added, .milliseconds(1_498))
        let request = try XCTUnwrap(sink.requests.first)
        XCTAssertEqual(request.outcome, .answered)
        XCTAssertEqual(request.attempts, 1)
        XCTAssertEqual(request.end.milliseconds, 13_350)
        XCTAssertEqual(request.roundTrip, .milliseconds(1_848))
    }

    func testAfterLogoutEveryRequestFailsAndNoneSucceeds() throws {
        var config = exactConfig()
        config.debounce = .fixed(delay: .milliseconds(100))
        config.token = tokenConfig(refreshMs: 500)
        config.token.logoutAt = SimTime(milliseconds: 5_000)
        config.memory.cacheMegabytesPerWord = 0   // no kill: every word is its own request
        let (sink, _) = try run(config, [key(1_000, "a "), key(6_000, "b "), key(7_000, "c "), key(12_000, "d ")])
        let logout = SimTime(milliseconds: 5_000)
        XCTAssertEqual(sink.requests.filter { $0.sent < logout }.map(\.outcome), [.answered])
        let after = sink.requests.filter { $0.sent >= logout }
        XCTAssertEqual(after.count, 3)
        XCTAssertTrue(after.allSatisfy { $0.outcome == .revoked })
        XCTAssertEqual(sink.extensionRecords.tokenRejections.map(\.reason), [.revoked, .revoked, .revoked])
        XCTAssertTrue(sink.extensionRecords.tokenRejections.allSatisfy { $0.retry == nil })
    }

    func testTheTokenModelOffChangesNothing() throws {
        let events = [key(0, "H"), key(100, "i"), key(200, "."), key(800, " "), key(900, "o"), key(1000, "k")]
        var off = exactConfig()
        off.memory = MemoryConfig()
        var on = off
        on.token = tokenConfig(refreshMs: 500)
        let (a, _) = try run(off, events)
        let (b, _) = try run(on, events)
        XCTAssertEqual(a.requests, b.requests)
        XCTAssertEqual(a.keys, b.keys)
        XCTAssertEqual(b.extensionRecords.tokenRejections, [])
    }
}
