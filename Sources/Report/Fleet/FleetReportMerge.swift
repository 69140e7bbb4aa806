import Foundation

/// Merges the reports of a fleet's shards (`keysim fleet --shard K/N`) into the report one
/// machine running every partition writes: each shard's fleet is read back
/// (`FleetReportStore`), the shards are added minute by minute (`FleetReport.merge`) and
/// the whole is written as one fleet.
///
/// Everything is checked before anything is written: the inputs must be shards of one fleet
/// (the same scenario fingerprint, seed, users and partition count), hold no partition
/// twice, and together hold every partition.
public enum FleetReportMerge {
    /// What a merge combined.
    public struct Summary: Sendable {
        /// Input files.
        public var inputs: Int
        /// The merged fleet's `fleet_id` in the output.
        public var fleetID: Int64
        /// The merged fleet.
        public var report: FleetReport
    }

    /// Whether `inputs` are fleet reports (the first holds a fleet and no job), so that
    /// `keysim merge` merges them here rather than as job shards.
    public static func holdsFleets(_ inputs: [String], busyTimeoutMs: Int) -> Bool {
        guard let first = inputs.first, FileManager.default.fileExists(atPath: first),
              let store = try? ReportStore(path: first, readOnly: true, busyTimeoutMs: busyTimeoutMs),
              let fleets = try? FleetReportStore.fleetIDs(store.database), !fleets.isEmpty else { return false }
        let jobs = (try? store.database.query("SELECT COUNT(*) FROM jobs"))?.first?.first
        return jobs == nil || jobs == .integer(0)
    }

    /// Merges the fleet shards `inputs` into `output` (created if missing; an existing
    /// report keeps its rows and gains the fleet). Each input's last fleet counts (a shard
    /// run again into its own file appends).
    /// - Throws: `ReportError` naming the offending file; no file is changed then.
    public static func merge(output: String, inputs: [String], busyTimeoutMs: Int) throws -> Summary {
        guard !inputs.isEmpty else { throw ReportError(file: output, message: "nothing to merge: give the shard files after the output") }
        try ReportMerge.checkDistinct(output: output, inputs: inputs)
        var merged: FleetReport?
        for input in inputs {
            let store = try ReportStore(path: input, readOnly: true, busyTimeoutMs: busyTimeoutMs)
            let ids: [Int64]
            do { ids = try FleetReportStore.fleetIDs(store.database) } catch { throw ReportStore.describe(error, path: input) }
            guard let last = ids.last else {
                throw ReportError(file: input, message: "holds no fleet; merge combines the files of keysim fleet --shard (or of run, compare, sweep --shard, separately)")
            }
            let shard = try FleetReportStore.read(store, fleetID: last)
            guard var whole = merged else { merged = shard; continue }
            do {
                try whole.merge(shard)
            } catch {
                throw ReportError(file: input, message: "is not a shard of the fleet in \(inputs[0]): \(error.message); merge combines the shards of one fleet run")
            }
            merged = whole
        }
        let report = merged!
        let missing = report.missingPartitions
        guard missing.isEmpty else {
            let list = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            throw ReportError(file: inputs[0], message: "cannot merge the fleet of scenario '\(report.scenarioName)': partition(s) \(list) of 0…\(report.partitionCount - 1) missing; give every shard's file")
        }
        let fleetID = try FleetReportStore.write(report, toFile: output, busyTimeoutMs: busyTimeoutMs)
        return Summary(inputs: inputs.count, fleetID: fleetID, report: report)
    }
}
