import Foundation
import Report
import Scenarios
import XCTest

/// Every bundled scenario, under each of its policies, against the digests checked in at
/// `Tests/Golden/report-digests.txt`: numbers move only on purpose.
///
/// A change that moves a number fails here, naming each scenario, policy and table whose
/// rows changed. When the move is intended, `make golden` rewrites the file, and the commit
/// that changes the numbers carries the new digests and says why.
final class GoldenDigestTests: XCTestCase {
    static let seed = 42
    static let replications = 2
    static var goldenFile: URL { KeysimProcess.packageRoot.appendingPathComponent("Tests/Golden/report-digests.txt") }

    func testEveryBundledScenarioMatchesItsGoldenDigests() throws {
        let computed = try Self.computeDigestLines()
        if ProcessInfo.processInfo.environment["KEYSIM_UPDATE_GOLDEN"] == "1" {
            try (Self.header + computed.joined(separator: "\n") + "\n").write(to: Self.goldenFile, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOf: Self.goldenFile, encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let differences = Self.differences(golden: golden, computed: computed)
        XCTAssertTrue(differences.isEmpty, """
            report rows differ from Tests/Golden/report-digests.txt (run `make golden` if the change is intended, \
            and say why in the commit message):
            \(differences.joined(separator: "\n"))
            """)
    }

    /// The digest file's header: how its lines were made.
    static let header = """
        # keysim golden report digests: `keysim run SCENARIO [--policy P] --seed \(seed) --replications \(replications)` (--detail full)
        # one line per scenario, policy (- for none) and report table: rows and SHA-256 of the rows.
        # Regenerate with `make golden` only when numbers move on purpose, and say why in the commit.

        """

    /// One line per (scenario, policy, table), in file and policy order.
    static func computeDigestLines() throws -> [String] {
        let folder = try TemporaryFolder()
        let scenarioFolder = KeysimProcess.packageRoot.appendingPathComponent("scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: scenarioFolder.path)
            .filter { $0.hasSuffix(".json5") }.sorted()
        var lines: [String] = []
        for file in files {
            let path = "scenarios/\(file)"
            let scenario = try ScenarioLoader.load(path: KeysimProcess.packageRoot.appendingPathComponent(path).path)
            for policy in [nil] + scenario.policyNames.map(Optional.some) {
                let db = folder.path("\(file)-\(policy ?? "-").sqlite")
                var arguments = ["run", path, "--seed", String(seed), "--replications", String(replications), "--detail", "full", "--db", db]
                if let policy { arguments += ["--policy", policy] }
                let output = try KeysimProcess.run(arguments)
                XCTAssertTrue(output.status == 0 || output.status == 1, "keysim \(arguments.joined(separator: " ")): \(output.stderr)")
                let digest = try ReportRowDigest(database: Database(path: db, readOnly: true, create: false))
                for table in digest.tables {
                    lines.append("\(file.dropLast(6)) \(policy ?? "-") \(table.name) \(table.rows) \(table.digest)")
                }
            }
        }
        return lines
    }

    /// Lines that differ, keyed by scenario, policy and table, with both row counts.
    static func differences(golden: [String], computed: [String]) -> [String] {
        func keyed(_ lines: [String]) -> [String: (rows: String, digest: String)] {
            var result: [String: (rows: String, digest: String)] = [:]
            for line in lines {
                let fields = line.split(separator: " ").map(String.init)
                guard fields.count == 5 else { continue }
                result[fields[0...2].joined(separator: " ")] = (fields[3], fields[4])
            }
            return result
        }
        let old = keyed(golden), new = keyed(computed)
        var differences: [String] = []
        for key in Set(old.keys).union(new.keys).sorted() {
            switch (old[key], new[key]) {
            case let (.some(before), .some(after)) where before.digest != after.digest:
                differences.append("  \(key): \(before.rows) rows -> \(after.rows) rows, digest changed")
            case (.some, .none): differences.append("  \(key): in the golden file, not produced any more")
            case (.none, .some): differences.append("  \(key): produced, not in the golden file")
            default: break
            }
        }
        return differences
    }
}

final class GoldenDigestDifferenceTests: XCTestCase {
    func testDifferencesNameEveryMovedMissingAndNewTable() {
        let golden = ["default - keys 10 aaa", "default - requests 3 bbb", "default - fixes 0 ccc"]
        let computed = ["default - keys 10 aaa", "default - requests 4 ddd", "default - words 2 eee"]
        XCTAssertEqual(GoldenDigestTests.differences(golden: golden, computed: computed), [
            "  default - fixes: in the golden file, not produced any more",
            "  default - requests: 3 rows -> 4 rows, digest changed",
            "  default - words: produced, not in the golden file",
        ])
    }
}
