import Foundation
import FuzzHarness
import Scenarios
import Sim
import XCTest

/// Every input in `Fuzz/regressions/TARGET/` (inputs that once crashed or hung keysim, and
/// the cases the fuzz targets were written for) and every seed of the fuzz corpora, through
/// the fuzz targets' own bodies: each must return.
final class FuzzRegressionTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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
        let limit = "out of range (at most 9007199254.740992 ms, about 104 days)"
        let expected = [
            ("largest-double.csv", "largest-double.csv:7:8: error: duration_ms 1.7976931348623157e308 ms is " + limit),
            ("beyond-limit.csv", "beyond-limit.csv:7:8: error: duration_ms 1.2e29 ms is " + limit),
            ("instruments-huge-duration.xml", "instruments-huge-duration.xml:4:68: error: duration 9223372036854775807 ns is " + limit),
            ("signpost-ten-thousand-years.ndjson", "signpost-ten-thousand-years.ndjson:2:111: error: signpost 1 \"lookup\" lasts 253402660739999999 µs since line 1, " + limit),
            ("metrickit-infinite-edge.json", "metrickit-infinite-edge.json:1:226: error: \"bucketStart\" \"1e305 min\" is " + limit),
            ("metrickit-count-total.json", "metrickit-count-total.json:1:221: error: \"bucketCount\" 900000000000 brings \"rerank\" to 1800000000000 durations, out of range (at most 1000000000000)"),
            ("metrickit-point-bucket-count.json", "metrickit-point-bucket-count.json:1:208: error: buckets whose bucketStart equals bucketEnd hold 2000000 durations of \"rerank\", more than the 1000000 kept one by one"),
        ]
        for (name, message) in expected {
            let path = root.appendingPathComponent(calibration + name).path
            XCTAssertThrowsError(try CostInputReader.read(path: path), name) { error in
                XCTAssertEqual((error as? InputError)?.description, root.path + "/" + calibration + message)
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
