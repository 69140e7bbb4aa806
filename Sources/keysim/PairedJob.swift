import Foundation
import Report
import Scenarios

/// The two sides `compare` and `gate` run with common random numbers: one scenario under
/// two policies, or two scenario files, loaded and checked before anything runs.
struct PairedJob {
    /// The scenario files named on the command line.
    var files: [String]
    /// Side A (the baseline) and side B (the candidate).
    var sides: [(label: String, scenario: Scenario)]
    /// The seed every batch runs with.
    var seed: UInt64

    /// The options both commands take besides the replication options.
    static let options: [OptionSpec] = [
        OptionSpec(name: "policy", value: "NAME", help: "A policy defined in the scenario's 'policies'; give it twice, A then B.", repeatable: true),
        JobOptions.seed,
    ]

    /// Loads the sides from `arguments` of `command`.
    init(_ arguments: ParsedArguments) throws {
        let command = arguments.command
        files = arguments.positionals
        let policies = arguments.all("policy")
        guard !files.isEmpty else { throw UsageError(command: command, message: "missing <scenario>") }
        guard files.count <= 2 else { throw UsageError(command: command, message: "unexpected argument '\(files[2])'") }
        if files.count == 2 && !policies.isEmpty {
            throw UsageError(command: command, message: "--policy applies to one scenario; with two files, compare the files")
        }
        if files.count == 1 && policies.count != 2 {
            throw UsageError(command: command, message: "give --policy twice (A and B), or two scenario files")
        }
        let seed = try arguments.integer("seed", in: 0...Int(Int64.max))
        let overrides = try arguments.all("set").map { text throws(UsageError) in try JobOptions.override(text, command: command) }
        sides = []
        if files.count == 1 {
            if policies[0] == policies[1] {
                throw UsageError(command: command, message: "--policy \(policies[0]) is given twice; compare two different policies")
            }
            for policy in policies {
                sides.append((policy, try ScenarioLoader.load(path: files[0], policy: policy, overrides: overrides)))
            }
        } else {
            let a = try ScenarioLoader.load(path: files[0], overrides: overrides)
            let b = try ScenarioLoader.load(path: files[1], overrides: overrides)
            guard a.traces.count == b.traces.count else {
                throw ReportError(file: files[1], message: "replays \(b.traces.count) trace(s) but \(files[0]) replays \(a.traces.count); a comparison pairs runs of the same traces")
            }
            let sameNames = a.name == b.name
            sides = [(sameNames ? files[0] : a.name, a), (sameNames ? files[1] : b.name, b)]
        }
        self.seed = seed.map(UInt64.init) ?? sides[0].scenario.seed
    }

    /// The files as the header line names them.
    var what: String { files.count == 1 ? files[0] : "\(files[0]) \(files[1])" }

    /// One batch per side.
    var batches: [JobBatch] { sides.map { JobBatch(label: $0.label, scenario: $0.scenario) } }

    /// The first line both commands print.
    func header(_ command: String, replications: Int, traces: Int) -> String {
        "keysim \(command) \(what): \(sides[0].label) (A) vs \(sides[1].label) (B), seed \(seed), \(replications) replication(s) × \(traces) trace(s)"
    }

    /// Runs both sides (the replications found or given) into the report and returns the job
    /// and what the runner produced.
    func run(command: String, replications: Int, shard: Shard, threads: Int, reportPath: String) throws -> (job: Job, outcome: JobOutcome) {
        let job = try Job(command: command, batches: batches, seed: seed, replications: replications)
        try JobOptions.preflight(reportPath)
        let progress = Progress(label: "keysim \(command)")
        let outcome = try JobRunner.run(job, shard: shard, threads: threads, reportPath: reportPath,
                                        busyTimeoutMs: JobOptions.busyTimeoutMs, progress: progress.update)
        progress.finish()
        return (job, outcome)
    }

    /// The comparison the job stored.
    static func comparison(reportPath: String, jobID: Int64) throws -> Comparison {
        let store = try ReportStore(path: reportPath, readOnly: true, busyTimeoutMs: JobOptions.busyTimeoutMs)
        guard let comparison = try Comparison.load(store.database, jobID: jobID).first else {
            throw ReportError(file: reportPath, message: "the comparison was not stored")
        }
        return comparison
    }
}
