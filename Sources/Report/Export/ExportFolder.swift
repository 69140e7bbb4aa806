import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts a folder of export files (`keysim report --format csv --out DIR`) in place whole,
/// or not at all.
///
/// The files are written into a private folder beside `DIR` (`.DIR.keysim-new-PID-N`);
/// only when every one is complete does that folder take `DIR`'s place: renamed to `DIR`
/// when there is none, or exchanged with it in one step (`renameat2` with
/// `RENAME_EXCHANGE`, or two renames where the system has no exchange), the old folder then
/// removed. On any failure — a full disk, an unreadable report — the private folder is
/// removed and `DIR` is as it was. An existing `DIR` is replaced only when it holds nothing
/// but files of this format (an earlier export), so that an export never deletes anything
/// else.
enum ExportFolder {
    /// Writes an export into `folder` whole: `write` fills the private folder it is given
    /// and returns the files it wrote there; the returned paths are where they ended up.
    /// - Parameters:
    ///   - fileExtension: the extension of every file of the format; an existing `folder`
    ///     holding anything else is refused.
    ///   - formatName: the format, for messages ("CSV").
    ///   - exchanging: whether to swap the folders in one step where the system can (tests
    ///     turn it off to try the two renames).
    /// - Throws: `ReportError` naming `folder` (or the report, for the report's own errors).
    static func replace(_ folder: String, fileExtension: String, formatName: String, exchanging: Bool = true,
                        write: (String) throws -> [String]) throws -> [String] {
        let target = try placeOf(folder)
        let url = URL(fileURLWithPath: target)
        let parent = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            throw ReportError(file: folder, message: "cannot create the folder (does its parent exist?)")
        }
        let existingMode = try checkReplaceable(target, given: folder, fileExtension: fileExtension, formatName: formatName)
        let privateFolder = parent + "/.\(url.lastPathComponent).keysim-new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(privateFolder, 0o777) == 0 else {
            throw ReportError(file: folder, message: "cannot create a folder beside it for the export (\(String(cString: strerror(errno))))")
        }
        // Whatever happens, the private name goes: after an exchange it holds the old folder.
        defer { try? FileManager.default.removeItem(atPath: privateFolder) }
        if let existingMode { _ = chmod(privateFolder, existingMode) }
        let written: [String]
        do {
            written = try write(privateFolder)
        } catch let error as ReportError where error.file.hasPrefix(privateFolder + "/") {
            let name = String(error.file.dropFirst(privateFolder.count + 1))
            throw ReportError(file: folder, message: "\(name): \(error.message); "
                              + (existingMode == nil ? "no folder was made" : "the folder is as it was"))
        }
        syncFolder(privateFolder)
        if existingMode != nil {
            try exchange(privateFolder, target, given: folder, inOneStep: exchanging)
        } else if rename(privateFolder, target) != 0 {
            throw ReportError(file: folder, message: "cannot move the export into place (\(String(cString: strerror(errno))))")
        }
        syncFolder(parent)
        return written.map { target + "/" + URL(fileURLWithPath: $0).lastPathComponent }
    }

    /// The folder `given` names, without trailing slashes and with a symbolic link
    /// followed: what is replaced.
    private static func placeOf(_ given: String) throws -> String {
        var path = given
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        guard !path.isEmpty, path != "/", last != ".", last != ".." else {
            throw ReportError(file: given, message: "an export replaces its folder whole; give --out the folder by its name")
        }
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                throw ReportError(file: given, message: "a symbolic link to nothing (\(String(cString: strerror(errno))))")
            }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return path
    }

    /// The permissions of the folder at `target` when it can be replaced (it holds only
    /// files of `fileExtension`), nil when there is none.
    private static func checkReplaceable(_ target: String, given: String, fileExtension: String,
                                         formatName: String) throws -> mode_t? {
        var info = stat()
        guard stat(target, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw ReportError(file: given, message: "not a folder; \(formatName) export writes one file per table into a folder")
        }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: target).sorted()
        } catch {
            throw ReportError(file: given, message: "cannot read the folder (\(error.localizedDescription))")
        }
        for entry in entries {
            var entryInfo = stat()
            let isFile = lstat(target + "/" + entry, &entryInfo) == 0 && entryInfo.st_mode & S_IFMT == S_IFREG
            guard isFile && entry.hasSuffix("." + fileExtension) else {
                throw ReportError(file: given, message: "holds \(entry), which no \(formatName) export wrote; the export replaces the "
                                  + "folder whole, so give --out a new folder or one an earlier \(formatName) export made")
            }
        }
        return info.st_mode & 0o7777
    }

    /// Swaps the complete private folder with the existing one: in one step where the
    /// system can, else by moving the old one aside first (and back should the second
    /// move fail). The old folder then ends up under the private name, or is removed.
    private static func exchange(_ privateFolder: String, _ target: String, given: String, inOneStep: Bool) throws {
        if inOneStep, let renameExchange, renameExchange(AT_FDCWD, privateFolder, AT_FDCWD, target, renameExchangeFlag) == 0 { return }
        let aside = privateFolder + "-old"
        guard rename(target, aside) == 0 else {
            throw ReportError(file: given, message: "cannot move the old export aside (\(String(cString: strerror(errno))))")
        }
        guard rename(privateFolder, target) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(aside, target)
            throw ReportError(file: given, message: "cannot move the export into place (\(reason)); the folder is as it was")
        }
        try? FileManager.default.removeItem(atPath: aside)
    }

    /// `RENAME_EXCHANGE` of `renameat2(2)` (Linux 3.15).
    private static let renameExchangeFlag: UInt32 = 2

    /// Linux's `renameat2`, looked up at run time: the C library declares it only for GNU
    /// sources, which Swift's module does not ask for. Nil where there is none.
    private static let renameExchange: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Makes a folder's entries durable (`fsync` of the folder); best effort.
    private static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}
