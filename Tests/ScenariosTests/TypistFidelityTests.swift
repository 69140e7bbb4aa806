import Foundation
import XCTest
import Sim
@testable import Scenarios

/// A typist fitted to a copy-typing recording resynthesises it so that the two-sample KS test
/// of within-word intervals cannot tell them apart, with the recording's share of intervals
/// over 400 ms and its lag-1 correlation. The recordings come from `CopyTypingRecording`, a
/// generative model unlike keysim's typist (a fixed effect per letter pair, additive
/// position effects, an AR(1) over every interval, additive gamma hesitations), written in
/// the 136M Keystrokes format and read through the importer, as `trace import` and `trace fit`
/// would.
final class TypistFidelityTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory(prefix: "keysim-fidelity") }
    override func tearDown() { directory = nil }

    /// The fitter after reading the recording of participant `seed`: twelve sentences of the
    /// bundled English text, from a place that moves with the seed; `typedBy` other seeds
    /// type the same sentences into the same fitter, one trace each.
    private func recording(seed: UInt64, typedBy seeds: [UInt64]? = nil,
                           model: CopyTypingRecording = CopyTypingRecording()) throws -> TypistFitter {
        let all = CopyTypingRecording.sentences(root: HumanTypistTests.root)
        let sentences = (0..<12).map { all[($0 + Int(seed) * 5) % all.count] }
        var fitter = TypistFitter()
        for typist in seeds ?? [seed] {
            let path = directory.path("participant-\(seed)-\(typist).txt")
            try model.table(sentences, seed: typist).write(toFile: path, atomically: true, encoding: .utf8)
            let conversion = try Aalto136MImporter.convert(path: path)
            XCTAssertTrue(conversion.mismatches.isEmpty, "seed \(typist): every section rebuilds its input")
            fitter.begin(conversion.header)
            for event in conversion.events { fitter.add(event) }
        }
        fitter.finish()
        return fitter
    }

    func testAFittedTypistCannotBeToldFromItsRecordingByTheKSTest() throws {
        // Each test is at the 5 % level. The recordings' intervals are serially correlated,
        // which widens the distance's spread beyond the independent draws the critical value
        // assumes, while the fitted pair effects pull the resynthesis towards its own
        // recording: over 20 seeds, ten more recordings from the generator itself failed the
        // test once against a recording (5 %), the fit never. So of 12 seeds at most 2 may
        // fail (with a 10 % false-rejection rate, 3 or more fail 11 % of the time).
        let seeds: [UInt64] = Array(1...12)
        var failures: [String] = []
        var lagRecorded: [Double] = [], lagResynthesised: [Double] = []
        for seed in seeds {
            var recorded = try recording(seed: seed)
            let fit = recorded.fit(name: "participant")
            let quality = TypistFitQuality.evaluate(recorded, profile: fit.profile, factor: 10, seed: seed)
            let fidelity = quality.fidelity
            let test = try XCTUnwrap(fidelity.withinWordTest, "seed \(seed)")
            XCTAssertGreaterThan(test.n, 500, "seed \(seed): within-word intervals of twelve sentences")
            XCTAssertEqual(Double(test.m), Double(10 * test.n), accuracy: Double(test.n), "seed \(seed): ten resyntheses")
            if !test.passes { failures.append("seed \(seed): distance \(test.distance) over \(test.critical)") }

            // The share over 400 ms: within three standard errors of a difference of two
            // proportions, widened by half for the serial correlation.
            for (what, pair, n, m) in [("within words", fidelity.withinWordOver400, test.n, test.m),
                                       ("within messages", fidelity.withinMessagesOver400, 0, 0)] {
                let shares = try XCTUnwrap(pair, "seed \(seed)")
                let p = (shares.recording + shares.resynthesis) / 2
                let sizes = n > 0 ? (Double(n), Double(m)) : withinMessageSizes(recorded, quality.factor)
                let error = 1.5 * (p * (1 - p) * (1 / sizes.0 + 1 / sizes.1)).squareRoot()
                XCTAssertEqual(shares.resynthesis, shares.recording, accuracy: 3 * error,
                               "seed \(seed): share of intervals over 400 ms \(what)")
            }
            let lag = try XCTUnwrap(fidelity.lagOneCorrelation, "seed \(seed)")
            // A rank correlation of about 600 pairs has a standard error of about 0.04.
            XCTAssertEqual(lag.resynthesis, lag.recording, accuracy: 0.15, "seed \(seed): lag-1 rank correlation")
            lagRecorded.append(lag.recording)
            lagResynthesised.append(lag.resynthesis)

            // What the fit found: the generator's kinds of pair, hesitations, serial coupling.
            let rhythm = try XCTUnwrap(fit.profile.rhythm, "seed \(seed): the data supports a rhythm")
            XCTAssertGreaterThan(rhythm.serialCorrelation, 0.1, "seed \(seed): the AR(1) shows through")
            let kinds = Dictionary(uniqueKeysWithValues: zip(TypistRhythm.classNames, rhythm.classMultipliers))
            XCTAssertLessThan(kinds["repeated"]!, kinds["alternating"]!, "seed \(seed): \(kinds)")
            XCTAssertGreaterThan(kinds["sameFinger"]!, kinds["sameHand"]!, "seed \(seed): \(kinds)")
            let hesitation = try XCTUnwrap(fit.profile[.withinWord].hesitation, "seed \(seed): a hesitation component")
            XCTAssertTrue((0.02...0.15).contains(hesitation.share), "seed \(seed): hesitation share \(hesitation.share)")
        }
        XCTAssertLessThanOrEqual(failures.count, 2, failures.joined(separator: "\n"))
        // Over the seeds the correlation is clearly there, and the resynthesis has it.
        let meanRecorded = lagRecorded.reduce(0, +) / Double(seeds.count)
        let meanResynthesised = lagResynthesised.reduce(0, +) / Double(seeds.count)
        XCTAssertGreaterThan(meanRecorded, 0.05, "the recordings' lag-1 rank correlation")
        XCTAssertEqual(meanResynthesised, meanRecorded, accuracy: 0.04, "mean lag-1 rank correlation over \(seeds.count) seeds")
    }

    func testKeysDownInTheSameMillisecondLeaveTheRhythmAlone() throws {
        // A coarse clock records some rollovers as 0 ms: the rhythm leaves them out, so they
        // do not drag the hesitations down to cover them.
        var model = CopyTypingRecording()
        model.sameMillisecondShare = 0.01
        for seed: UInt64 in 1...3 {
            var recorded = try recording(seed: seed, model: model)
            XCTAssertGreaterThan(recorded.samples(.withinWord).filter { $0 == 0 }.count, 2, "seed \(seed): some 0 ms intervals")
            let fit = recorded.fit(name: "participant").profile
            let hesitation = try XCTUnwrap(fit[.withinWord].hesitation, "seed \(seed)")
            XCTAssertTrue((0.02...0.15).contains(hesitation.share), "seed \(seed): hesitation share \(hesitation.share)")
            XCTAssertGreaterThan(hesitation.medianMs, 300, "seed \(seed): hesitations are slow")
            XCTAssertEqual(fit[.withinWord].interval.medianMs, 165, accuracy: 25, "seed \(seed): the generator's base")
            let quality = TypistFitQuality.evaluate(recorded, profile: fit, factor: 10, seed: seed)
            XCTAssertEqual(quality.fidelity.passes, true, "seed \(seed): \(quality.fidelity.lines)")
        }
    }

    /// The table of "How good is the fit" in `docs/trace-format.md`: 20 recordings fitted
    /// without the rhythm (as before it existed) and with it, and ten more recordings of each
    /// one's sentences by the generator itself. Slow (a minute and more): run on demand with
    /// `KEYSIM_FIDELITY_TABLE=1 swift test --filter TypistFidelityTests`.
    func testTheTableOfTheFitBeforeAndAfterTheRhythm() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["KEYSIM_FIDELITY_TABLE"] == "1",
                          "set KEYSIM_FIDELITY_TABLE=1 to print the documentation's table")
        var rows: [String: [TypistFitQuality.Fidelity]] = [:]
        for seed: UInt64 in 1...20 {
            var recorded = try recording(seed: seed)
            var before = recorded
            let old = before.fit(name: "before", rhythm: false).profile
            let new = recorded.fit(name: "after").profile
            rows["before", default: []].append(TypistFitQuality.evaluate(recorded, profile: old, factor: 10, seed: 1).fidelity)
            rows["after", default: []].append(TypistFitQuality.evaluate(recorded, profile: new, factor: 10, seed: 1).fidelity)
            let generator = try recording(seed: seed, typedBy: (0..<10).map { 1000 * seed + $0 })
            rows["generator", default: []].append(TypistFitQuality.Fidelity(recorded: recorded, resynthesised: generator))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2 - 1] / 2 + values.sorted()[values.count / 2] / 2 }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
        let recording = rows["after"]!
        print(String(format: "| recording | | | %.2f %% | %.3f |", 100 * mean(recording.map { $0.withinWordOver400!.recording }),
                     mean(recording.map { $0.lagOneCorrelation!.recording })))
        for (name, key) in [("fit without rhythm (before)", "before"), ("fit with rhythm", "after"),
                            ("the generator itself (10 more recordings)", "generator")] {
            let fidelities = rows[key]!
            print(String(format: "| %@ | %.4f | %d of 20 | %.2f %% | %.3f |", name, median(fidelities.map { $0.withinWordTest!.distance }),
                         fidelities.filter { $0.passes == false }.count, 100 * mean(fidelities.map { $0.withinWordOver400!.resynthesis }),
                         mean(fidelities.map { $0.lagOneCorrelation!.resynthesis })))
        }
        let critical = recording.map { $0.withinWordTest!.critical }
        print(String(format: "critical values %.3f–%.3f", critical.min()!, critical.max()!))
    }

    /// The numbers of intervals within messages, recording and resynthesis.
    private func withinMessageSizes(_ recorded: TypistFitter, _ factor: Int) -> (Double, Double) {
        let contexts = TypistProfile.Context.allCases.filter { $0 != .messageStart }
        let n = Double(contexts.reduce(0) { $0 + recorded.samples($1).count })
        return (n, n * Double(factor))
    }
}
