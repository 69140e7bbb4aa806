import Foundation

/// One export format of `keysim report`: what it is called, what it reads and how it
/// writes. Every format is one `Exporter` registered in `ExporterRegistry.standard`, from
/// which `keysim report` takes its `--format` names, its help and its usage errors, and the
/// docs their table of formats.
///
/// A new format is one file: a struct conforming to `StreamExporter` (one file or standard
/// output) or `FolderExporter` (a folder of files), added to `ExporterRegistry.standard`.
public protocol Exporter: Sendable {
    /// The `--format` name ("md").
    var name: String { get }
    /// What it makes, as a noun phrase for `keysim report`'s one-line abstract ("Markdown",
    /// "a self-contained HTML page").
    var title: String { get }
    /// The extension of the files it writes, without the dot.
    var fileExtension: String { get }
    /// What it reads of a report.
    var scope: ExportScope { get }
    /// Whether it writes one stream or a folder of files.
    var layout: ExportLayout { get }
    /// What it writes, as the rest of a sentence after its name, for `keysim report --help`
    /// ("is a summary to paste into a pull request").
    var summary: String { get }
    /// What it writes, for the formats table of `docs/report-schema.md` (Markdown).
    var documentation: String { get }
    /// Writes the export of `source` to `destination`.
    /// - Returns: the files written, in order (none for standard output).
    /// - Throws: `ReportError` naming the destination, or the report's own errors; a file
    ///   or folder given as the destination is then as it was.
    func export(_ source: ExportSource, to destination: ExportDestination) throws -> [String]
}

/// What an exporter reads of a report.
public enum ExportScope: String, Sendable {
    /// One replication's rows: the run `--run` names, or the first.
    case run
    /// One batch's rows.
    case batch
    /// The whole report; `--run` narrows it to that run and its batch.
    case report
}

/// How an exporter writes.
public enum ExportLayout: Sendable {
    /// One text: standard output, or a file that appears whole (`--out FILE`).
    case stream
    /// A folder of files (`--out FOLDER`, required), moved into place whole.
    case folder
}

/// Where an export goes.
public enum ExportDestination: Sendable, Equatable {
    /// Standard output (stream exporters).
    case standardOutput
    /// A file, replaced only once the export is complete (stream exporters).
    case file(String)
    /// A folder, replaced only once every file of the export is complete (folder exporters).
    case folder(String)
}

/// The report an export reads, and how much of it.
public struct ExportSource {
    /// The report, opened read-only.
    public let store: ReportStore
    /// The run to keep (or draw) and whether typed text is included.
    public let options: ExportOptions

    /// The export of `store` under `options`.
    public init(_ store: ReportStore, options: ExportOptions = ExportOptions()) {
        self.store = store
        self.options = options
    }
}

/// An exporter whose export is one text: standard output, or a file that appears whole.
public protocol StreamExporter: Exporter {
    /// Writes the export of `source` to `output`, and finishes it (`ReportOutput.finish`).
    func write(_ source: ExportSource, to output: ReportOutput) throws
}

extension StreamExporter {
    /// One stream.
    public var layout: ExportLayout { .stream }

    /// Writes to standard output, or to a file that appears only once complete.
    public func export(_ source: ExportSource, to destination: ExportDestination) throws -> [String] {
        switch destination {
        case .standardOutput:
            try write(source, to: .standardOutput())
            return []
        case .file(let path):
            try write(source, to: try ReportOutput.file(path))
            return [path]
        case .folder(let path):
            throw ReportError(file: path, message: "--format \(name) writes one file, not a folder")
        }
    }
}

/// An exporter whose export is a folder of files, written beside its destination and
/// moved into place whole (`ExportFolder`).
public protocol FolderExporter: Exporter {
    /// What the folder holds, for the usage error when no folder is given ("one file per
    /// table").
    var folderContents: String { get }
    /// Writes the export's files into `folder`, a new and empty folder, and returns their
    /// paths in order.
    func write(_ source: ExportSource, into folder: String) throws -> [String]
}

extension FolderExporter {
    /// A folder of files.
    public var layout: ExportLayout { .folder }

    /// Writes the files into a private folder beside `destination`, then puts that folder
    /// in place whole, replacing an earlier export of this format there
    /// (`ExportFolder.replace`).
    public func export(_ source: ExportSource, to destination: ExportDestination) throws -> [String] {
        guard case .folder(let folder) = destination else {
            let given = if case .file(let path) = destination { path } else { "standard output" }
            throw ReportError(file: given, message: "--format \(name) writes \(folderContents) into a folder: give --out FOLDER")
        }
        return try ExportFolder.replace(folder, fileExtension: fileExtension, formatName: fileExtension.uppercased()) { privateFolder in
            try write(source, into: privateFolder)
        }
    }
}
