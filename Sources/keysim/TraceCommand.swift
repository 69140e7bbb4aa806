import Foundation
import Scenarios
import Sim

/// `keysim trace <subcommand>`: validate, summarise, synthesise, anonymise and import traces.
/// The subcommands are commands of their own (`TraceSynthCommand`…); this namespace holds
/// the group and the helpers they share.
enum TraceCommand {
    /// The group and its subcommands, in the order its help lists them.
    static var group: CommandGroup {
        CommandGroup(
            name: "trace",
            abstract: "Work with traces: validate, summarise, synthesise, fit typists, compare, anonymise, import.",
            subcommands: [
                AnyCommand(TraceValidateCommand.self), AnyCommand(TraceStatsCommand.self), AnyCommand(TraceSynthCommand.self),
                AnyCommand(TraceFitCommand.self), AnyCommand(TraceCompareCommand.self), AnyCommand(TraceAnonymizeCommand.self),
                AnyCommand(TraceImportCommand.self),
            ],
            footer: "Traces are JSON Lines, optionally zstd-compressed (.jsonl.zst): see docs/trace-format.md.")
    }

    // MARK: Shared helpers

    /// A number without trailing zeros: 5, 0.5, 250.
    static func format(_ value: Double) -> String {
        NumberText.shortest(value)
    }

    /// Milliseconds with one decimal from nanoseconds.
    static func milliseconds(_ nanos: Int64) -> String {
        NumberText.fixed(Double(nanos) / 1e6, 1)
    }

    /// Seconds with one decimal from nanoseconds.
    static func seconds(_ nanos: Int64) -> String {
        NumberText.fixed(Double(nanos) / 1e9, 1)
    }

    /// "1 event", "2 events".
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }
}

/// A subcommand of `keysim trace`: the shared helpers, by their short names.
protocol TraceSubcommand: ParsableCommand {}

extension TraceSubcommand {
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String { TraceCommand.count(n, singular, plural) }
    static func seconds(_ nanos: Int64) -> String { TraceCommand.seconds(nanos) }
    static func format(_ value: Double) -> String { TraceCommand.format(value) }
}
