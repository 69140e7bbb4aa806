import Foundation
import Report
import XCTest

/// Runs keysim (or another `executable`, such as a script that runs keysim) with extra
/// environment variables (the shard variables of Slurm and Kubernetes, the busy timeout),
/// the rest of the environment inherited without them.
func runKeysim(_ arguments: [String], environment extra: [String: String] = [:],
               in directory: URL = KeysimProcess.packageRoot,
               executable: URL = KeysimProcess.executable) throws -> KeysimProcess.Output {
    var environment = ProcessInfo.processInfo.environment
    for name in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP",
                 "JOB_COMPLETION_INDEX", "KEYSIM_SHARD_COUNT"] {
        environment[name] = nil
    }
    environment.merge(extra) { $1 }
    return KeysimProcess.output(try ProgramRunner.run(executable, arguments, in: directory, environment: environment))
}

final class MergeCommandTests: XCTestCase {
    let scenario = "scenarios/default.json5"

    func testShardedRunsMergeIntoTheRowsOfOneMachine() throws {
        let folder = try TemporaryFolder()
        let single = try runKeysim(["run", scenario, "--replications", "3", "--jobs", "2", "--db", folder.path("single.sqlite")])
        XCTAssertEqual(single.status, 0, single.stderr)
        // Shard 1 by option, shard 2 by Slurm's variables, shard 3 by Kubernetes'.
        let shards: [([String], [String: String])] = [
            (["--shard", "1/3"], [:]),
            ([], ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"]),
            ([], ["JOB_COMPLETION_INDEX": "2", "KEYSIM_SHARD_COUNT": "3"]),
        ]
        for (options, environment) in shards {
            let result = try runKeysim(["run", scenario, "--replications", "3", "--jobs", "1", "--db", folder.path("out.sqlite")] + options,
                                       environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("of 3 work items; combine the shards with keysim merge"), result.stdout)
        }
        let files = (1...3).map { folder.path("out.shard-\($0)-of-3.sqlite") }
        XCTAssertTrue(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        let merge = try runKeysim(["merge", folder.path("merged.sqlite")] + files.reversed())
        XCTAssertEqual(merge.status, 0, merge.stderr)
        XCTAssertTrue(merge.stdout.contains("keysim merge: 3 file(s), 3 run(s) of run of scenario 'default'"), merge.stdout)
        let expected = try allRows(folder.path("single.sqlite"))
        let merged = try allRows(folder.path("merged.sqlite"))
        XCTAssertEqual(Set(expected.keys), Set(merged.keys))
        for table in expected.keys.sorted() {
            XCTAssertEqual(expected[table], merged[table], "table \(table)")
        }
        XCTAssertGreaterThan(expected["key_rows"]?.count ?? 0, 4000, "keys are stored in key_rows")
    }

    func testMergeErrorsExitWithTwoAndChangeNothing() throws {
        let folder = try TemporaryFolder()
        for k in 1...2 {
            XCTAssertEqual(try runKeysim(["run", scenario, "--replications", "2", "--db", folder.path("a.sqlite"), "--shard", "\(k)/2"]).status, 0)
        }
        XCTAssertEqual(try runKeysim(["run", scenario, "--replications", "2", "--db", folder.path("b.sqlite"), "--shard", "2/2",
                                      "--set", "name=other"]).status, 0)
        let a1 = folder.path("a.shard-1-of-2.sqlite"), a2 = folder.path("a.shard-2-of-2.sqlite"), b2 = folder.path("b.shard-2-of-2.sqlite")
        let before = [a1, a2, b2].map { FileManager.default.contents(atPath: $0) }
        let cases: [([String], String)] = [
            (["merge", folder.path("m.sqlite"), a1, b2], "b.shard-2-of-2.sqlite: error: comes from a different scenario ('other')"),
            (["merge", folder.path("m.sqlite"), a1], "a.shard-1-of-2.sqlite: error: cannot merge run of scenario 'default'"),
            (["merge", folder.path("m.sqlite")], "keysim merge: error: missing <in>..."),
            (["merge", a1, a1, a2], "error: is also the output"),
        ]
        for (arguments, message) in cases {
            let result = try runKeysim(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("m.sqlite")))
        }
        XCTAssertEqual([a1, a2, b2].map { FileManager.default.contents(atPath: $0) }, before)
        let help = try runKeysim(["merge", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("OVERVIEW: Combine the report files of --shard runs"), help.stdout)
    }

    func testShardOutOfRangeIsAUsageError() throws {
        let folder = try TemporaryFolder()
        let cases: [([String], [String: String], String)] = [
            (["--shard", "5/4"], [:], "keysim run: error: --shard 5/4: shard 5 is out of range 1...4"),
            (["--shard", "0/4"], [:], "shard 0 is out of range"),
            (["--shard", "two"], [:], "--shard needs K/N"),
            ([], ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"], "SLURM_ARRAY_TASK_ID 4: shard 5 is out of range 1...4"),
            ([], ["JOB_COMPLETION_INDEX": "1"], "KEYSIM_SHARD_COUNT is not"),
        ]
        for (options, environment, message) in cases {
            let result = try runKeysim(["run", scenario, "--db", folder.path("r.sqlite")] + options, environment: environment)
            XCTAssertEqual(result.status, 2, "\(options) \(environment)")
            XCTAssertTrue(result.stderr.contains(message), "\(options): \(result.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), [], "no file written")
    }

    func testSeveralProcessesWriteToOneReportAtOnce() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("shared.sqlite")
        let outputs = FailureList()
        let scenario = self.scenario
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            do {
                let result = try runKeysim(["run", scenario, "--replications", "2", "--jobs", "1", "--seed", "\(index)", "--db", db])
                if result.status != 0 { outputs.add(result.stderr) }
            } catch {
                outputs.add("\(error)")
            }
        }
        XCTAssertEqual(outputs.all, [])
        let store = try ReportStore(path: db, readOnly: true)
        XCTAssertEqual(try store.database.query("SELECT COUNT(*), COUNT(DISTINCT seed) FROM batches"), [[3, 3]])
        XCTAssertEqual(try store.database.query("SELECT COUNT(*) FROM runs"), [[6]])
        XCTAssertEqual(try store.database.query("PRAGMA integrity_check"), [["ok"]])
    }

    func testAKilledSweepLeavesWholeBatchesAndAReadableFile() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("r.sqlite")
        XCTAssertEqual(try runKeysim(["run", scenario, "--replications", "1", "--db", db]).status, 0)
        let process = Process()
        process.executableURL = KeysimProcess.executable
        process.arguments = ["sweep", scenario, "--set", "debounce.otherwiseMs=300..6000/300", "--replications", "2", "--jobs", "2", "--db", db]
        process.currentDirectoryURL = KeysimProcess.packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Long enough for some sweep points to be written, not for all of them.
        Thread.sleep(forTimeInterval: 2.5)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let store = try ReportStore(path: db, readOnly: true)
        XCTAssertEqual(try store.database.query("PRAGMA integrity_check"), [["ok"]])
        XCTAssertEqual(try store.database.query("SELECT COUNT(*) FROM batches WHERE command = 'run'"), [[1]], "the earlier run is intact")
        // Every batch in the file has all of its runs: nothing half-written.
        XCTAssertEqual(try store.database.query("""
            SELECT COUNT(*) FROM batches b WHERE (SELECT COUNT(*) FROM runs r WHERE r.batch_id = b.batch_id) != b.replications
            """), [[0]])
        let sweepBatches = try store.database.query("SELECT COUNT(*) FROM batches WHERE command = 'sweep'")[0][0]
        let complete = try store.database.query("SELECT COALESCE(MAX(complete), 0) FROM jobs WHERE command = 'sweep'")[0][0]
        if sweepBatches != .integer(20) { XCTAssertEqual(complete, .integer(0), "an interrupted sweep is not complete") }
        // And the file takes more runs.
        XCTAssertEqual(try runKeysim(["run", scenario, "--replications", "1", "--db", db]).status, 0)
    }
}
