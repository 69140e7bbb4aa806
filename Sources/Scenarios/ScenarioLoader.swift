import Foundation
import Sim

/// Reads scenario files: parses JSON5, applies a policy overlay and `--set` overrides,
/// validates every field, and resolves trace paths.
public enum ScenarioLoader {
    /// An override from the command line: a dotted path and a value.
    public struct Override: Sendable, Equatable {
        /// The dotted field path, such as "debounce.otherwiseMs".
        public var path: String
        /// The value to put there.
        public var value: ConfigValue
        /// Creates an override.
        public init(path: String, value: ConfigValue) { self.path = path; self.value = value }
    }

    /// Loads and validates a scenario file.
    /// - Parameters:
    ///   - path: the file, as the user named it (errors repeat it).
    ///   - policy: the name of a policy in the file's `policies` object, applied over the base.
    ///   - overrides: `--set` values applied last.
    public static func load(path: String, policy: String? = nil, overrides: [Override] = []) throws(ConfigError) -> Scenario {
        let text: String
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let decoded = String(data: data, encoding: .utf8) else {
                throw ConfigError(file: path, line: 0, column: 0, path: "", message: "not valid UTF-8 text")
            }
            text = decoded
        } catch let error as ConfigError {
            throw error
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            throw ConfigError(file: path, line: 0, column: 0, path: "", message: reason)
        }
        return try parse(text, path: path, policy: policy, overrides: overrides)
    }

    /// Parses and validates scenario text; `path` locates errors and relative trace paths.
    public static func parse(_ text: String, path: String, policy: String? = nil,
                             overrides: [Override] = []) throws(ConfigError) -> Scenario {
        let root: ConfigValue
        do {
            root = try JSON5Parser.parse(text)
        } catch {
            throw ConfigError(file: path, line: error.line, column: error.column, path: "", message: error.message)
        }
        var top = try ConfigReader(root, path: "", file: path)
        top.allow("policies")
        let policies = try readPolicies(root, file: path)
        var resolved = root
        if let policy {
            guard let overlay = policies.first(where: { $0.key == policy }) else {
                let known = policies.map(\.key).sorted()
                throw ConfigError(file: path, line: 0, column: 0, path: "policies",
                                  message: "no policy named '\(policy)'" + (known.isEmpty ? "; the file defines none" : "; known: \(known.joined(separator: ", "))"))
            }
            resolved = resolved.merging(overlay.value)
        }
        for override in overrides {
            let keys = override.path.split(separator: ".").map(String.init)
            guard !keys.isEmpty, !keys.contains(where: \.isEmpty) else {
                throw ConfigError(file: path, line: 0, column: 0, path: override.path, message: "not a field path")
            }
            resolved = resolved.setting(keys[...], to: override.value)
        }
        return try decode(resolved, path: path, policy: policy, policyNames: policies.map(\.key).sorted())
    }

    private static func readPolicies(_ root: ConfigValue, file: String) throws(ConfigError) -> [ConfigValue.Member] {
        guard let value = root["policies"] else { return [] }
        guard case .object(let members) = value.kind else {
            throw ConfigError(file: file, line: value.line, column: value.column, path: "policies",
                              message: "expected an object of named overlays, found \(value.typeName)")
        }
        for member in members {
            guard case .object = member.value.kind else {
                throw ConfigError(file: file, line: member.value.line, column: member.value.column,
                                  path: "policies.\(member.key)", message: "expected an object that overrides scenario fields")
            }
        }
        return members
    }

    private static func decode(_ root: ConfigValue, path: String, policy: String?,
                               policyNames: [String]) throws(ConfigError) -> Scenario {
        var o = try ConfigReader(root, path: "", file: path)
        o.allow("policies")
        let baseName = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let name = try o.optional("name") { f throws(ConfigError) in try f.string() } ?? baseName
        let description = try o.optional("description") { f throws(ConfigError) in try f.string() } ?? ""
        let seed = try o.optional("seed") { f throws(ConfigError) in UInt64(try f.integer(in: 0...Int(Int64.max))) } ?? 1
        let replications = try o.optional("replications") { f throws(ConfigError) in
            try f.integer(in: 1...Scenario.replicationsMax)
        } ?? 10
        let traces = try o.required("traces") { f throws(ConfigError) -> [String] in
            let list = try f.array { t throws(ConfigError) -> String in
                let relative = try t.string()
                let resolved = resolve(relative, besides: path)
                guard FileManager.default.fileExists(atPath: resolved) else {
                    throw t.error("trace file not found: \(resolved)")
                }
                return resolved
            }
            guard !list.isEmpty else { throw f.error("needs at least one trace") }
            return list
        }
        var keyboard = KeyboardConfig()
        try o.optional("keyboard") { f throws(ConfigError) in try readKeyboard(f, into: &keyboard) }
        try o.optional("debounce") { f throws(ConfigError) in keyboard.debounce = try readDebounce(f) }
        try o.optional("network") { f throws(ConfigError) in
            var n = try f.object()
            if let rtt = try n.optional("roundTrip", Distribution.init(config:)) { keyboard.networkRoundTrip = rtt }
            try n.finish()
        }
        try o.optional("cloud") { f throws(ConfigError) in
            var c = try f.object()
            if let service = try c.optional("service", Distribution.init(config:)) { keyboard.cloudService = service }
            try c.finish()
        }
        try o.optional("budgets") { f throws(ConfigError) in
            var b = try f.object()
            if let key = try b.optional("keyMs", { x throws(ConfigError) in try x.milliseconds() }) { keyboard.keyLatencyBudget = key }
            if let share = try b.optional("keyAllowedShare", { x throws(ConfigError) in try x.probability() }) {
                keyboard.keyBudgetAllowedShare = share
            }
            if let suggestion = try b.optional("suggestionMs", { x throws(ConfigError) in try x.milliseconds() }) {
                keyboard.suggestionLatencyBudget = suggestion
            }
            try b.finish()
        }
        try o.finish()
        return Scenario(name: name, description: description, path: path, seed: seed, replications: replications,
                        traces: traces, policy: policy, policyNames: policyNames, keyboard: keyboard, resolvedConfig: root)
    }

    /// `relative` resolved against the folder of `file`, lexically (`a/../b` becomes `b`),
    /// so that messages show paths the way the user wrote them, not absolute ones.
    public static func resolve(_ relative: String, besides file: String) -> String {
        if relative.hasPrefix("/") { return relative }
        var parts = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        let isAbsolute = file.hasPrefix("/")
        for part in relative.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != "..", !(last.isEmpty && isAbsolute && parts.count == 1) {
                    parts.removeLast()
                } else if !isAbsolute {
                    parts.append("..")
                }
            default: parts.append(String(part))
            }
        }
        let joined = parts.filter { !$0.isEmpty }.joined(separator: "/")
        return isAbsolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    private static func readKeyboard(_ field: ConfigField, into keyboard: inout KeyboardConfig) throws(ConfigError) {
        var k = try field.object()
        if let main = try k.optional("mainThread", { f throws(ConfigError) in try readExecutor(f, name: "main") }) {
            keyboard.mainThread = main
        }
        try k.optional("keyHandling") { f throws(ConfigError) in
            var h = try f.object()
            if let cost = try h.optional("cost", Distribution.init(config:)) { keyboard.keyHandlingCost = cost }
            try h.finish()
        }
        try k.finish()
    }

    /// Reads an executor: `{cores: 1, discipline: "fifo" | "priority" | "edf", preemptive: false}`.
    public static func readExecutor(_ field: ConfigField, name: String) throws(ConfigError) -> ExecutorConfig {
        var e = try field.object()
        let cores = try e.optional("cores") { f throws(ConfigError) in try f.integer(in: 1...1024) } ?? 1
        let discipline = try e.optional("discipline") { f throws(ConfigError) in
            SchedulingDiscipline(rawValue: try f.oneOf(SchedulingDiscipline.allCases.map(\.rawValue)))!
        } ?? .fifo
        let preemptive = try e.optional("preemptive") { f throws(ConfigError) in try f.bool() } ?? false
        try e.finish()
        return ExecutorConfig(name: name, cores: cores, discipline: discipline, preemptive: preemptive)
    }

    /// Reads a debounce policy: `{policy: "sentence-aware", sentenceEndMs: 400, otherwiseMs: 2000}`
    /// or `{policy: "fixed", delayMs: 1000}`.
    public static func readDebounce(_ field: ConfigField) throws(ConfigError) -> DebouncePolicy {
        var d = try field.object()
        let policy = try d.optional("policy") { f throws(ConfigError) in try f.oneOf(["sentence-aware", "fixed"]) } ?? "sentence-aware"
        let result: DebouncePolicy
        switch policy {
        case "fixed":
            result = .fixed(delay: try d.required("delayMs") { f throws(ConfigError) in try f.milliseconds() })
        default:
            result = .sentenceAware(
                sentenceEnd: try d.optional("sentenceEndMs") { f throws(ConfigError) in try f.milliseconds() } ?? .milliseconds(400),
                otherwise: try d.optional("otherwiseMs") { f throws(ConfigError) in try f.milliseconds() } ?? .milliseconds(2000))
        }
        try d.finish()
        return result
    }
}
