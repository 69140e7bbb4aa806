import Foundation
import Scenarios
import XCTest

/// `keysim trace fit` prints, under its table, whether the resynthesis can be told from the
/// recording: the KS test of within-word intervals with its verdict, the shares of intervals
/// over 400 ms and the lag-1 rank correlations.
final class TypistFitFidelityCommandTests: XCTestCase {
    func testTheFitTableEndsWithTheTestsVerdict() throws {
        let folder = try TemporaryFolder()
        let trace = KeysimProcess.packageRoot.appendingPathComponent("traces/chat-session.jsonl").path
        let profile = folder.path("chat.json5")
        let fit = try KeysimProcess.run(["trace", "fit", trace, "--out", profile, "--factor", "3"])
        XCTAssertEqual(fit.status, 0, fit.stderr)
        let lines = fit.stdout.split(separator: "\n").map(String.init)
        guard let first = lines.firstIndex(where: { $0.hasPrefix("  KS distance, within-word intervals: ") }),
              first + 5 < lines.count else { return XCTFail(fit.stdout) }
        XCTAssertTrue(lines[first + 1].hasPrefix("  KS distance, all intervals within messages: "), fit.stdout)
        // chat-session.jsonl has 1,041 within-word intervals, the resynthesis three times as many.
        let test = lines[first + 2]
        XCTAssertTrue(test.hasPrefix("  KS test at 95 %, within-word intervals: distance 0.0"), test)
        XCTAssertTrue(test.contains(", critical 0.0"), test)
        XCTAssertTrue(test.contains("(n 1041, m 3"), test)
        XCTAssertTrue(test.hasSuffix("): pass (cannot be told apart)"), test)
        XCTAssertTrue(lines[first + 3].hasPrefix("  intervals over 400 ms, within words: "), lines[first + 3])
        XCTAssertTrue(lines[first + 3].hasSuffix(" % resynthesis"), lines[first + 3])
        XCTAssertTrue(lines[first + 4].hasPrefix("  intervals over 400 ms, within messages: "), lines[first + 4])
        XCTAssertTrue(lines[first + 5].hasPrefix("  lag-1 rank correlation, within-word intervals: "), lines[first + 5])
        XCTAssertEqual(lines.count, first + 6, "the verdict's lines end the output")
        // The chat preset's trace has no rhythm to find: the profile carries none.
        let written = try String(contentsOfFile: profile, encoding: .utf8)
        XCTAssertFalse(written.contains("rhythm"), written)
        XCTAssertFalse(written.contains("hesitation"), written)
    }
}
