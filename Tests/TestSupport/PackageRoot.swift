import Foundation

/// The package's root folder, where `scenarios/`, `traces/`, `dictionaries/` and `docs/`
/// live, found from this file's own place (`Tests/TestSupport/`).
public enum PackageRoot {
    /// The root as a file URL.
    public static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The root as a path.
    public static var path: String { url.path }
}
