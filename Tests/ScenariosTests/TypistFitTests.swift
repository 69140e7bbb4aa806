import Foundation
import XCTest
import Sim
@testable import Scenarios

/// `trace fit`: a profile fitted to a trace synthesised from known parameters gives them
/// back, and a resynthesis from a bundled trace's own fitted profile has its intervals and
/// pauses.
final class TypistFitTests: XCTestCase {
    private func fitter(_ traces: [(TraceHeader, [TraceEvent])]) -> TypistFitter {
        var fitter = TypistFitter()
        for (header, events) in traces {
            fitter.begin(header)
            for event in events { fitter.add(event) }
        }
        fitter.finish()
        return fitter
    }

    private func assertRelative(_ fitted: Double, _ truth: Double, _ tolerance: Double, _ what: String, seed: UInt64,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(fitted, truth, accuracy: abs(truth) * tolerance,
                       "seed \(seed): \(what) fitted \(fitted), true \(truth) (tolerance \(Int(tolerance * 100)) %)", file: file, line: line)
    }

    private func assertAbsolute(_ fitted: Double, _ truth: Double, _ tolerance: Double, _ what: String, seed: UInt64,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(fitted, truth, accuracy: tolerance,
                       "seed \(seed): \(what) fitted \(fitted), true \(truth) (tolerance ±\(tolerance))", file: file, line: line)
    }

    func testFittingASynthesisedTraceRecoversItsParameters() {
        // 2,604 words: about 135 phrase and sentence starts each, so their pause shares have a
        // standard error of about 0.035: the tolerance is under three of them.
        let text = Array(repeating: HumanTypistTests.messagesText, count: 6).joined(separator: "\n")
        let script = SynthScript(segments: [.typed(text)])
        var truth = TypistProfile.chat
        truth.errors.cursorFixShare = 0.5
        truth.suggestions.pickRate = 0.15
        let typist = HumanTypist(profile: truth)
        for seed: UInt64 in 1...3 {
            var fitter = fitter([(TraceHeader(intendedText: typist.intendedText(of: script)), typist.synthesize(script, seed: seed))])
            let fit = fitter.fit(name: "recovered").profile
            for context in [TypistProfile.Context.withinWord, .wordStart, .afterBackspace] {
                assertRelative(fit[context].interval.medianMs, truth[context].interval.medianMs, 0.05, "\(context) median", seed: seed)
                assertRelative(fit[context].interval.sigma, truth[context].interval.sigma, 0.10, "\(context) σ", seed: seed)
                assertAbsolute(fit[context].pauseProbability, truth[context].pauseProbability, 0.015, "\(context) pauses", seed: seed)
            }
            for context in [TypistProfile.Context.phraseStart, .sentenceStart] {
                assertRelative(fit[context].interval.medianMs, truth[context].interval.medianMs, 0.20, "\(context) median", seed: seed)
                assertAbsolute(fit[context].pauseProbability, truth[context].pauseProbability, 0.1, "\(context) pauses", seed: seed)
            }
            assertRelative(fit.pauses.excessMedianMs, truth.pauses.excessMedianMs, 0.30, "pause excess median", seed: seed)
            assertRelative(fit.pauses.shape, truth.pauses.shape, 0.30, "pause shape", seed: seed)
            assertRelative(fit.errors.slipRate, truth.errors.slipRate, 0.15, "slip rate", seed: seed)
            assertAbsolute(fit.errors.noticedInWordShare, truth.errors.noticedInWordShare, 0.08, "noticed in the word", seed: seed)
            assertAbsolute(fit.errors.noticedAfterWordShare, truth.errors.noticedAfterWordShare, 0.08, "noticed after the word", seed: seed)
            assertAbsolute(fit.errors.cursorFixShare, truth.errors.cursorFixShare, 0.2, "cursor fixes", seed: seed)
            assertRelative(fit.suggestions.pickRate, truth.suggestions.pickRate, 0.25, "suggestion picks", seed: seed)
            XCTAssertEqual(fit.suggestions.minimumLength, truth.suggestions.minimumLength, "seed \(seed)")
            XCTAssertTrue(fit.messages.perLine, "seed \(seed)")
            assertRelative(fit.messages.sendDelay.medianMs, truth.messages.sendDelay.medianMs, 0.25, "send delay", seed: seed)
            assertRelative(fit.messages.gap.medianMs, truth.messages.gap.medianMs, 0.6, "message gap", seed: seed)
            assertAbsolute(fit.messages.hideProbability, truth.messages.hideProbability, 0.3, "hides", seed: seed)
            assertAbsolute(fit.touchSpreadPoints, truth.touchSpreadPoints, 0.6, "touch spread", seed: seed)
        }
    }

    func testEveryBundledTraceResynthesisesFromItsOwnProfile() throws {
        let folder = HumanTypistTests.root.appendingPathComponent("traces")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        var small: [String] = []
        for name in names {
            var reader = try TraceFileReader(path: folder.appendingPathComponent(name).path)
            var recorded = TypistFitter()
            recorded.begin(reader.header)
            while let event = try reader.nextEvent() { recorded.add(event) }
            let profile = recorded.fit(name: name).profile
            let quality = TypistFitQuality.evaluate(recorded, profile: profile, factor: 10)
            let n = Double(recorded.samples(.withinWord).count), m = Double(quality.factor) * n
            if n >= 300 {
                XCTAssertLessThan(quality.withinWordDistance!, 0.05, "\(name): KS distance of within-word intervals")
            } else {
                // A few dozen intervals (the dictation traces, the hand-made emoji one) cannot
                // pin a distribution to 0.05: their bound is the test's 95 % critical value.
                small.append(name)
                let critical = 1.36 * ((n + m) / (n * m)).squareRoot()
                XCTAssertLessThan(quality.withinWordDistance!, critical, "\(name): KS distance of within-word intervals (\(Int(n)) of them)")
            }
            let words = Double(quality.recording.words)
            let recordedPauses = quality.recording.gapsPer100Words![2], resynthesised = quality.resynthesis.gapsPer100Words![2]
            // Within 10 %, or within one pause of the recording when it has only a few.
            XCTAssertEqual(resynthesised, recordedPauses, accuracy: max(0.1 * recordedPauses, 100 / words),
                           "\(name): pauses over 2 s per 100 words")
        }
        XCTAssertEqual(small, ["dictation-day.jsonl", "dictation.jsonl", "emoji-typos.jsonl"],
                       "every other bundled trace has enough within-word intervals for the 0.05 bound")
    }

