import Foundation
import XCTest

@testable import Report
import Scenarios

/// A temporary folder for report files, removed when released.
final class ReportFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("keysim-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

enum Fixtures {
    /// The package root, where `scenarios/` and `traces/` live.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scenarioPath = packageRoot.appendingPathComponent("scenarios/default.json5").path

    static func scenario(policy: String? = nil, overrides: [ScenarioLoader.Override] = []) throws -> Scenario {
        try ScenarioLoader.load(path: scenarioPath, policy: policy, overrides: overrides)
    }

    /// A comparison of the file's two policies.
    static func compareJob(replications: Int, seed: UInt64 = 42) throws -> Job {
        try Job(command: "compare", batches: [JobBatch(label: "seed", scenario: try scenario(policy: "seed")),
                                              JobBatch(label: "fixed-1s", scenario: try scenario(policy: "fixed-1s"))],
                seed: seed, replications: replications)
    }

    /// A sweep of the long debounce over `values`.
    static func sweepJob(values: [Double], replications: Int) throws -> Job {
        let batches = try values.map { value -> JobBatch in
            let settings = [(path: "debounce.otherwiseMs", value: ConfigValue(.number(value)))]
            return JobBatch(label: SweepGrid.label(settings),
                            scenario: try scenario(overrides: [ScenarioLoader.Override(path: "debounce.otherwiseMs", value: ConfigValue(.number(value)))]),
                            settingsJSON: SweepGrid.json(settings))
        }
        return try Job(command: "sweep", batches: batches, seed: 42, replications: replications,
                       extraSpec: "\"parameters\":[\"debounce.otherwiseMs\"]")
    }

    /// Every row of every table, the wall-clock columns left out, each table sorted: what
    /// two reports of the same inputs must share.
    static func rows(_ path: String) throws -> [String: [[SQLValue]]] {
        let store = try ReportStore(path: path, readOnly: true)
        var result: [String: [[SQLValue]]] = [:]
        for relation in try ReportInspector.relations(store.database) where !relation.isView {
            let columns = relation.columns.filter { $0 != "wall_seconds" && $0 != "created_at" }
            let order = relation.primaryKey.isEmpty ? "rowid" : relation.primaryKey.map(ReportInspector.quoted).joined(separator: ", ")
            result[relation.name] = try store.database.query(
                "SELECT \(columns.map(ReportInspector.quoted).joined(separator: ", ")) FROM \(relation.name) ORDER BY \(order)")
        }
        return result
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}
