import Foundation
import Scenarios

/// How the text of an option (or argument) becomes a typed value, with the message for text
/// it refuses, and what the shells complete it with.
struct ValueParser<Value> {
    /// What the shells complete the value with.
    var completion: ValueCompletion = .none
    /// Parses `text`, given to the option named `name` (without dashes), or throws the whole message.
    var parse: (_ text: String, _ name: String) throws(ValueError) -> Value

    /// The same text, turned into another type afterwards.
    func map<Other>(_ transform: @escaping (Value) -> Other) -> ValueParser<Other> {
        let parse = self.parse
        return ValueParser<Other>(completion: completion) { text, name throws(ValueError) in transform(try parse(text, name)) }
    }
}

extension ValueParser where Value == String {
    /// Any text.
    static var string: Self { Self { text, _ in text } }
    /// A file name.
    static var file: Self { Self(completion: .file) { text, _ in text } }
    /// A folder name.
    static var directory: Self { Self(completion: .directory) { text, _ in text } }
    /// A policy of the scenario named on the command line (checked when it is loaded).
    static var policy: Self { Self(completion: .policy) { text, _ in text } }

    /// A file name with one of `suffixes`; else "--NAME must name `what`, not 'text'".
    static func file(endingIn suffixes: [String], _ what: String) -> Self {
        Self(completion: .file) { text, name throws(ValueError) in
            guard suffixes.contains(where: text.hasSuffix) else { throw ValueError("--\(name) must name \(what), not '\(text)'") }
            return text
        }
    }

    /// A BCP 47 language tag.
    static var languageTag: Self {
        Self { text, name throws(ValueError) in
            guard TypistModel.isLanguageTag(text) else {
                throw ValueError("--\(name) must be a BCP 47 tag such as en or pt-BR, not '\(text)'")
            }
            return text
        }
    }

    /// One of `choices` (which the shells complete); `message` says what is wrong, and the
    /// closest choice is suggested after it.
    static func choice(_ choices: [String], message: @escaping (_ text: String, _ name: String) -> String) -> Self {
        Self(completion: .choices(choices)) { text, name throws(ValueError) in
            guard choices.contains(text) else {
                throw ValueError(message(text, name) + NameSuggester.hint(for: text, among: choices))
            }
            return text
        }
    }
}

extension ValueParser where Value: RawRepresentable<String> & CaseIterable {
    /// One of the type's cases by raw value: "--NAME must be one of a, b, c, not 'x'".
    static var cases: Self {
        let names = Value.allCases.map(\.rawValue)
        return ValueParser<String>.choice(names) { text, name in
            "--\(name) must be one of \(names.joined(separator: ", ")), not '\(text)'"
        }.map { Value(rawValue: $0)! }
    }
}

extension ValueParser where Value == Int {
    /// A whole number in `range`.
    static func integer(in range: ClosedRange<Int>) -> Self {
        Self { text, name throws(ValueError) in
            guard let n = Int(text), range.contains(n) else {
                throw ValueError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return n
        }
    }
}

extension ValueParser where Value == UInt64 {
    /// The seed of `run`, `compare`, `gate` and `sweep`: what a scenario's `seed` may be.
    static var scenarioSeed: Self { ValueParser<Int>.integer(in: 0...Int(Int64.max)).map { UInt64($0) } }

    /// The seed of the trace tools: any 64-bit value.
    static var traceSeed: Self {
        Self { text, name throws(ValueError) in
            guard let seed = UInt64(text) else {
                throw ValueError("--\(name) must be a whole number from 0 to \(UInt64.max), not '\(text)'")
            }
            return seed
        }
    }
}

extension ValueParser where Value == Double {
    /// A finite number in `range`.
    static func number(in range: ClosedRange<Double>) -> Self {
        Self { text, name throws(ValueError) in
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw ValueError("--\(name) must be a number from \(TraceCommand.format(range.lowerBound)) to \(TraceCommand.format(range.upperBound)), not '\(text)'")
            }
            return value
        }
    }
}
