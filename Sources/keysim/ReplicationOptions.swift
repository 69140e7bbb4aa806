import Foundation
import Report
import Scenarios

/// `--replications N|auto`, `--max-replications` and `--precision`, shared by `run`,
/// `compare` and `gate`: a fixed count, or enough replications found by `ReplicationSearch`.
enum ReplicationOptions {
    static let replications = OptionSpec(
        name: "replications", value: "N|auto",
        help: "Replications per trace (default: the scenario's); auto adds them until every checked 95% interval is narrow enough.")
    static let maxReplications = OptionSpec(
        name: "max-replications", value: "N",
        help: "With --replications auto: the most replications per trace (default: \(ReplicationPlan.defaultMaximum)).")
    static let precision = OptionSpec(
        name: "precision", value: "P",
        help: "With --replications auto: the 95% half-width to reach, a share of the mean (5%) or an amount (0.2ms); default 5%.")

    /// The three options, in the order help lists them.
    static let all = [replications, maxReplications, precision]

    /// What the options ask for.
    enum Choice {
        /// A count, or nil for the scenario's.
        case fixed(Int?)
        /// Search for the count.
        case auto(maximum: Int, target: PrecisionTarget)
    }

    /// Reads the options.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Choice {
        let command = arguments.command
        guard arguments.value("replications") == "auto" else {
            for name in ["max-replications", "precision"] where arguments.value(name) != nil {
                throw UsageError(command: command, message: "--\(name) goes with --replications auto")
            }
            if let text = arguments.value("replications"), Int(text) == nil {
                throw UsageError(command: command, message: "--replications must be a whole number from 1 to \(Scenario.replicationsMax) or auto, not '\(text)'")
            }
            return .fixed(try arguments.integer("replications", in: 1...Scenario.replicationsMax))
        }
        let maximum = try arguments.integer("max-replications", in: 2...Scenario.replicationsMax) ?? ReplicationPlan.defaultMaximum
        var target = PrecisionTarget.standard
        if let text = arguments.value("precision") {
            do {
                target = try PrecisionTarget.parse(text)
            } catch {
                throw UsageError(command: command, message: error.message)
            }
        }
        return .auto(maximum: maximum, target: target)
    }

    /// The replications to run for `batches`: the fixed count (or `scenarioDefault`), or the
    /// count the search stops at, with its outcome and plan.
    static func resolve(_ choice: Choice, batches: [JobBatch], seed: UInt64, scenarioDefault: Int, paired: Bool,
                        metrics: [String]?, threads: Int, label: String) throws
        -> (replications: Int, search: ReplicationSearch.Outcome?, plan: ReplicationPlan?) {
        switch choice {
        case .fixed(let count):
            return (count ?? scenarioDefault, nil, nil)
        case .auto(let maximum, let target):
            let plan = ReplicationPlan(maximum: maximum, target: target, metrics: metrics, paired: paired)
            let outcome = try ReplicationSearch.run(batches, seed: seed, plan: plan, threads: threads) { count in
                printError("\(label): replications auto: \(count) replication(s) checked")
            }
            return (outcome.replications, outcome, plan)
        }
    }

    /// The line that says where the search stopped.
    static func line(_ outcome: ReplicationSearch.Outcome, plan: ReplicationPlan) -> String {
        let rounds = outcome.rounds.map(String.init).joined(separator: ", ")
        let what = plan.paired ? "paired difference" : "mean"
        if outcome.reachedTarget {
            return "replications auto: \(outcome.replications) (rounds \(rounds)); every checked \(what)'s 95% half-width is within \(plan.target)"
        }
        return "replications auto: stopped at the maximum \(outcome.replications) (rounds \(rounds)); still wider than \(plan.target): \(outcome.imprecise.joined(separator: ", "))"
    }
}
