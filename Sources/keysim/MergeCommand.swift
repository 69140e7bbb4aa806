import Foundation
import Report
import Scenarios

/// `keysim merge`: combine the report files of a job's shards into one report.
struct MergeCommand: ParsableCommand {
    var output = ""
    var inputs: [String] = []

    static var configuration: CommandConfiguration<Self> {
        CommandConfiguration(
            name: "merge",
            abstract: "Combine the report files of --shard runs into one report, as if run on one machine.",
            usage: "merge <out> <in>...",
            arguments: [
                .one("<out>", \.output, help: "The merged report (created if missing; an existing report keeps its rows).", .file),
                .many("<in>...", \.inputs, help: "The shard files, such as keysim-report.shard-*-of-8.sqlite, in any order.",
                      missing: "<in>...: the shard files to combine"),
            ],
            discussion: """
            The inputs must be the complete set of shards of the same job(s): the same command,
            scenario, seed, replications and settings, and the same keysim version, each shard
            present once. The merged report holds the same rows as one run on one machine (run
            ids in work-item order), except the wall-clock columns; comparisons and sweeps are
            computed from the merged runs. Everything is checked before anything is written: on
            an error no file changes. The shard files of keysim fleet --shard merge the same way
            into the fleet one machine runs: the same scenario, settings, seed and users, every
            partition once.
            """
        )
    }

    func run() throws -> Int32 {
        let busyTimeoutMs = JobReport.busyTimeoutMs(environment: ProcessInfo.processInfo.environment)
        if FleetReportMerge.holdsFleets(inputs, busyTimeoutMs: busyTimeoutMs) { return try mergeFleet(busyTimeoutMs: busyTimeoutMs) }
        let summary = try ReportMerge.merge(output: output, inputs: inputs, busyTimeoutMs: busyTimeoutMs)
        print("keysim merge: \(summary.inputs) file(s), \(summary.runs) run(s) of \(summary.jobDescriptions.joined(separator: "; "))")
        for analyses in try JobReport(path: output, busyTimeoutMs: busyTimeoutMs).analyses(jobIDs: summary.jobIDs) {
            for comparison in analyses.comparisons {
                print("")
                print("\(comparison.labelA) (A) vs \(comparison.labelB) (B), \(comparison.pairs) pairs of runs")
                print(comparison.table(), terminator: "")
            }
            for sweep in analyses.sweeps {
                print("")
                print(sweep.table(), terminator: "")
            }
        }
        print("report: \(output)")
        return 0
    }
}
