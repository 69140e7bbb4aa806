import Foundation
import XCTest

@testable import Report
import Scenarios

enum Fixtures {
    /// The package root, where `scenarios/` and `traces/` live.
    static let packageRoot = PackageRoot.url
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
    static func rows(_ path: String) throws -> [String: [[SQLValue]]] { try allRows(path) }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}
