import Report
import Scenarios

/// `--replications N|auto`: a count, or a search for one.
enum ReplicationCount: Equatable {
    /// This many replications per trace.
    case count(Int)
    /// As many as `ReplicationSearch` finds.
    case auto
}

/// `--typist`: a preset by name, or a profile file from `keysim trace fit`.
enum TypistChoice: Equatable {
    /// A preset (`TypistProfile.presetNames`).
    case preset(String)
    /// A profile file.
    case file(String)

    /// The name as given.
    var name: String {
        switch self {
        case .preset(let name), .file(let name): name
        }
    }
}

/// `calibrate --kind`: the family each fit chooses by itself, or one forced.
enum CalibrationKind: Equatable {
    /// The lowest AIC among the acceptable fits.
    case auto
    /// This family for every target.
    case forced(FitFamily)

    /// The family forced, or nil for auto.
    var forcedFamily: FitFamily? {
        if case .forced(let family) = self { return family }
        return nil
    }
}

extension ValueParser where Value == ReplicationCount {
    /// A whole number from 1 to `Scenario.replicationsMax`, or `auto`.
    static var replications: Self {
        let count = ValueParser<Int>.integer(in: 1...Scenario.replicationsMax)
        return Self { text, name throws(ValueError) in
            if text == "auto" { return .auto }
            guard Int(text) != nil else {
                throw ValueError("--\(name) must be a whole number from 1 to \(Scenario.replicationsMax) or auto, not '\(text)'")
            }
            return .count(try count.parse(text, name))
        }
    }
}

extension ValueParser {
    /// The parser of a type that parses itself, with its error's message as the option's.
    static func parsing<Failure: Error>(_ parse: @escaping (String) throws(Failure) -> Value,
                                        message: @escaping (Failure, _ name: String) -> String) -> Self {
        Self { text, name throws(ValueError) in
            do throws(Failure) {
                return try parse(text)
            } catch {
                throw ValueError(message(error, name))
            }
        }
    }
}

extension ValueParser where Value == PrecisionTarget {
    /// A share of the mean (`5%`) or an amount in a metric's unit (`0.2ms`).
    static var precision: Self {
        .parsing(PrecisionTarget.parse) { error, name in error.message.replacingOccurrences(of: "--precision", with: "--\(name)") }
    }
}

extension ValueParser where Value == Shard {
    /// `K/N`.
    static var shard: Self { .parsing(Shard.parse) { error, _ in error.message } }
}

extension ValueParser where Value == ScenarioLoader.Override {
    /// `PATH=VALUE`.
    static var override: Self { .parsing(ScenarioLoader.Override.parse) { error, _ in error.message } }
}

extension ValueParser where Value == SweepParameter {
    /// `PATH=VALUES`: a range, a list or one value.
    static var sweepParameter: Self { .parsing(SweepParameter.parse) { error, _ in error.message } }
}

extension ValueParser where Value == TypistChoice {
    /// A preset, or a name that looks like a file (it has a `.` or a `/`).
    static var typist: Self {
        let presets = TypistProfile.presetNames
        return Self(completion: .choicesOrFile(presets)) { text, name throws(ValueError) in
            if presets.contains(text) { return .preset(text) }
            guard text.contains(".") || text.contains("/") else {
                throw ValueError("--\(name) '\(text)' is neither a preset (\(presets.joined(separator: ", "))) nor a profile file (typist.json5)"
                                 + NameSuggester.hint(for: text, among: presets))
            }
            return .file(text)
        }
    }
}

extension ValueParser where Value == CalibrationKind {
    /// `auto` or a fit family.
    static var calibrationKind: Self {
        let families = FitFamily.allCases.map(\.rawValue)
        return ValueParser<String>.choice(["auto"] + families) { text, name in
            "--\(name) must be auto or one of \(families.joined(separator: ", ")), not '\(text)'"
        }.map { $0 == "auto" ? .auto : .forced(FitFamily(rawValue: $0)!) }
    }
}

extension ValueParser where Value == Aalto136MImporter.Format {
    /// A dataset `trace import` reads.
    static var dataset: Self {
        let names = Aalto136MImporter.Format.allCases.map(\.rawValue)
        return ValueParser<String>.choice(names) { text, name in
            "unknown --\(name) '\(text)' (expected \(names.joined(separator: " or ")))"
        }.map { Aalto136MImporter.Format(rawValue: $0)! }
    }
}

extension ValueParser where Value == Double {
    /// A share from 0 to below 1.
    static var share: Self {
        Self { text, name throws(ValueError) in
            guard let share = Double(text), share >= 0, share < 1 else {
                throw ValueError("--\(name) must be a share from 0 to below 1, not '\(text)'")
            }
            return share
        }
    }
}
