import Report
import Scenarios

/// `compare` and `gate`: sides run with common random numbers, named by one scenario and
/// `--policy` options or by scenario files (`ComparisonPlan`): two for `gate`, two or more
/// for `compare`.
protocol PairedCommand: JobCommand {
    /// The most sides the command compares (nil: any number).
    static var maximumSides: Int? { get }
    /// The side every other is compared with, by label (`compare --baseline`).
    var baseline: String? { get }
    /// The scenario files.
    var files: [String] { get set }
    /// `--policy`, A then B.
    var policies: [String] { get set }
    /// `--set`, applied to both sides.
    var overrides: [ScenarioLoader.Override] { get set }
}

extension PairedCommand {
    /// The scenario files: one, or up to `maximumSides`.
    static func filesArgument(help: String) -> ArgumentDeclaration<Self> {
        .many("<scenario>...", \.files, help: help, maximum: maximumSides, missing: "<scenario>")
    }

    /// `--policy`, given twice (or more, for `compare`).
    static func policyOption(help: String = "A policy defined in the scenario's 'policies'; give it twice, A then B.") -> OptionDeclaration<Self> {
        .repeating("policy", \.policies, value: "NAME", help: help, .policy)
    }

    /// `--set`, for both sides.
    static var setOption: OptionDeclaration<Self> {
        .repeating("set", \.overrides, value: "PATH=VALUE", help: "Override a field of both sides, e.g. network.roundTrip=80.", .override)
    }

    /// Checks the shape of the comparison before any file is read.
    func checkPlan() throws(UsageError) {
        do {
            try ComparisonPlan.check(files: files, policies: policies, maximumSides: Self.maximumSides)
        } catch {
            throw Self.usage(error.message)
        }
    }

    /// Both sides, loaded and checked.
    func plan() throws -> ComparisonPlan {
        try ComparisonPlan(files: files, policies: policies, seed: job.seed, overrides: overrides, maximumSides: Self.maximumSides,
                           baseline: baseline)
    }
}

extension ComparisonPlan {
    /// The members of the `compare` and `gate` JSON documents that describe the comparison.
    func document(comparison: Comparison, replications: ResolvedReplications, traces: Int, reportPath: String) -> [(String, JSONTree)] {
        [
            ("scenarios", .array(files.map { .string($0) })), ("scenarioName", .string(comparison.scenarioName)),
            ("labelA", .string(comparison.labelA)), ("labelB", .string(comparison.labelB)),
            ("seed", .integer(Int64(bitPattern: seed))), ("replications", .integer(replications.replications)),
            ("traces", .integer(traces)), ("pairs", .integer(comparison.pairs)), ("confidence", .number(Comparison.confidence)),
            ("replicationSearch", JSONOutput.replicationSearch(replications.search, plan: replications.plan)),
            ("report", .string(reportPath)), ("metrics", JSONOutput.comparisonRows(comparison)),
        ]
    }
}

extension ComparisonPlan {
    /// The members of the `keysim.compare` JSON document (version 2): the plan, then the
    /// policies' table (`PolicyComparison.document`).
    func document(_ policies: PolicyComparison, replications: ResolvedReplications, traces: Int, reportPath: String) -> [(String, JSONTree)] {
        [
            ("scenarios", .array(files.map { .string($0) })), ("scenarioName", .string(policies.scenarioName)),
            ("seed", .integer(Int64(bitPattern: seed))), ("replications", .integer(replications.replications)),
            ("traces", .integer(traces)), ("pairs", .integer(policies.comparisons[0].pairs)), ("confidence", .number(Comparison.confidence)),
            ("replicationSearch", JSONOutput.replicationSearch(replications.search, plan: replications.plan)),
            ("report", .string(reportPath)),
        ] + policies.document()
    }
}
