import Foundation
import Report
import Scenarios

/// The options `run`, `compare` and `sweep` share: how to spread the work and where the
/// report goes.
enum JobOptions {
    static let jobs = OptionSpec(name: "jobs", value: "N",
                                 help: "Threads to run replications on (default: the cores); results are the same for any N.")
    static let shard = OptionSpec(name: "shard", value: "K/N",
                                  help: "Run only shard K of N of the work items, into FILE.shard-K-of-N.sqlite (see docs/scale-out.md).")
    static let seed = OptionSpec(name: "seed", value: "N", help: "Seed of every random stream (default: the scenario's).")
    static let replications = OptionSpec(name: "replications", value: "N", help: "Replications per trace (default: the scenario's).")
    static let json = OptionSpec(name: "json", value: nil, help: "Print a JSON document instead of the table (schema in docs/json-output.md).")

    static func db(_ defaultReport: String) -> OptionSpec {
        OptionSpec(name: "db", value: "FILE", help: "Report file to add the runs to (default: \(defaultReport)).")
    }

    /// The threads `--jobs` asks for, or the cores.
    static func threads(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        try arguments.integer("jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
    }

    /// The shard `--shard` or the environment selects; the whole job when neither does.
    static func shard(_ arguments: ParsedArguments) throws(UsageError) -> Shard {
        do {
            if let text = arguments.value("shard") { return try Shard.parse(text) }
            return try Shard.fromEnvironment(ProcessInfo.processInfo.environment) ?? .whole
        } catch {
            throw UsageError(command: arguments.command, message: error.message)
        }
    }

    /// How long a writer waits for another process's lock on the report:
    /// `KEYSIM_BUSY_TIMEOUT_MS`, or 30 s. Long enough for another keysim to commit a large
    /// batch; past it the command fails with "locked" and changes nothing.
    static var busyTimeoutMs: Int {
        let fromEnvironment = ProcessInfo.processInfo.environment["KEYSIM_BUSY_TIMEOUT_MS"].flatMap { Int($0) }
        return min(max(fromEnvironment ?? 30_000, 0), Database.busyTimeoutMsMax)
    }

    /// Checks, before any work, that an existing report file can take the runs: it is a
    /// keysim report of this schema and not locked. A missing file is fine (it is created
    /// when the first batch is written); the file is not changed.
    static func preflight(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                throw ReportError(file: path, message: "no such folder: \(folder)")
            }
            return
        }
        // Opening reads the header and the schema: a file of another tool or version, or one
        // locked past the timeout, fails here.
        _ = try ReportStore(path: path, readOnly: true, busyTimeoutMs: busyTimeoutMs)
    }

    /// A `--set PATH=VALUE` override.
    static func override(_ text: String, command: String) throws(UsageError) -> ScenarioLoader.Override {
        do {
            return try RunCommand.parseOverride(text)
        } catch {
            throw UsageError(command: command, message: error.message)
        }
    }
}
