import Foundation
import XCTest

/// docs/ci.md's GitHub Actions workflow and GitLab CI job run `docs/ci/gate.sh`; this test
/// runs the same script with the keysim just built and checks what a CI job would publish.
final class CIWorkflowTests: XCTestCase {
    func testTheWorkflowsRunTheGateScriptAndItPublishesJUnitAndASummary() throws {
        let root = KeysimProcess.packageRoot
        for file in ["docs/ci/github-actions.yml", "docs/ci/gitlab-ci.yml"] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(text.contains("swift build -c release --product keysim"), file)
            XCTAssertTrue(text.contains("docs/ci/gate.sh"), file)
            XCTAssertTrue(text.contains("keysim-gate/junit.xml"), file)
        }
        let guide = try String(contentsOf: root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        for file in ["docs/ci/github-actions.yml", "docs/ci/gitlab-ci.yml", "docs/ci/gate.sh", "docs/ci/gates.json5"] {
            XCTAssertTrue(guide.contains(file), "docs/ci.md names \(file)")
            // The guide shows each file as it is, so what a reader copies is what this test runs.
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(guide.contains(text.trimmingCharacters(in: .newlines) + "\n```"), "docs/ci.md shows \(file) verbatim")
        }

        let folder = try TemporaryFolder()
        let passing = try script(out: folder.path("pass"), summary: folder.path("pass.md"))
        XCTAssertEqual(passing.status, 0, passing.stderr)
        XCTAssertTrue(passing.stdout.hasPrefix("keysim 0.1.0\n"), passing.stdout)
        let verdict = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("pass/gate.json")))) as? [String: Any])
        XCTAssertEqual(verdict["passed"] as? Bool, true)
        XCTAssertLessThanOrEqual(try XCTUnwrap(verdict["replications"] as? Int), 20)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path("pass/junit.xml")))
        XCTAssertTrue(try String(contentsOfFile: folder.path("pass.md"), encoding: .utf8).hasPrefix("### keysim gate ✅ passed"))

        let failing = try script(out: folder.path("fail"), summary: folder.path("fail.md"),
                                 arguments: ["scenarios/default.json5", "scenarios/checker-on-main.json5"])
        XCTAssertEqual(failing.status, 1, failing.stderr)
        XCTAssertTrue(failing.stderr.contains("keysim gate: failed: "), failing.stderr)
        let junit = try String(contentsOfFile: folder.path("fail/junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("<failure message="), junit)
        XCTAssertTrue(try String(contentsOfFile: folder.path("fail.md"), encoding: .utf8).contains("**FAIL**"))
    }

    /// Runs the gate script as a CI job does, its summary going to `summary` as to
    /// `$GITHUB_STEP_SUMMARY`.
    func script(out: String, summary: String, arguments: [String] = []) throws -> KeysimProcess.Output {
        try runKeysim(["docs/ci/gate.sh"] + arguments,
                      environment: ["KEYSIM": KeysimProcess.executable.path, "KEYSIM_GATE_OUT": out, "GITHUB_STEP_SUMMARY": summary],
                      executable: URL(fileURLWithPath: "/bin/sh"))
    }
}
