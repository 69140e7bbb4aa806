import Foundation
import XCTest

@testable import Report

/// A folder export (`--format csv --out DIR`) appears whole or not at all, replaces only an
/// earlier export, and leaves nothing behind when it fails (issue 29, family 6).
final class ExportFolderTests: XCTestCase {
    private static func makeReport(_ folder: ReportFolder) throws -> ReportStore {
        let path = folder.path("r.sqlite")
        _ = try JobRunner.run(try Fixtures.compareJob(replications: 1), shard: .whole, threads: 2, reportPath: path, busyTimeoutMs: 1000)
        return try ReportStore(path: path, readOnly: true)
    }

    /// Entries of `folder` that a failed or finished export left beside its destination.
    private static func privateFolders(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".keysim-new-") }.sorted()
    }

    func testAnExportReplacesAnEarlierOneWhole() throws {
        let folder = try ReportFolder()
        let store = try Self.makeReport(folder)
        let out = folder.path("csv")
        let whole = try CSVExporter().export(ExportSource(store), to: .folder(out + "/"))
        XCTAssertEqual(Set(whole.map { URL(fileURLWithPath: $0).lastPathComponent }), Set(try FileManager.default.contentsOfDirectory(atPath: out)))
        XCTAssertTrue(whole.allSatisfy { $0.hasPrefix(out + "/") }, "\(whole)")
        XCTAssertEqual(chmod(out, 0o750), 0)
        // One run's export holds fewer tables: none of the whole export's others stay behind.
        let oneRun = try CSVExporter().export(ExportSource(store, options: ExportOptions(runID: 1)), to: .folder(out))
        XCTAssertLessThan(oneRun.count, whole.count)
        XCTAssertEqual(Set(oneRun.map { URL(fileURLWithPath: $0).lastPathComponent }), Set(try FileManager.default.contentsOfDirectory(atPath: out)))
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? NSNumber)?.intValue, 0o750,
                       "the new folder keeps the old one's permissions")
        XCTAssertEqual(Self.privateFolders(in: folder.url.path), [])
        // Through a symbolic link: the folder it names is replaced, the link stays a link.
        let link = folder.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: out)
        _ = try CSVExporter().export(ExportSource(store), to: .folder(link))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), out)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).count, whole.count)
    }

    /// Where the system has no one-step exchange: the old folder moved aside, the new one in.
    func testTwoRenamesReplaceTheFolderToo() throws {
        let folder = try ReportFolder()
        let out = folder.path("out")
        for (round, names) in [["a.csv", "b.csv"], ["c.csv"]].enumerated() {
            let written = try ExportFolder.replace(out, fileExtension: "csv", formatName: "CSV", exchanging: false) { inside in
                for name in names { XCTAssertTrue(FileManager.default.createFile(atPath: inside + "/" + name, contents: Data("\(round)".utf8))) }
                return names.map { inside + "/" + $0 }
            }
            XCTAssertEqual(written, names.map { out + "/" + $0 })
            XCTAssertEqual(SmallDisk.snapshot(out), Dictionary(uniqueKeysWithValues: names.map { ($0, Data("\(round)".utf8)) }))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), ["out"])
        }
    }

    func testAFolderHoldingAnythingElseIsNeverReplaced() throws {
        let folder = try ReportFolder()
        let store = try Self.makeReport(folder)
        let out = folder.path("mine")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: out + "/notes.txt", contents: Data("mine".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: out + "/runs.csv", contents: Data("old".utf8)))
        XCTAssertThrowsError(try CSVExporter().export(ExportSource(store), to: .folder(out))) { error in
            XCTAssertTrue("\(error)".contains("mine: error: holds notes.txt, which no CSV export wrote"), "\(error)")
        }
        XCTAssertEqual(SmallDisk.snapshot(out), ["notes.txt": Data("mine".utf8), "runs.csv": Data("old".utf8)])
        let file = folder.path("file.csv")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        for (destination, message) in [(file, "not a folder; CSV export writes one file per table into a folder"),
                                       (".", "an export replaces its folder whole"), (out + "/..", "an export replaces its folder whole"),
                                       (folder.path("missing/csv"), "cannot create the folder (does its parent exist?)")] {
            XCTAssertThrowsError(try CSVExporter().export(ExportSource(store), to: .folder(destination)), destination) { error in
                XCTAssertTrue("\(error)".contains(message), "\(destination): \(error)")
            }
        }
        XCTAssertEqual(Self.privateFolders(in: folder.url.path), [])
        XCTAssertEqual(FileManager.default.contents(atPath: file), Data("x".utf8))
    }

    /// On a real full disk (a small tmpfs): a failed export leaves the earlier one byte for
    /// byte, a fresh folder is not made, and no private folder stays behind.
    func testAFullDiskLeavesTheFolderAsItWas() throws {
        let disk = try SmallDisk(megabytes: 8)
        let folder = try ReportFolder()
        let store = try Self.makeReport(folder)
        let out = disk.path + "/csv"
        let first = try CSVExporter().export(ExportSource(store, options: ExportOptions(runID: 1)), to: .folder(out))
        let before = SmallDisk.snapshot(out)
        XCTAssertEqual(before.count, first.count)
        disk.fill(leaving: 96)
        XCTAssertThrowsError(try CSVExporter().export(ExportSource(store), to: .folder(out))) { error in
            XCTAssertTrue("\(error)".hasPrefix(out + ": error: ") && "\(error)".contains("the folder is as it was"), "\(error)")
        }
        XCTAssertEqual(SmallDisk.snapshot(out), before, "the earlier export, byte for byte")
        XCTAssertThrowsError(try CSVExporter().export(ExportSource(store), to: .folder(disk.path + "/fresh"))) { error in
            XCTAssertTrue("\(error)".contains("no folder was made"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: disk.path + "/fresh"))
        XCTAssertEqual(Self.privateFolders(in: disk.path), [])
        disk.empty()
        let whole = try CSVExporter().export(ExportSource(store), to: .folder(out))
        XCTAssertGreaterThan(whole.count, first.count)
        XCTAssertEqual(Set(SmallDisk.snapshot(out).keys), Set(whole.map { URL(fileURLWithPath: $0).lastPathComponent }))
        XCTAssertEqual(Self.privateFolders(in: disk.path), [])
    }
}
