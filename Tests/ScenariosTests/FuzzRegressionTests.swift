import Foundation
import FuzzHarness
import Scenarios
import Sim
import XCTest

/// Every input in `Fuzz/regressions/TARGET/` (inputs that once crashed or hung keysim, and
/// the cases the fuzz targets were written for) and every seed of the fuzz corpora, through
/// the fuzz targets' own bodies: each must return.
final class FuzzRegressionTests: XCTestCase {
    private let root = PackageRoot.url

    private func files(_ folder: String, suffix: String = "") throws -> [URL] {
        let url = root.appendingPathComponent(folder)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(suffix) }.sorted { $0.path < $1.path }
    }

    private func replay(_ target: String, _ inputs: [URL]) throws {
        for input in inputs {
            let bytes = try Data(contentsOf: input)
            bytes.withUnsafeBytes { FuzzHarness.run(target, $0) }
        }
    }

    func testEveryRegressionInputReturns() throws {
        var count = 0
        for target in FuzzHarness.targetNames {
            let inputs = try files("Fuzz/regressions/\(target)")
            try replay(target, inputs)
            count += inputs.count
        }
        XCTAssertGreaterThanOrEqual(count, 10)
    }

    func testEverySeedOfTheFuzzCorporaReturns() throws {
        try replay("FuzzJSON5", files("scenarios", suffix: ".json5"))
        try replay("FuzzScenario", files("scenarios", suffix: ".json5"))
        try replay("FuzzTraceLine", files("traces", suffix: ".jsonl"))
        try replay("FuzzZstd", files("dictionaries/source", suffix: ".zst"))
        try replay("FuzzWAV", files("traces/clips", suffix: ".wav"))
        try replay("FuzzCalibration", files("docs/calibration", suffix: ".xml"))
    }

    /// Issue 29's inputs end with their own errors, naming the file, line, column and limit,
    /// and the long word and the header's free text anonymise as they should.
    func testIssue29InputsEndWithTheirErrors() throws {
        let calibration = "Fuzz/regressions/FuzzCalibration/"
        // Each past a limit, in its own format (the CLI tests check the whole messages).
        let refused = ["largest-double.csv", "beyond-limit.csv", "instruments-huge-duration.xml", "signpost-ten-thousand-years.ndjson",
                       "metrickit-infinite-edge.json", "metrickit-count-total.json", "metrickit-point-bucket-count.json"]
        for name in refused {
            let path = root.appendingPathComponent(calibration + name).path
            XCTAssertThrowsError(try CostInputReader.read(path: path), name) { error in
                guard let error = error as? InputError else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual(error.file, path)
                XCTAssertNotNil(error.line, name)
                XCTAssertNotNil(error.column, name)
                XCTAssertTrue(error.message.contains("out of range") || error.message.contains("more than the 1000000"), error.description)
            }
        }
        // The limit itself is a duration.
        let atLimit = try CostInputReader.read(path: root.appendingPathComponent(calibration + "at-limit.csv").path)
        XCTAssertEqual(atLimit.series[0].samplesMs.max(), ValueLimits.durationMsMax)

        // A stop without a start: every reader refuses it as `trace validate` does.
        let stop = root.appendingPathComponent("Fuzz/regressions/FuzzTraceLine/stop-without-start.jsonl").path
        var reader = try TraceFileReader(path: stop)
        XCTAssertThrowsError(try reader.nextEvent().flatMap { _ in try reader.nextEvent() }) { error in
            XCTAssertEqual((error as? InputError)?.description, stop + ":3:1: error: dictation.stop without a dictation.start before it")
        }
        XCTAssertEqual(TraceValidator.validate(path: stop).problems.map(\.description),
                       [stop + ":3:1: error: dictation.stop without a dictation.start before it"])

        // The header's name and source: no word of either survives.
        let header = try TraceFileReader(path: root.appendingPathComponent("Fuzz/regressions/FuzzTraceLine/anonymize-header-free-text.jsonl").path).header
        var anonymizer = TraceAnonymizer(seed: 1, traceDigest: "d")
        let anonymous = anonymizer.anonymize(header)
        XCTAssertEqual(anonymous.source, "anonymized")
        let words = Set(header.name!.split(separator: " ").map { $0.lowercased() })
        XCTAssertTrue(anonymous.name!.split(separator: " ").allSatisfy { !words.contains($0.lowercased()) }, anonymous.name!)
        XCTAssertEqual(anonymous.name!.count, header.name!.count)
    }
}
