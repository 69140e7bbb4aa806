import Foundation
import Scenarios
import Sim

/// `keysim trace <subcommand>`: validate, summarise, synthesise, anonymise and import traces.
///
/// `main.swift` looks commands up by their first word and parses the rest against the
/// command's spec before running it. So that `keysim trace synth --wpm 40` parses against
/// the options of `synth` (and `keysim trace synth --help` prints synth's help), `spec`
/// is the spec of the subcommand named on the command line ("trace synth", so usage errors
/// name the subcommand); with no subcommand named it is the overview.
enum TraceCommand {
    /// One subcommand: its spec (named "trace <name>") and what runs it.
    struct Subcommand {
        var name: String
        var spec: CommandSpec
        var run: (ParsedArguments) throws -> Int32
    }

    /// The subcommands, in the order the overview lists them.
    static var subcommands: [Subcommand] {
        [
            Subcommand(name: "validate", spec: validateSpec, run: validate),
            Subcommand(name: "stats", spec: statsSpec, run: stats),
            Subcommand(name: "synth", spec: synthSpec, run: synth),
            Subcommand(name: "fit", spec: fitSpec, run: fit),
            Subcommand(name: "compare", spec: compareSpec, run: compare),
            Subcommand(name: "anonymize", spec: anonymizeSpec, run: anonymize),
            Subcommand(name: "import", spec: importSpec, run: importFiles),
        ]
    }

    /// The help of `keysim trace` itself.
    static var overview: CommandSpec {
        CommandSpec(
            name: "trace",
            abstract: "Work with traces: validate, summarise, synthesise, fit typists, compare, anonymise, import.",
            usage: "trace <subcommand> [options]",
            arguments: [("<subcommand>", "validate, stats, synth, fit, compare, anonymize or import.")],
            discussion: """
            SUBCOMMANDS:
            \(subcommands.map { "  " + $0.name.padding(toLength: 11, withPad: " ", startingAt: 0) + $0.spec.abstract }.joined(separator: "\n"))

            Run 'keysim trace <subcommand> --help' for a subcommand's options.
            Traces are JSON Lines, optionally zstd-compressed (.jsonl.zst): see docs/trace-format.md.
            """
        )
    }

    /// The spec `main.swift` parses the command line with.
    static var spec: CommandSpec { spec(for: CommandLine.arguments) }

    /// The spec for a command line (`arguments[0]` is the program): the named subcommand's
    /// spec, or the overview.
    static func spec(for arguments: [String]) -> CommandSpec {
        guard arguments.count >= 3, arguments[1] == "trace",
              let subcommand = subcommands.first(where: { $0.name == arguments[2] }) else { return overview }
        return subcommand.spec
    }

    /// Runs the subcommand named by the first positional argument.
    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let name = arguments.positionals.first else {
            throw UsageError(command: "trace", message: "missing <subcommand> (validate, stats, synth, fit, compare, anonymize or import)")
        }
        guard let subcommand = subcommands.first(where: { $0.name == name }) else {
            throw UsageError(command: "trace", message: "unknown subcommand '\(name)' (expected validate, stats, synth, fit, compare, anonymize or import)")
        }
        var rest = arguments
        rest.positionals.removeFirst()
        return try subcommand.run(rest)
    }

    // MARK: Shared helpers

    /// At least one positional argument, named for the error message.
    static func files(_ arguments: ParsedArguments, command: String, _ names: String) throws(UsageError) -> [String] {
        guard !arguments.positionals.isEmpty else { throw UsageError(command: command, message: "missing \(names)") }
        return arguments.positionals
    }

    /// Exactly `count` positional arguments, named for the error message.
    static func positionals(_ arguments: ParsedArguments, exactly count: Int, _ names: String,
                            command: String) throws(UsageError) -> [String] {
        let given = arguments.positionals
        guard given.count == count else {
            let problem = given.count < count ? "missing \(names)" : "unexpected argument '\(given[count])'"
            throw UsageError(command: command, message: problem)
        }
        return given
    }

    /// A number option within a range.
    static func number(_ arguments: ParsedArguments, _ name: String, in range: ClosedRange<Double>,
                       command: String) throws(UsageError) -> Double? {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(command: command, message: "--\(name) must be a number from \(format(range.lowerBound)) to \(format(range.upperBound)), not '\(text)'")
        }
        return value
    }

    /// A seed: a whole number from 0 to 2^64 - 1.
    static func seed(_ arguments: ParsedArguments, command: String) throws(UsageError) -> UInt64 {
        guard let text = arguments.value("seed") else {
            throw UsageError(command: command, message: "missing --seed <S> (the same seed gives the same result)")
        }
        guard let seed = UInt64(text) else {
            throw UsageError(command: command, message: "--seed must be a whole number from 0 to 18446744073709551615, not '\(text)'")
        }
        return seed
    }

    /// A number without trailing zeros: 5, 0.5, 250.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Milliseconds with one decimal from nanoseconds.
    static func milliseconds(_ nanos: Int64) -> String {
        String(format: "%.1f", Double(nanos) / 1e6)
    }

    /// Seconds with one decimal from nanoseconds.
    static func seconds(_ nanos: Int64) -> String {
        String(format: "%.1f", Double(nanos) / 1e9)
    }

    /// "1 event", "2 events".
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }
}
