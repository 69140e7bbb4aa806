import Foundation
import XCTest

/// A small file system of its own (a tmpfs), mounted for a test of a full disk: what
/// `FullDiskTests` (CLITests) does, for tests that run keysim's parts in the process. Only
/// root may mount one; elsewhere the test is skipped.
final class SmallDisk {
    /// Where it is mounted.
    let path: String
    private var mounted = false

    /// Mounts a tmpfs of `megabytes` at a new temporary folder.
    /// - Throws: `XCTSkip` when it cannot be mounted (not root, no tmpfs).
    init(megabytes: Int) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("keysim-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path]
        mount.standardError = FileHandle.nullDevice
        guard getuid() == 0, (try? mount.run()) != nil, ({ mount.waitUntilExit(); return mount.terminationStatus == 0 })() else {
            try? FileManager.default.removeItem(atPath: path)
            throw XCTSkip("needs root to mount a small tmpfs")
        }
        mounted = true
    }

    deinit {
        if mounted {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [path]
            try? umount.run()
            umount.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Free space, in KiB.
    var freeKiB: Int {
        let free = (try? FileManager.default.attributesOfFileSystem(forPath: path))?[.systemFreeSize] as? NSNumber
        return (free?.intValue ?? 0) / 1024
    }

    /// Fills the disk with a file until only `spareKiB` are free.
    func fill(leaving spareKiB: Int) {
        _ = FileManager.default.createFile(atPath: path + "/filler", contents: Data(count: max(0, freeKiB - spareKiB) * 1024))
    }

    /// Removes the filler.
    func empty() {
        try? FileManager.default.removeItem(atPath: path + "/filler")
    }

    /// The names in `folder` and their bytes.
    static func snapshot(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name) ?? Data()
        }
        return files
    }
}
