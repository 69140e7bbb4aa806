import Scenarios

/// The sides `compare` and `gate` run with common random numbers — one scenario under
/// several policies, or several scenario files — loaded and checked before anything runs.
/// `gate` has exactly two (baseline, candidate); `compare` two or more, the first (or
/// `--baseline`) the one every other is compared with.
public struct ComparisonPlan: Sendable {
    /// The scenario files, as the user named them.
    public let files: [String]
    /// The sides, the baseline first: each label (a policy, a scenario's name, or its file
    /// when two files share a name) and its scenario. With two, A (the baseline) and B (the
    /// candidate).
    public let sides: [(label: String, scenario: Scenario)]
    /// The seed every batch runs with: the one given, else the first side's scenario's.
    public let seed: UInt64

    /// Checks the shape of a comparison before any file is read: one file with at least two
    /// different policies, or several files with none; at most `maximumSides` sides (`gate`: 2).
    /// - Precondition: at least one file.
    /// - Throws: `ComparisonPlanError` saying what to give instead.
    public static func check(files: [String], policies: [String], maximumSides: Int? = 2) throws(ComparisonPlanError) {
        precondition(!files.isEmpty, "a comparison has a scenario file")
        let pair = maximumSides == 2
        if files.count >= 2 && !policies.isEmpty {
            throw ComparisonPlanError("--policy applies to one scenario; with two files, compare the files")
        }
        if files.count == 1 && (pair ? policies.count != 2 : policies.count < 2) {
            throw ComparisonPlanError(pair ? "give --policy twice (A and B), or two scenario files"
                                           : "give --policy two or more times (the first is the baseline), or two or more scenario files")
        }
        if let maximumSides, files.count > maximumSides {
            throw ComparisonPlanError("give at most \(maximumSides) scenario files")
        }
        if files.count == 1, let repeated = policies.indices.first(where: { policies[..<$0].contains(policies[$0]) }) {
            throw ComparisonPlanError("--policy \(policies[repeated]) is given twice; compare \(pair ? "two " : "")different policies")
        }
    }

    /// Loads every side with `overrides` applied to each, after `check(files:policies:)`, and
    /// puts the side labelled `baseline` (if given) first.
    /// - Throws: `ComparisonPlanError` for the shape or an unknown baseline, `ConfigError`
    ///   for a scenario, `ReportError` when two files replay different numbers of traces.
    public init(files: [String], policies: [String], seed: UInt64?, overrides: [ScenarioLoader.Override],
                maximumSides: Int? = 2, baseline: String? = nil) throws {
        try Self.check(files: files, policies: policies, maximumSides: maximumSides)
        self.files = files
        var sides: [(label: String, scenario: Scenario)] = []
        if files.count == 1 {
            for policy in policies {
                sides.append((policy, try ScenarioLoader.load(path: files[0], policy: policy, overrides: overrides)))
            }
        } else {
            let scenarios = try files.map { try ScenarioLoader.load(path: $0, overrides: overrides) }
            for (file, scenario) in zip(files, scenarios) where scenario.traces.count != scenarios[0].traces.count {
                throw ReportError(file: file, message: "replays \(scenario.traces.count) trace(s) but \(files[0]) replays \(scenarios[0].traces.count); a comparison pairs runs of the same traces")
            }
            let names = scenarios.map(\.name)
            let distinct = Set(names).count == names.count
            sides = zip(files, scenarios).map { (distinct ? $1.name : $0, $1) }
        }
        if let baseline {
            guard let index = sides.firstIndex(where: { $0.label == baseline }) else {
                throw ComparisonPlanError("--baseline \(baseline) is not one of the sides compared: \(sides.map(\.label).joined(separator: ", "))")
            }
            sides.insert(sides.remove(at: index), at: 0)
        }
        self.sides = sides
        self.seed = seed ?? sides[0].scenario.seed
    }

    /// The files as the header line names them.
    public var what: String { files.joined(separator: " ") }

    /// One batch per side.
    public var batches: [JobBatch] { sides.map { JobBatch(label: $0.label, scenario: $0.scenario) } }

    /// The first line `compare` and `gate` print.
    public func header(_ command: String, replications: Int, traces: Int) -> String {
        let who = sides.count == 2 ? "\(sides[0].label) (A) vs \(sides[1].label) (B)"
            : "\(sides[0].label) (baseline) vs \(sides.dropFirst().map(\.label).joined(separator: ", "))"
        return "keysim \(command) \(what): \(who), seed \(seed), \(replications) replication(s) × \(traces) trace(s)"
    }

    /// The job of every side with `replications` each.
    /// - Throws: an `InputError` when a trace file cannot be read for its hash.
    public func job(command: String, replications: Int) throws -> Job {
        try Job(command: command, batches: batches, seed: seed, replications: replications)
    }
}

/// A comparison asked for in a shape keysim cannot run (a usage mistake).
public struct ComparisonPlanError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong and what to give instead.
    public let message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
