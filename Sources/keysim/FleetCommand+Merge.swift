import Report

/// `keysim merge` of the reports of `keysim fleet --shard K/N`.
extension MergeCommand {
    /// Merges fleet shard reports (`FleetReportMerge`) and prints the merged day.
    func mergeFleet(busyTimeoutMs: Int) throws -> Int32 {
        let summary = try FleetReportMerge.merge(output: output, inputs: inputs, busyTimeoutMs: busyTimeoutMs)
        let report = summary.report
        print("keysim merge: \(summary.inputs) file(s), the fleet of scenario '\(report.scenarioName)' (seed \(report.seed), \(report.users) user(s), \(report.partitionCount) partition(s))")
        print("")
        print(report.summaryTable(), terminator: "")
        print("report: \(output)")
        return 0
    }
}
