import Foundation
import XCTest

/// docs/ci.md's GitHub Actions workflow and GitLab CI job run `docs/ci/gate.sh`; this test
/// reads both files as YAML, runs the same script with the keysim just built, checks what a CI
/// job would publish (the JUnit file against its schema), and runs the guide's device gate.
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
        // What the reporters read is what they accept.
        PythonScript.validateJUnit([folder.path("pass/junit.xml"), folder.path("fail/junit.xml")])
    }

    /// GitHub Actions: least permissions the JUnit reporter needs, one gate per ref, a timeout,
    /// and the build cached per toolchain, manifest and sources, skipped on an exact hit.
    func testTheGitHubWorkflowHasPermissionsConcurrencyATimeoutAndABuildCache() throws {
        let workflow = try yaml("docs/ci/github-actions.yml")
        XCTAssertEqual(workflow["permissions"] as? [String: String], ["contents": "read", "checks": "write", "pull-requests": "write"])
        XCTAssertNotNil((workflow["on"] as? [String: Any])?["pull_request"] as Any?)
        let concurrency = try XCTUnwrap(workflow["concurrency"] as? [String: Any])
        XCTAssertEqual(concurrency["group"] as? String, "keysim-gate-${{ github.ref }}")
        XCTAssertEqual(concurrency["cancel-in-progress"] as? Bool, true)
        let job = try XCTUnwrap((workflow["jobs"] as? [String: Any])?["gate"] as? [String: Any])
        XCTAssertEqual(job["timeout-minutes"] as? Int, 45)
        let steps = try XCTUnwrap(job["steps"] as? [[String: Any]])
        func index(_ match: ([String: Any]) -> Bool) throws -> Int { try XCTUnwrap(steps.firstIndex(where: match)) }
        let version = try index { $0["id"] as? String == "swift" }
        XCTAssertTrue((steps[version]["run"] as? String)?.contains("swift --version") ?? false)
        let cache = try index { $0["uses"] as? String == "actions/cache@v4" }
        let with = try XCTUnwrap(steps[cache]["with"] as? [String: String])
        XCTAssertEqual(with["path"], ".build")
        let prefix = "keysim-${{ runner.os }}-${{ steps.swift.outputs.version }}-${{ hashFiles('Package.swift', 'Package.resolved') }}-"
        XCTAssertEqual(with["key"], prefix + "${{ hashFiles('Sources/**') }}")
        XCTAssertEqual(with["restore-keys"], prefix)
        let build = try index { ($0["run"] as? String) == "swift build -c release --product keysim" }
        XCTAssertEqual(steps[build]["if"] as? String, "steps.cache.outputs.cache-hit != 'true'")
        let gate = try index { ($0["run"] as? String) == "docs/ci/gate.sh" }
        let publish = try index { ($0["uses"] as? String)?.hasPrefix("mikepenz/action-junit-report@") ?? false }
        XCTAssertTrue((steps[publish]["if"] as? String)?.contains("github.event.pull_request.head.repo.full_name == github.repository") ?? false)
        XCTAssertEqual((steps[publish]["with"] as? [String: Any])?["comment"] as? Bool, true, "the comment is what pull-requests: write is for")
        XCTAssertEqual([version, cache, build, gate, publish], [version, cache, build, gate, publish].sorted(), "steps in order")
    }

    /// GitLab CI: the same settings in GitLab's words.
    func testTheGitLabJobHasATimeoutInterruptionAndABuildCache() throws {
        let pipeline = try yaml("docs/ci/gitlab-ci.yml")
        XCTAssertEqual(((pipeline["workflow"] as? [String: Any])?["auto_cancel"] as? [String: String])?["on_new_commit"], "interruptible")
        let job = try XCTUnwrap(pipeline["keysim-gate"] as? [String: Any])
        XCTAssertEqual(job["timeout"] as? String, "45 minutes")
        XCTAssertEqual(job["interruptible"] as? Bool, true)
        let cache = try XCTUnwrap(job["cache"] as? [String: Any])
        XCTAssertEqual(cache["paths"] as? [String], [".build/"])
        XCTAssertEqual((cache["key"] as? [String: Any])?["files"] as? [String], ["Package.swift", "Package.resolved"])
        XCTAssertEqual((cache["key"] as? [String: Any])?["prefix"] as? String, "swift-6.3")
        let script = try XCTUnwrap(job["script"] as? [String])
        XCTAssertTrue(script.contains { $0.contains("swift build -c release --product keysim") && $0.contains(".build/keysim-sources") })
        XCTAssertEqual(script.last, "KEYSIM=.build/release/keysim KEYSIM_GATE_OUT=keysim-gate docs/ci/gate.sh")
        XCTAssertEqual(((job["artifacts"] as? [String: Any])?["reports"] as? [String: String])?["junit"], "keysim-gate/junit.xml")
    }

    /// docs/ci.md's device gate: both sides' measurements calibrated (the overlays in
    /// docs/ci/device are what the commands write), then the pull request gated against the
    /// base branch, failing on its slower re-ranker as the guide shows.
    func testTheDeviceGateOfTheGuideRunsAsShown() throws {
        let root = KeysimProcess.packageRoot
        let guide = try String(contentsOf: root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let folder = try TemporaryFolder()
        for (input, side) in [("docs/calibration/keyboard-signposts.xml", "base"), ("docs/ci/device/pr-signposts.xml", "pr")] {
            let out = "docs/ci/device/\(side)-costs.json5"
            let command = "keysim calibrate \(input) --map-file docs/calibration/signposts.map --out \(out)"
            XCTAssertTrue(guide.contains(command + "\n"), "the guide shows: \(command)")
            let result = try runKeysim(["calibrate", input, "--map-file", "docs/calibration/signposts.map", "--out", folder.path("\(side).json5")])
            XCTAssertEqual(result.status, 0, result.stderr)
            let written = try String(contentsOfFile: folder.path("\(side).json5"), encoding: .utf8)
                .replacingOccurrences(of: folder.path("\(side).json5"), with: out)
            XCTAssertEqual(written, try String(contentsOf: root.appendingPathComponent(out), encoding: .utf8), "\(out) is what calibrate writes")
            if side == "pr" {
                let table = result.stdout.replacingOccurrences(of: folder.path("pr.json5"), with: out)
                XCTAssertTrue(guide.contains(table), table)
            }
        }
        let gate = try runKeysim(["gate", "docs/ci/device/base.json5", "docs/ci/device/pr.json5", "--rules", "docs/ci/gates.json5",
                                  "--replications", "auto", "--max-replications", "20", "--precision", "10%",
                                  "--db", folder.path("report.sqlite"), "--junit", folder.path("junit.xml"), "--summary", folder.path("summary.md")])
        XCTAssertEqual(gate.status, 1, gate.stderr)
        let shown = try XCTUnwrap(guide.components(separatedBy: "and the gate fails, exit code 1 (the metrics table is cut here to the gated rows):\n\n```\n")
            .dropFirst().first?.components(separatedBy: "\n```").first)
        let lines = gate.stdout.components(separatedBy: "\n")
        for line in shown.components(separatedBy: "\n") where line != "…" {
            XCTAssertTrue(lines.contains(line), "the gate prints: \(line)\n\(gate.stdout)")
        }
        let junit = try String(contentsOfFile: folder.path("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("<testcase name=\"budget dictation-stop-to-text: at most 5.0% over 100 ms\" classname=\"keysim.gate.budget\">\n      <skipped "), junit)
        PythonScript.validateJUnit([folder.path("junit.xml")])
    }

    /// A workflow file as PyYAML reads it.
    func yaml(_ file: String) throws -> [String: Any] {
        let json = try PythonScript.run("CI/yaml_to_json.py", [KeysimProcess.packageRoot.appendingPathComponent(file).path])
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    /// Runs the gate script as a CI job does, its summary going to `summary` as to
    /// `$GITHUB_STEP_SUMMARY`.
    func script(out: String, summary: String, arguments: [String] = []) throws -> KeysimProcess.Output {
        try runKeysim(["docs/ci/gate.sh"] + arguments,
                      environment: ["KEYSIM": KeysimProcess.executable.path, "KEYSIM_GATE_OUT": out, "GITHUB_STEP_SUMMARY": summary],
                      executable: URL(fileURLWithPath: "/bin/sh"))
    }
}
