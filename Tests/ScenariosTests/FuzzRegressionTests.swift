import Foundation
import FuzzHarness
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
    }
}
