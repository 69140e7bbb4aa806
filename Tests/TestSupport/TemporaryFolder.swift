import Foundation

/// A folder of its own under the system's temporary folder, removed with everything in it
/// when the value is released: the place a test writes its files.
public final class TemporaryFolder {
    /// Where the folder is.
    public let url: URL

    /// Creates a new, empty folder named `prefix-<UUID>`.
    public init(prefix: String = "keysim-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder (which need not exist).
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` as UTF-8 to `name` inside the folder, replacing what was there.
    /// - Returns: the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// The names in the folder, sorted.
    public func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
}

/// The name the report tests use for a `TemporaryFolder`.
public typealias ReportFolder = TemporaryFolder

/// The name the scenario tests use for a `TemporaryFolder`.
public typealias TemporaryDirectory = TemporaryFolder
