import Foundation
import Report
import Scenarios
import Sim

/// `keysim fleet`: run a scenario's fleet — many users' keyboards through a day against
/// shared backends — write its report and print the day's summary and hours.
struct FleetCommand: JobCommand {
    var scenarioPath = ""
    var job = JobOptions()
    var users: Int?
    var overrides: [ScenarioLoader.Override] = []

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "fleet",
            abstract: "Run a scenario's fleet: many users through a day against shared backends; print the day, write the report.",
            usage: "fleet <scenario> [--users N] [--seed N] [--jobs N] [--db FILE] [--set PATH=VALUE]... [--json] [--shard K/N]",
            arguments: [.one("<scenario>", \.scenarioPath, help: "A scenario file with a 'fleet' section (JSON5), such as scenarios/fleet/busy-hour.json5.", .file)],
            options: [
                .option("users", \.users, value: "N", help: "Users to simulate (default: the fleet's users); they stand for the fleet's daily users.",
                        .integer(in: 1...FleetConfig.usersMax)),
                JobOptions.seed(),
                .option("jobs", \.job.jobs, value: "N", help: "Threads to run on: partitions at once, spare ones helping them (synthesising sessions, stepping those that run ahead; at most as many as the cores leave free) (default: the cores); results are the same for any N.",
                        .integer(in: 1...256)),
                JobOptions.db(),
                .repeating("set", \.overrides, value: "PATH=VALUE", help: "Override a scenario field, e.g. fleet.backend.replicas=4.", .override),
                JobOptions.json(),
                .option("shard", \.job.shard, value: "K/N",
                        help: "Run only the partitions p with p % N = K-1, into FILE.shard-K-of-N.sqlite; keysim merge combines them (see docs/scale-out.md).",
                        .shard),
            ],
            discussion: """
            The report gains one fleet (tables fleet_summary, fleet_minutes, fleet_histograms; see
            docs/report-schema.md), written whole once every partition ran: a bad scenario or a
            failed session leaves the report file untouched. The same seed gives the same report for
            any --jobs, and the shards of a fleet merge (keysim merge) into exactly the report one
            machine writes.
            """
        )
    }

    private var shard = Shard.whole

    mutating func validate() throws {
        shard = try job.resolvedShard(command: Self.configuration.name)
    }

    func run() throws -> Int32 {
        let reportPath = shard.reportPath(for: job.db ?? JobOptions.defaultReport)
        let busyTimeoutMs = JobReport.busyTimeoutMs(environment: ProcessInfo.processInfo.environment)
        var scenario = try ScenarioLoader.load(path: scenarioPath, overrides: overrides)
        if let seed = job.seed { scenario.seed = seed }
        // A report file that cannot take the fleet is refused before the day is simulated.
        if FileManager.default.fileExists(atPath: reportPath) {
            _ = try ReportStore(path: reportPath, readOnly: true, busyTimeoutMs: busyTimeoutMs)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let progress = FleetProgressLine(label: "keysim fleet")
        let result = try FleetRunner.run(scenario, users: users, shard: shard, jobs: job.threads, progress: progress.update)
        progress.finish()
        let wallSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let report = FleetReport(result, scenarioPath: scenarioPath, wallSeconds: wallSeconds)
        try FleetReportStore.write(report, toFile: reportPath, busyTimeoutMs: busyTimeoutMs)

        if job.json {
            print(report.jsonDocument(report: reportPath, shard: shard.isWhole ? nil : "\(shard)").rendered(), terminator: "")
            return 0
        }
        print("keysim fleet \(scenarioPath): seed \(scenario.seed), \(report.users) user(s) for \(report.represents) daily users, \(report.partitionCount) partition(s)")
        if !shard.isWhole {
            let held = report.partitions.map { String($0) }.joined(separator: ", ")
            print("shard \(shard): partition(s) \(held.isEmpty ? "none" : held) of \(report.partitionCount); combine the shards with keysim merge")
        }
        print("")
        print(report.summaryTable(), terminator: "")
        print("")
        print(report.hourTable(), terminator: "")
        print("report: \(reportPath)")
        return 0
    }
}

/// The progress of a fleet run on standard error, as `run` shows it (`Progress`), in
/// sessions: the runner reports from its partitions' threads, so each update takes a lock.
final class FleetProgressLine: @unchecked Sendable {
    private let progress: Progress
    private let lock = NSLock()

    init(label: String) { progress = Progress(label: label, delaySeconds: 1, unit: "sessions") }

    /// Shows `state`.
    @Sendable func update(_ state: FleetProgress) {
        lock.withLock { progress.update(state.sessionsDone, of: state.sessionsPlanned) }
    }

    /// Ends the display.
    func finish() { lock.withLock { progress.finish() } }
}
