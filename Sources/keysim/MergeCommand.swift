import Foundation
import Report
import Scenarios

/// `keysim merge`: combine the report files of a job's shards into one report.
enum MergeCommand {
    static let spec = CommandSpec(
        name: "merge",
        abstract: "Combine the report files of --shard runs into one report, as if run on one machine.",
        usage: "merge <out> <in>...",
        arguments: [("<out>", "The merged report (created if missing; an existing report keeps its rows)."),
                    ("<in>...", "The shard files, such as keysim-report.shard-*-of-8.sqlite, in any order.")],
        options: [],
        discussion: """
        The inputs must be the complete set of shards of the same job(s): the same command,
        scenario, seed, replications and settings, and the same keysim version, each shard
        present once. The merged report holds the same rows as one run on one machine (run
        ids in work-item order), except the wall-clock columns; comparisons and sweeps are
        computed from the merged runs. Everything is checked before anything is written: on
        an error no file changes.
        """
    )

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let output = arguments.positionals.first else { throw UsageError(command: "merge", message: "missing <out> and <in>...") }
        let inputs = Array(arguments.positionals.dropFirst())
        guard !inputs.isEmpty else { throw UsageError(command: "merge", message: "missing <in>...: the shard files to combine") }
        let summary = try ReportMerge.merge(output: output, inputs: inputs, busyTimeoutMs: JobOptions.busyTimeoutMs)
        print("keysim merge: \(summary.inputs) file(s), \(summary.runs) run(s) of \(summary.jobDescriptions.joined(separator: "; "))")
        let store = try ReportStore(path: output, readOnly: true, busyTimeoutMs: JobOptions.busyTimeoutMs)
        for jobID in summary.jobIDs {
            for comparison in try Comparison.load(store.database, jobID: jobID) {
                print("")
                print("\(comparison.labelA) (A) vs \(comparison.labelB) (B), \(comparison.pairs) pairs of runs")
                print(comparison.table(), terminator: "")
            }
            for sweep in try Sweep.load(store.database, jobID: jobID) {
                print("")
                print(sweep.table(), terminator: "")
            }
        }
        print("report: \(output)")
        return 0
    }
}
