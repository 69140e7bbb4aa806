import Foundation
import Report
import XCTest

/// The small fleet's report against `Tests/Golden/fleet-digests.txt`, and its `--json`
/// document against `Tests/Golden/json/fleet.json`: a fleet's numbers move only on purpose.
/// `make golden` (KEYSIM_UPDATE_GOLDEN=1) rewrites both; its filter matches these classes.
final class FleetGoldenDigestTests: XCTestCase {
    static let arguments = ["fleet", "scenarios/fleet/small.json5", "--users", "16", "--seed", "42"]
    static var goldenFile: URL { KeysimProcess.packageRoot.appendingPathComponent("Tests/Golden/fleet-digests.txt") }
    static let header = """
        # keysim golden fleet digests: `keysim \(arguments.joined(separator: " "))`
        # one line per report table (scenario, policy -, table): rows and SHA-256 of the rows (tables a fleet leaves empty included).
        # Regenerate with `make golden` only when numbers move on purpose, and say why in the commit.

        """

    func testTheSmallFleetMatchesItsGoldenDigests() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("fleet.sqlite")
        let result = try runKeysim(Self.arguments + ["--jobs", "2", "--db", db])
        XCTAssertEqual(result.status, 0, result.stderr)
        let digest = try ReportRowDigest(database: Database(path: db, readOnly: true, create: false))
        let computed = digest.tables.map { "small - \($0.name) \($0.rows) \($0.digest)" }
        if ProcessInfo.processInfo.environment["KEYSIM_UPDATE_GOLDEN"] == "1" {
            try (Self.header + computed.joined(separator: "\n") + "\n").write(to: Self.goldenFile, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOf: Self.goldenFile, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let differences = GoldenDigestTests.differences(golden: golden, computed: computed)
        XCTAssertTrue(differences.isEmpty, """
            the small fleet's report rows differ from Tests/Golden/fleet-digests.txt (run `make golden` if the change is intended, \
            and say why in the commit message):
            \(differences.joined(separator: "\n"))
            """)
    }
}

/// The small fleet's `--json` document, as `JSONOutputTests` checks the other commands'.
final class FleetJSONOutputTests: XCTestCase {
    func testFleetJSON() throws {
        try JSONOutputTests(name: "testFleetJSON", testClosure: { _ in }).check("fleet.json", FleetGoldenDigestTests.arguments + ["--jobs", "2"])
    }
}
