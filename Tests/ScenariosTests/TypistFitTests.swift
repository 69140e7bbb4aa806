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

    func testEachBundledTypingTraceResynthesisesFromItsOwnProfile() throws {
        let folder = HumanTypistTests.root.appendingPathComponent("traces")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        var checked = 0
        for name in names {
            var reader = try TraceFileReader(path: folder.appendingPathComponent(name).path)
            var recorded = TypistFitter()
            recorded.begin(reader.header)
            while let event = try reader.nextEvent() { recorded.add(event) }
            let profile = recorded.fit(name: name).profile
            // Dictation traces have too few typed intervals for a distribution to be compared.
            guard recorded.samples(.withinWord).count >= 300 else { continue }
            checked += 1
            let quality = TypistFitQuality.evaluate(recorded, profile: profile, factor: 10)
            XCTAssertLessThan(quality.withinWordDistance!, 0.05, "\(name): KS distance of within-word intervals")
            let words = Double(quality.recording.words)
            let recordedPauses = quality.recording.gapsPer100Words![2], resynthesised = quality.resynthesis.gapsPer100Words![2]
            // Within 10 %, or within one pause of the recording when it has only a few.
            XCTAssertEqual(resynthesised, recordedPauses, accuracy: max(0.1 * recordedPauses, 100 / words),
                           "\(name): pauses over 2 s per 100 words")
        }
        XCTAssertGreaterThanOrEqual(checked, 5, "the bundled typing traces")
    }

    func testKolmogorovSmirnovDistance() {
        XCTAssertEqual(KolmogorovSmirnov.distance([1, 2, 3], [1, 2, 3]), 0)
        XCTAssertEqual(KolmogorovSmirnov.distance([1, 2], [3, 4]), 1)
        XCTAssertEqual(KolmogorovSmirnov.distance([1, 2, 3, 4], [3, 4, 5, 6]), 0.5)
        XCTAssertEqual(KolmogorovSmirnov.distance([5, 5, 5], [5]), 0, "ties step together")
        XCTAssertNil(KolmogorovSmirnov.distance([], [1]))
    }
}
