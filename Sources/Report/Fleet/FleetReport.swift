import Scenarios
import Sim

/// A fleet run as its report holds it: the `FleetResult` (who ran — the scenario, its
/// fingerprint, the seed, the users, the partitions held — and the day it measured, one
/// `FleetMinute` a minute), the scenario file and the wall-clock time.
///
/// It is what `fleet_summary`, `fleet_minutes` and `fleet_histograms` store
/// (`FleetReportStore`) and read back exactly: every minute's additive figures and
/// histogram buckets. So the reports of a fleet's shards, read back and merged (`merge`,
/// which is `FleetResult.merge`), give the report one machine running every partition writes.
@dynamicMemberLookup
public struct FleetReport: Sendable, Equatable {
    /// What the run produced.
    public var result: FleetResult
    /// The scenario file as given.
    public var scenarioPath: String
    /// Wall-clock seconds the run took (every shard's, summed, after a merge): not digested.
    public var wallSeconds: Double

    /// A report of `result`.
    public init(_ result: FleetResult, scenarioPath: String, wallSeconds: Double = 0) {
        self.result = result
        self.scenarioPath = scenarioPath
        self.wallSeconds = wallSeconds
    }

    /// The result's members, read through: `report.users`, `report.minutes`.
    public subscript<T>(dynamicMember path: KeyPath<FleetResult, T>) -> T { result[keyPath: path] }

    /// The partitions of the fleet it lacks, ascending.
    public var missingPartitions: [Int] {
        let held = Set(result.partitions)
        return (0..<result.partitionCount).filter { !held.contains($0) }
    }

    /// Adds another shard's partitions (`FleetResult.merge`) and its wall-clock time.
    /// - Throws: `FleetMergeError` when the two are not shards of one fleet or share a partition.
    public mutating func merge(_ other: FleetReport) throws(FleetMergeError) {
        try result.merge(other.result)
        wallSeconds += other.wallSeconds
    }
}
