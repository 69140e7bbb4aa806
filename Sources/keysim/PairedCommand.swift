import Report
import Scenarios

/// `compare` and `gate`: two sides run with common random numbers, named by one scenario
/// and two `--policy` options or by two scenario files (`ComparisonPlan`).
protocol PairedCommand: JobCommand {
    /// The scenario files.
    var files: [String] { get set }
    /// `--policy`, A then B.
    var policies: [String] { get set }
    /// `--set`, applied to both sides.
    var overrides: [ScenarioLoader.Override] { get set }
}

extension PairedCommand {
    /// The scenario files, one or two.
    static func filesArgument(help: String) -> ArgumentDeclaration<Self> {
        .many("<scenario>...", \.files, help: help, maximum: 2, missing: "<scenario>")
    }

    /// `--policy`, given twice.
    static var policyOption: OptionDeclaration<Self> {
        .repeating("policy", \.policies, value: "NAME", help: "A policy defined in the scenario's 'policies'; give it twice, A then B.", .policy)
    }

    /// `--set`, for both sides.
    static var setOption: OptionDeclaration<Self> {
        .repeating("set", \.overrides, value: "PATH=VALUE", help: "Override a field of both sides, e.g. network.roundTrip=80.", .override)
    }

    /// Checks the shape of the comparison before any file is read.
    func checkPlan() throws(UsageError) {
        do {
            try ComparisonPlan.check(files: files, policies: policies)
        } catch {
            throw Self.usage(error.message)
        }
    }

    /// Both sides, loaded and checked.
    func plan() throws -> ComparisonPlan {
        try ComparisonPlan(files: files, policies: policies, seed: job.seed, overrides: overrides)
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
