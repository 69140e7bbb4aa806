import Scenarios

/// The two sides `compare` and `gate` run with common random numbers — one scenario under
/// two policies, or two scenario files — loaded and checked before anything runs.
public struct ComparisonPlan: Sendable {
    /// The scenario files, as the user named them.
    public let files: [String]
    /// Side A (the baseline) and side B (the candidate): each label (a policy, a scenario's
    /// name, or its file when both files share a name) and its scenario.
    public let sides: [(label: String, scenario: Scenario)]
    /// The seed every batch runs with: the one given, else the first side's scenario's.
    public let seed: UInt64

    /// Checks the shape of a comparison before any file is read: one file with two
    /// different policies, or two files with none.
    /// - Precondition: one or two files.
    /// - Throws: `ComparisonPlanError` saying what to give instead.
    public static func check(files: [String], policies: [String]) throws(ComparisonPlanError) {
        precondition((1...2).contains(files.count), "a comparison has one or two scenario files")
        if files.count == 2 && !policies.isEmpty {
            throw ComparisonPlanError("--policy applies to one scenario; with two files, compare the files")
        }
        if files.count == 1 && policies.count != 2 {
            throw ComparisonPlanError("give --policy twice (A and B), or two scenario files")
        }
        if files.count == 1 && policies[0] == policies[1] {
            throw ComparisonPlanError("--policy \(policies[0]) is given twice; compare two different policies")
        }
    }

    /// Loads both sides with `overrides` applied to each, after `check(files:policies:)`.
    /// - Throws: `ComparisonPlanError` for the shape, `ConfigError` for a scenario,
    ///   `ReportError` when two files replay different numbers of traces.
    public init(files: [String], policies: [String], seed: UInt64?, overrides: [ScenarioLoader.Override]) throws {
        try Self.check(files: files, policies: policies)
        self.files = files
        if files.count == 1 {
            var sides: [(label: String, scenario: Scenario)] = []
            for policy in policies {
                sides.append((policy, try ScenarioLoader.load(path: files[0], policy: policy, overrides: overrides)))
            }
            self.sides = sides
        } else {
            let a = try ScenarioLoader.load(path: files[0], overrides: overrides)
            let b = try ScenarioLoader.load(path: files[1], overrides: overrides)
            guard a.traces.count == b.traces.count else {
                throw ReportError(file: files[1], message: "replays \(b.traces.count) trace(s) but \(files[0]) replays \(a.traces.count); a comparison pairs runs of the same traces")
            }
            let sameNames = a.name == b.name
            sides = [(sameNames ? files[0] : a.name, a), (sameNames ? files[1] : b.name, b)]
        }
        self.seed = seed ?? sides[0].scenario.seed
    }

    /// The files as the header line names them.
    public var what: String { files.count == 1 ? files[0] : "\(files[0]) \(files[1])" }

    /// One batch per side.
    public var batches: [JobBatch] { sides.map { JobBatch(label: $0.label, scenario: $0.scenario) } }

    /// The first line `compare` and `gate` print.
    public func header(_ command: String, replications: Int, traces: Int) -> String {
        "keysim \(command) \(what): \(sides[0].label) (A) vs \(sides[1].label) (B), seed \(seed), \(replications) replication(s) × \(traces) trace(s)"
    }

    /// The job of both sides with `replications` each.
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
