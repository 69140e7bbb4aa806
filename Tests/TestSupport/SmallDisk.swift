import Foundation
import XCTest

/// A small file system of its own (a tmpfs), mounted for a test of a full disk: a report
/// written by keysim's parts in the process (`FullDiskReportTests`) or by the `keysim`
/// binary (`FullDiskTests`), an atomic file write (`ZstdTests`). Only root may mount one;
/// elsewhere the test is skipped.
public final class SmallDisk {
    /// Where it is mounted.
    public let path: String
    private var mounted = false

    /// Mounts a tmpfs of `megabytes` at a new temporary folder.
    /// - Throws: `XCTSkip` when it cannot be mounted (not root, no tmpfs).
    public convenience init(megabytes: Int) throws { try self.init(kibibytes: megabytes * 1024) }

    /// Mounts a tmpfs of `kibibytes` (whole pages) at a new temporary folder.
    /// - Throws: `XCTSkip` when it cannot be mounted (not root, no tmpfs).
    public init(kibibytes: Int) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("keysim-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let mount = URL(fileURLWithPath: "/bin/mount"), arguments = ["-t", "tmpfs", "-o", "size=\(kibibytes)k", "tmpfs", path]
        guard getuid() == 0, (try? ProgramRunner.run(mount, arguments))?.status == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw XCTSkip("needs root to mount a small tmpfs")
        }
        mounted = true
    }

    deinit {
        if mounted { _ = try? ProgramRunner.run(URL(fileURLWithPath: "/bin/umount"), [path]) }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Free space, in KiB.
    public var freeKiB: Int {
        let free = (try? FileManager.default.attributesOfFileSystem(forPath: path))?[.systemFreeSize] as? NSNumber
        return (free?.intValue ?? 0) / 1024
    }

    /// Fills the disk with a file until only `spareKiB` are free.
    public func fill(leaving spareKiB: Int) {
        _ = FileManager.default.createFile(atPath: path + "/filler", contents: Data(count: max(0, freeKiB - spareKiB) * 1024))
    }

    /// Removes the filler.
    public func empty() {
        try? FileManager.default.removeItem(atPath: path + "/filler")
    }

    /// The names in `folder` and their bytes.
    public static func snapshot(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name) ?? Data()
        }
        return files
    }
}
