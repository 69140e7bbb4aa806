import Foundation
import Report
import Scenarios

/// A command that runs a job into a report (`run`, `compare`, `gate`, `sweep`): the options
/// they share live in `job`.
protocol JobCommand: ParsableCommand {
    /// The shared options.
    var job: JobOptions { get set }
}

/// The options `run`, `compare`, `gate` and `sweep` share: the seed, the replications (a
/// count, or a search for one), the threads, the report file, its detail and the shard.
struct JobOptions {
    /// `--seed`: nil for each scenario's.
    var seed: UInt64?
    /// `--replications`: nil for the scenario's.
    var replications: ReplicationCount?
    /// `--max-replications`, with `--replications auto`.
    var maxReplications: Int?
    /// `--precision`, with `--replications auto`.
    var precision: PrecisionTarget?
    /// `--jobs`: nil for the cores.
    var jobs: Int?
    /// `--db`: nil for `defaultReport`.
    var db: String?
    /// `--detail`: nil for each scenario's.
    var detail: ReportDetail?
    /// `--json`.
    var json = false
    /// `--shard`: nil for the environment's, else the whole job.
    var shard: Shard?

    /// The report file when `--db` is not given.
    static let defaultReport = "keysim-report.sqlite"

    /// What the replication options ask for.
    enum ReplicationChoice {
        /// A count, or nil for the scenario's.
        case fixed(Int?)
        /// Search for the count.
        case auto(maximum: Int, target: PrecisionTarget)
    }

    /// The replication options, read together.
    /// - Throws: a usage error when `--max-replications` or `--precision` come without `--replications auto`.
    func replicationChoice(command: String) throws(UsageError) -> ReplicationChoice {
        guard replications == .auto else {
            if maxReplications != nil { throw UsageError(command: command, message: "--max-replications goes with --replications auto") }
            if precision != nil { throw UsageError(command: command, message: "--precision goes with --replications auto") }
            if case .count(let count)? = replications { return .fixed(count) }
            return .fixed(nil)
        }
        return .auto(maximum: maxReplications ?? ReplicationPlan.defaultMaximum, target: precision ?? .standard)
    }

    /// The threads `--jobs` asks for, or the cores.
    var threads: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    /// The shard `--shard` or the environment selects; the whole job when neither does.
    func resolvedShard(command: String) throws(UsageError) -> Shard {
        if let shard { return shard }
        do {
            return try Shard.fromEnvironment(ProcessInfo.processInfo.environment) ?? .whole
        } catch {
            throw UsageError(command: command, message: error.message)
        }
    }

    /// The report file of `shard`, with the lock wait the environment sets.
    func report(shard: Shard) -> JobReport {
        JobReport(path: shard.reportPath(for: db ?? Self.defaultReport),
                  busyTimeoutMs: JobReport.busyTimeoutMs(environment: ProcessInfo.processInfo.environment))
    }

    /// Runs `job` into `report` as `keysim <command>` does: the report file is checked before
    /// any work (`JobReport.run`), progress shows on standard error (after
    /// `progressDelaySeconds`), and `detail` is kept (nil: each scenario's).
    func run(_ job: Job, command: String, shard: Shard, report: JobReport, progressDelaySeconds: Double = 0) throws -> JobOutcome {
        let progress = Progress(label: "keysim \(command)", delaySeconds: progressDelaySeconds)
        let outcome = try report.run(job, shard: shard, threads: threads, detail: detail, progress: progress.update)
        progress.finish()
        return outcome
    }

    /// The replications to run for `batches`: the fixed count (or `scenarioDefault`), or the
    /// count the search stops at, with its outcome and plan.
    static func resolve(_ choice: ReplicationChoice, batches: [JobBatch], seed: UInt64, scenarioDefault: Int, paired: Bool,
                        metrics: [String]?, threads: Int, label: String) throws -> ResolvedReplications {
        switch choice {
        case .fixed(let count):
            return ResolvedReplications(replications: count ?? scenarioDefault, search: nil, plan: nil)
        case .auto(let maximum, let target):
            let plan = ReplicationPlan(maximum: maximum, target: target, metrics: metrics, paired: paired)
            let outcome = try ReplicationSearch.run(batches, seed: seed, plan: plan, threads: threads) { count in
                printError("\(label): replications auto: \(count) replication(s) checked")
            }
            return ResolvedReplications(replications: outcome.replications, search: outcome, plan: plan)
        }
    }
}

/// How many replications a job runs, and the search that chose them (with `auto`).
struct ResolvedReplications {
    /// Replications per trace.
    var replications: Int
    /// The search's outcome, with `--replications auto`.
    var search: ReplicationSearch.Outcome?
    /// The search's plan, with `--replications auto`.
    var plan: ReplicationPlan?

    /// The line that says where the search stopped, with `--replications auto`.
    var line: String? {
        guard let outcome = search, let plan else { return nil }
        let rounds = outcome.rounds.map(String.init).joined(separator: ", ")
        let what = plan.paired ? "paired difference" : "mean"
        if outcome.reachedTarget {
            return "replications auto: \(outcome.replications) (rounds \(rounds)); every checked \(what)'s 95% half-width is within \(plan.target)"
        }
        return "replications auto: stopped at the maximum \(outcome.replications) (rounds \(rounds)); still wider than \(plan.target): \(outcome.imprecise.joined(separator: ", "))"
    }
}

/// The declarations of the shared options, for any `JobCommand`: each command lists the
/// ones it takes, in its own order.
extension JobOptions {
    static func seed<C: JobCommand>() -> OptionDeclaration<C> {
        .option("seed", \C.job.seed, value: "N", help: "Seed of every random stream (default: the scenario's).", .scenarioSeed)
    }

    /// `--replications`, `--max-replications` and `--precision`, in the order help lists them.
    static func replicationOptions<C: JobCommand>() -> [OptionDeclaration<C>] {
        [
            .option("replications", \C.job.replications, value: "N|auto",
                    help: "Replications per trace (default: the scenario's); auto adds them until every checked 95% interval is narrow enough.",
                    .replications),
            .option("max-replications", \C.job.maxReplications, value: "N",
                    help: "With --replications auto: the most replications per trace (default: \(ReplicationPlan.defaultMaximum)).",
                    .integer(in: 2...Scenario.replicationsMax)),
            .option("precision", \C.job.precision, value: "P",
                    help: "With --replications auto: the 95% half-width to reach, a share of the mean (5%) or an amount (0.2ms); default 5%.",
                    .precision),
        ]
    }

    static func jobs<C: JobCommand>() -> OptionDeclaration<C> {
        .option("jobs", \C.job.jobs, value: "N", help: "Threads to run replications on (default: the cores); results are the same for any N.",
                .integer(in: 1...256))
    }

    static func db<C: JobCommand>() -> OptionDeclaration<C> {
        .option("db", \C.job.db, value: "FILE", help: "Report file to add the runs to (default: \(defaultReport)).", .file)
    }

    static func detail<C: JobCommand>() -> OptionDeclaration<C> {
        .option("detail", \C.job.detail, value: "LEVEL",
                help: "How much the report keeps: summary, default or full (default: the scenario's detail, else default).", .cases)
    }

    static func json<C: JobCommand>() -> OptionDeclaration<C> {
        .flag("json", \C.job.json, help: "Print a JSON document instead of the table (schema in docs/json-output.md).")
    }

    static func shard<C: JobCommand>() -> OptionDeclaration<C> {
        .option("shard", \C.job.shard, value: "K/N",
                help: "Run only shard K of N of the work items, into FILE.shard-K-of-N.sqlite (see docs/scale-out.md).", .shard)
    }
}