    func testAnEmailIsOneFieldAndDictationsAreDictatedAgain() {
        let email = HumanTypist(profile: .email)
        let text = SynthScript(segments: [.typed(HumanTypistTests.messagesText)])
        var emailFit = fitter([(TraceHeader(intendedText: email.intendedText(of: text)), email.synthesize(text, seed: 2))])
        XCTAssertFalse(emailFit.fit(name: "email").profile.messages.perLine, "a sent field of several lines is an email")

        let dictation = SynthScript.Segment.dictation(audio: "clips/a.wav", transcript: "I will be there soon.", lengthNanos: 2_000_000_000)
        let script = SynthScript(segments: [.typed("Running late, sorry.\n"), dictation, .typed("\nOrder for me? Thanks!")])
        let chat = HumanTypist(profile: .chat)
        for seed: UInt64 in 1...3 {
            var recorded = fitter([(TraceHeader(intendedText: chat.intendedText(of: script)), chat.synthesize(script, seed: seed))])
            XCTAssertEqual(recorded.scripts.count, 3, "seed \(seed)")
            guard recorded.scripts.count == 3, case let .dictation(audio, transcript, length) = recorded.scripts[1].segments.first else {
                return XCTFail("seed \(seed): \(recorded.scripts)")
            }
            XCTAssertEqual(recorded.scripts[0].segments, [.typed("Running late, sorry.")])
            XCTAssertEqual([audio, transcript], ["clips/a.wav", "I will be there soon."])
            XCTAssertEqual(Double(length), 2e9, accuracy: 0.25e9, "seed \(seed): the clip's length, give or take the stop tap")
            XCTAssertTrue(recorded.fit(name: "chat").profile.messages.perLine)
        }
        XCTAssertEqual(TypistFitter.script("Hi. See you soon. Bye", dictated: [dictation]).segments, [.typed("Hi. See you soon. Bye")],
                       "a transcript not in the text is typed")
        XCTAssertEqual(TypistFitter.script("Hi. I will be there soon.", dictated: [dictation]).segments, [.typed("Hi. "), dictation])
    }

    func testAFewPausesGiveTheirMedianWithThePresetsShape() {
        // 90 words of chat: a handful of pauses, too few for a shape, enough for a length.
        let text = try! String(contentsOf: HumanTypistTests.root.appendingPathComponent("traces/text/short-messages.txt"), encoding: .utf8)
        let script = SynthScript(segments: [.typed(text)])
        let typist = HumanTypist(profile: .chat)
        var checked = 0
        for seed: UInt64 in 1...4 {
            var recorded = fitter([(TraceHeader(intendedText: typist.intendedText(of: script)), typist.synthesize(script, seed: seed))])
            let fit = recorded.fit(name: "short")
            let threshold = fit.profile.pauses.thresholdMs
            let excess = TypistProfile.Context.allCases.filter { $0 != .messageStart }.flatMap { recorded.samples($0) }
                .map { Double($0) / 1e6 - threshold }.filter { $0 > 0 }
            guard (1..<10).contains(excess.count) else { continue }
            checked += 1
            XCTAssertEqual(fit.profile.pauses.shape, TypistProfile.copying.pauses.shape, "seed \(seed)")
            XCTAssertEqual(log(fit.profile.pauses.excessMedianMs), excess.map { log($0) }.reduce(0, +) / Double(excess.count),
                           accuracy: 1e-9, "seed \(seed): the geometric mean of the excess")
            // A handful of heavy-tailed pauses: within a factor 2.5 of the truth, not the copying preset's 700 ms.
            let ratio = fit.profile.pauses.excessMedianMs / TypistProfile.chat.pauses.excessMedianMs
            XCTAssertTrue((0.4...2.5).contains(ratio), "seed \(seed): excess median \(fit.profile.pauses.excessMedianMs) ms")
            XCTAssertTrue(fit.notes.contains { $0.hasPrefix("pauses: \(excess.count) pause(s) over \(Int(threshold)) ms, fewer than 10: their median") },
                          "\(fit.notes)")
        }
        XCTAssertGreaterThanOrEqual(checked, 2, "seeds with a handful of pauses")
    }

    func testKolmogorovSmirnovDistance() {
        XCTAssertEqual(KolmogorovSmirnov.distance([1, 2, 3], [1, 2, 3]), 0)
        XCTAssertEqual(KolmogorovSmirnov.distance([1, 2], [3, 4]), 1)
        XCTAssertEqual(KolmogorovSmirnov.distance([1, 2, 3, 4], [3, 4, 5, 6]), 0.5)
        XCTAssertEqual(KolmogorovSmirnov.distance([5, 5, 5], [5]), 0, "ties step together")
        XCTAssertNil(KolmogorovSmirnov.distance([], [1]))
    }
}
