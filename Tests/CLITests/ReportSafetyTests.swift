import Foundation
@testable import Report
import XCTest

/// Reports written by several processes at once, and by a process killed mid-write.
final class ReportSafetyTests: XCTestCase {
    /// A scenario over the first lines of the bundled English trace: a run takes a blink.
    static func smallScenario(in folder: TemporaryFolder, lines: Int = 60, replications: Int = 1) throws -> String {
        let trace = try String(contentsOf: KeysimProcess.packageRoot.appendingPathComponent("traces/english-typing.jsonl"), encoding: .utf8)
        try folder.write("small.jsonl", trace.split(separator: "\n").prefix(lines).joined(separator: "\n") + "\n")
        return try folder.write("small.json5", """
            { name: "small", seed: 3, replications: \(replications), traces: ["small.jsonl"] }
            """)
    }

    func testConcurrentWritersOnAMissingReportAllLand() throws {
        let folder = try TemporaryFolder()
        let scenario = try Self.smallScenario(in: folder)
        let writers = 4
        for trial in 0..<10 {
            let db = folder.path("r\(trial).sqlite")
            let processes = try (0..<writers).map { _ -> Process in
                let process = Process()
                process.executableURL = KeysimProcess.executable
                process.arguments = ["run", scenario, "--db", db, "--jobs", "1"]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            for process in processes { process.waitUntilExit() }
            XCTAssertEqual(processes.map(\.terminationStatus), Array(repeating: 0, count: writers), "trial \(trial)")
            let database = try Database(path: db, readOnly: true)
            XCTAssertEqual(try database.query("SELECT COUNT(*) FROM batches")[0][0].integerValue, Int64(writers), "trial \(trial)")
            XCTAssertEqual(try database.query("PRAGMA integrity_check")[0][0].textValue, "ok")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("keysim-new") }
            XCTAssertEqual(leftovers, [], "private files left behind")
        }
    }

    func testKillNineDuringAWriteKeepsEveryEarlierBatch() throws {
        let folder = try TemporaryFolder()
        let scenario = try Self.smallScenario(in: folder, lines: 4000, replications: 1)
        let db = folder.path("r.sqlite")
        let first = try KeysimProcess.run(["run", scenario, "--db", db])
        XCTAssertEqual(first.status, 0, first.stderr)
        for delayMs in [150, 400, 800] {
            let process = Process()
            process.executableURL = KeysimProcess.executable
            process.arguments = ["run", scenario, "--db", db, "--replications", "40", "--jobs", "2"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delayMs * 1000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let database = try Database(path: db, readOnly: true)
            XCTAssertEqual(try database.query("PRAGMA integrity_check")[0][0].textValue, "ok", "killed after \(delayMs) ms")
            let runs = try database.query("SELECT b.batch_id, COUNT(r.run_id), b.replications FROM batches b JOIN runs r USING (batch_id) GROUP BY b.batch_id ORDER BY b.batch_id")
            XCTAssertGreaterThanOrEqual(runs.count, 1)
            XCTAssertEqual(runs.first?[1].integerValue, 1, "the first batch is intact")
            for row in runs { XCTAssertEqual(row[1], row[2], "a batch is wholly in the report or not at all") }
        }
        let report = try KeysimProcess.run(["report", db, "--format", "md"])
        XCTAssertEqual(report.status, 0, report.stderr)
    }
}

/// `keysim report` never harms the report it reads.
final class ReportReadingSafetyTests: XCTestCase {
    func testAnExportOntoTheReportItselfIsRefused() throws {
        let folder = try TemporaryFolder()
        let scenario = try ReportSafetyTests.smallScenario(in: folder)
        let db = folder.path("r.sqlite")
        XCTAssertEqual(try KeysimProcess.run(["run", scenario, "--db", db]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.sqlite"), withDestinationPath: db)
        for (format, out) in [("html", db), ("md", db), ("json", folder.path("link.sqlite")), ("md", db + "-wal")] {
            let result = try KeysimProcess.run(["report", db, "--format", format, "--out", out])
            XCTAssertEqual(result.status, 2, "\(format) onto \(out): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("is the report itself"), result.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: db)), before, "the report is unchanged")
        XCTAssertEqual(try KeysimProcess.run(["report", db, "--out", folder.path("r.md")]).status, 0)
    }

    func testAReportInAFolderTheUserCannotWriteCanBeRead() throws {
        let folder = try TemporaryFolder()
        let scenario = try ReportSafetyTests.smallScenario(in: folder)
        let sealed = folder.path("sealed")
        try FileManager.default.createDirectory(atPath: sealed, withIntermediateDirectories: false)
        let db = sealed + "/r.sqlite"
        XCTAssertEqual(try KeysimProcess.run(["run", scenario, "--db", db]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db + "-wal"))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: sealed)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sealed) }
        // Root writes anywhere: read as nobody, as a user without write access would.
        let asOther = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        let process = Process()
        process.executableURL = asOther ? URL(fileURLWithPath: "/usr/bin/setpriv") : KeysimProcess.executable
        process.arguments = (asOther ? ["--reuid=65534", "--regid=65534", "--clear-groups", KeysimProcess.executable.path] : [])
            + ["report", db, "--format", "md"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        XCTAssertTrue(stdout.hasPrefix("# keysim report"), stdout)
    }
}

/// A run on a nearly full disk either lands whole, with the report file complete on its own
/// (the log folded in before the run says it is done), or fails with exit 2 and changes nothing.
final class FullDiskTests: XCTestCase {
    func testANearlyFullDiskNeverLeavesAReportThatNeedsItsLog() throws {
        let folder = try TemporaryFolder()
        let scenario = try ReportSafetyTests.smallScenario(in: folder, lines: 300)
        // A small file system of its own: only root may mount one.
        let disk = try SmallDisk(megabytes: 40)
        let db = disk.path + "/r.sqlite"
        XCTAssertEqual(try KeysimProcess.run(["run", scenario, "--db", db]).status, 0)
        var batches: Int64 = 1
        for spareKiB in [4000, 2000, 1200, 600, 300, 100] {
            disk.fill(leaving: spareKiB)
            let result = try KeysimProcess.run(["run", scenario, "--db", db, "--replications", "3"])
            disk.empty()
            XCTAssertTrue(result.status == 0 || result.status == 2, "spare \(spareKiB) KiB: exit \(result.status) \(result.stderr)")
            if result.status == 2 { XCTAssertTrue(result.stderr.contains("disk full"), result.stderr) }
            if result.status == 0 { batches += 1 }
            // The main file alone, copied without its -wal, holds every batch that landed.
            let alone = folder.path("alone-\(spareKiB).sqlite")
            try FileManager.default.copyItem(atPath: db, toPath: alone)
            let database = try Database(path: alone, readOnly: true)
            XCTAssertEqual(try database.query("PRAGMA integrity_check")[0][0].textValue, "ok", "spare \(spareKiB) KiB")
            XCTAssertEqual(try database.query("SELECT COUNT(*) FROM batches")[0][0].integerValue, batches, "spare \(spareKiB) KiB")
        }
    }
}
