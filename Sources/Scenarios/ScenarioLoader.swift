import Foundation
import Sim

/// Reads scenario files: parses JSON5, applies a policy overlay and `--set` overrides,
/// validates every field, and resolves trace paths.
public enum ScenarioLoader {
    /// The largest scenario (or lexicon) file read: 64 MiB.
    public static let scenarioBytesMax: Int64 = 64 << 20

    /// Loads and validates a scenario file.
    /// - Parameters:
    ///   - path: the file, as the user named it (errors repeat it).
    ///   - policy: the name of a policy in the file's `policies` object, applied over the base.
    ///   - overrides: `--set` values applied last.
    public static func load(path: String, policy: String? = nil, overrides: [Override] = []) throws(ConfigError) -> Scenario {
        try parse(try ConfigFile.text(path), path: path, policy: policy, overrides: overrides)
    }

    /// Parses and validates scenario text; `path` locates errors and relative trace paths.
    public static func parse(_ text: String, path: String, policy: String? = nil,
                             overrides: [Override] = []) throws(ConfigError) -> Scenario {
        var root = try ConfigFile.parse(text, path: path)
        _ = try ConfigReader(root, path: "", file: path)
        let (fileOverrides, fieldOverrides) = try splitOverrides(overrides, file: path)
        // `--set include=…` and `--set policies…` change what the file says, before its
        // includes and policies are read, so they are checked exactly as the file's own values.
        for override in fileOverrides { root = root.setting(override.keys[...], to: override.value) }
        let expanded = try expandingIncludes(root, file: path, fieldPath: "")
        var policies: [ConfigValue.Member] = []
        for member in try readPolicies(expanded, file: path) {
            let value = try expandingIncludes(member.value, file: path, fieldPath: "policies.\(member.key)")
            policies.append(ConfigValue.Member(key: member.key, value: value))
        }
        var resolved = expanded
        if let policy {
            guard let overlay = policies.first(where: { $0.key == policy }) else {
                let known = policies.map(\.key).sorted()
                let hint = NameSuggester.suggestion(for: policy, among: known).map { "; did you mean '\($0)'?" }
                    ?? (known.isEmpty ? "; the file defines none" : "; known: \(known.joined(separator: ", "))")
                throw ConfigError(file: path, line: 0, column: 0, path: "policies",
                                  message: "no policy named \(NameSuggester.quoted(policy))" + hint)
            }
            resolved = resolved.merging(overlay.value)
        }
        resolved = applying(fieldOverrides, to: resolved)
        let dictionaries = DictionaryReads()
        let scenario = try decode(resolved, path: path, policy: policy, policyNames: policies.map(\.key).sorted(),
                                  dictionaries: dictionaries)
        // Every other policy is checked too, so that a misspelt field inside one is reported
        // now rather than on the day that policy is run. (The base is checked with or
        // without a policy: `decode` above saw every field the policy does not override.)
        for other in policies where other.key != policy {
            // As the file writes it: `--set` values are for the policy being run.
            do {
                _ = try decode(expanded.merging(other.value), path: path, policy: other.key, policyNames: [],
                               dictionaries: dictionaries)
            } catch {
                var inPolicy = error
                inPolicy.path = "policies.\(other.key)" + (error.path.isEmpty ? "" : ".\(error.path)")
                throw inPolicy
            }
        }
        return scenario
    }

    static func readPolicies(_ root: ConfigValue, file: String) throws(ConfigError) -> [ConfigValue.Member] {
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

    /// Decodes the scenario fields of an included file, which names no traces.
    static func decodeFragment(_ root: ConfigValue, path: String) throws(ConfigError) -> Scenario {
        try decode(root, path: path, policy: nil, policyNames: [], fragment: true, dictionaries: DictionaryReads())
    }

    private static func decode(_ root: ConfigValue, path: String, policy: String?,
                               policyNames: [String], fragment: Bool = false,
                               dictionaries: DictionaryReads) throws(ConfigError) -> Scenario {
        var o = try ConfigReader(root, path: "", file: path)
        o.allow("policies")
        let gates = try o.optional("gates", GateRule.rules(config:)) ?? []
        let baseName = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let name = try o.optional("name") { f throws(ConfigError) in try f.string() } ?? baseName
        let description = try o.optional("description") { f throws(ConfigError) in try f.string() } ?? ""
        let seed = try o.optional("seed") { f throws(ConfigError) in UInt64(try f.integer64(in: 0...Int64.max)) } ?? 1
        let replications = try o.optional("replications") { f throws(ConfigError) in
            try f.integer(in: 1...Scenario.replicationsMax)
        } ?? 10
        // A fleet's sessions come from its own typists: it needs no `traces`.
        let tracesRequired = !fragment && !o.has("fleet")
        let fleet = try o.optional("fleet") { f throws(ConfigError) in try FleetConfig.read(f, scenarioPath: path) }
        let traces = !tracesRequired && !o.has("traces") ? [] : try o.required("traces") { f throws(ConfigError) -> [TraceEntry] in
            var index = 0
            let list = try f.array { t throws(ConfigError) -> TraceEntry in
                defer { index += 1 }
                // A trace file, or `{population: {…}}`.
                if case .object = t.value.kind { return .population(try TracePopulation.read(t, index: index, scenarioPath: path)) }
                return .file(try traceFile(t, scenarioPath: path))
            }
            guard !list.isEmpty else { throw f.error("needs at least one trace") }
            return list
        }
        let detail = try o.optional("detail") { f throws(ConfigError) in
            ReportDetail(rawValue: try f.oneOf(ReportDetail.allCases.map(\.rawValue)))!
        } ?? .default
        var keyboard = KeyboardConfig()
        try o.optional("keyboard") { f throws(ConfigError) in try readKeyboard(f, into: &keyboard) }
        try o.optional("checker") { f throws(ConfigError) in try readChecker(f, scenarioPath: path, into: &keyboard.checker) }
        try o.optional("debounce") { f throws(ConfigError) in keyboard.debounce = try readDebounce(f) }
        try o.optional("network") { f throws(ConfigError) in try NetworkConfig.read(f, into: &keyboard.network) }
        try o.optional("cloud") { f throws(ConfigError) in try CloudConfig.read(f, into: &keyboard.cloud) }
        try o.optional("underlines") { f throws(ConfigError) in try readUnderlines(f, into: &keyboard.underlines) }
        try o.optional("budgets") { f throws(ConfigError) in keyboard.budgets = try readBudgets(f) }
        try o.optional("typing") { f throws(ConfigError) in try readTyping(f, scenarioPath: path, dictionaries: dictionaries, into: &keyboard) }
        try o.optional("dictation") { f throws(ConfigError) in
            keyboard.dictation = try DictationConfig(config: f)
            // `dictation.stopToTextBudgetMs` sets (or with null removes) the dictation-stop-to-text budget.
            if f.value["stopToTextBudgetMs"] != nil {
                keyboard.budgets.removeAll { $0.metric == .dictationStopToText }
                if let budget = keyboard.dictation.stopToTextBudget {
                    keyboard.budgets.append(Budget(metric: .dictationStopToText, limit: budget, allowedShare: 0.05))
                }
            }
        }
        try o.optional("memory") { f throws(ConfigError) in try ExtensionConfigReader.readMemory(f, into: &keyboard.memory) }
        try o.optional("languages") { f throws(ConfigError) in try ExtensionConfigReader.readLanguages(f, into: &keyboard.languages) }
        try o.optional("token") { f throws(ConfigError) in try ExtensionConfigReader.readToken(f, into: &keyboard.token) }
        try o.optional("limits") { f throws(ConfigError) in keyboard.limits = try readLimits(f) }
        try o.finish()
        return Scenario(name: name, description: description, path: path, seed: seed, replications: replications,
                        traceEntries: traces, policy: policy, policyNames: policyNames, detail: detail, keyboard: keyboard,
                        resolvedConfig: root.removingMember("gates"), gates: gates, fleet: fleet)
    }

    /// A trace file named by `t`, resolved relative to the scenario; it must be a regular file.
    static func traceFile(_ t: ConfigField, scenarioPath: String) throws(ConfigError) -> String {
        let resolved = resolve(try t.string(), besides: scenarioPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) else {
            throw t.error("trace file not found: \(resolved)")
        }
        if isDirectory.boolValue { throw t.error("\(resolved) is a directory, not a trace file") }
        if let kind = SystemCalls.nonRegularKind(atPath: resolved) { throw t.error("\(resolved) is a \(kind), not a trace file") }
        return resolved
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

    /// Reads `limits: {simulatedHoursMax: 720, eventsMax: 200000000}`: how far one
    /// replication may run before it stops with an error.
    private static func readLimits(_ field: ConfigField) throws(ConfigError) -> RunLimits {
        var l = try field.object()
        var limits = RunLimits()
        if let hours = try l.optional("simulatedHoursMax", { x throws(ConfigError) in
            try x.integer(in: 1...RunLimits.simulatedHoursMaxLimit)
        }) {
            limits.simulatedTimeMax = SimTime(nanoseconds: Int64(hours) * 3_600_000_000_000)
        }
        if let events = try l.optional("eventsMax", { x throws(ConfigError) in try x.integer(in: 1...(1 << 40)) }) {
            limits.eventsMax = events
        }
        try l.finish()
        return limits
    }

    private static func readKeyboard(_ field: ConfigField, into keyboard: inout KeyboardConfig) throws(ConfigError) {
        var k = try field.object()
        try k.optional("threads") { f throws(ConfigError) in
            var t = try f.object()
            guard case .object(let members) = f.value.kind else { return }
            for member in members {
                let config = try t.required(member.key) { e throws(ConfigError) in try readExecutor(e, name: member.key) }
                if let index = keyboard.threads.firstIndex(where: { $0.name == member.key }) {
                    keyboard.threads[index] = config
                } else {
                    keyboard.threads.append(config)
                }
            }
            try t.finish()
            guard keyboard.threads.contains(where: { $0.name == "main" }) else { throw f.error("needs a thread named 'main'") }
        }
        try k.optional("work") { f throws(ConfigError) in
            var w = try f.object()
            for kind in KeyboardWork.allCases {
                try w.optional(kind.rawValue) { e throws(ConfigError) in
                    var current = keyboard.config(for: kind)
                    var r = try e.object()
                    if let thread = try r.optional("thread", { x throws(ConfigError) in try x.string() }) {
                        guard keyboard.threads.contains(where: { $0.name == thread }) else {
                            throw r.error("thread", "no thread named '\(thread)'; threads: \(keyboard.threads.map(\.name).joined(separator: ", "))")
                        }
                        current.thread = thread
                    }
                    if let priority = try r.optional("priority", { x throws(ConfigError) in try x.integer(in: -1000...1000) }) {
                        current.priority = priority
                    }
                    if let cost = try r.optional("cost", Distribution.init(config:)) { current.cost = cost }
                    try r.finish()
                    keyboard.work[kind] = current
                }
            }
            try w.finish()
        }
        if let coalesce = try k.optional("coalesceStaleSuggestions", { x throws(ConfigError) in try x.bool() }) {
            keyboard.coalesceStaleSuggestions = coalesce
        }
        try k.finish()
    }

    private static func readChecker(_ field: ConfigField, scenarioPath: String, into checker: inout CheckerConfig) throws(ConfigError) {
        var c = try field.object()
        if let recall = try c.optional("recall", { x throws(ConfigError) in try x.probability() }) { checker.recall = recall }
        if let rate = try c.optional("falsePositiveRate", { x throws(ConfigError) in try x.probability() }) { checker.falsePositiveRate = rate }
        try c.optional("lexicon") { x throws(ConfigError) in
            let path = resolve(try x.string(), besides: scenarioPath)
            guard let bytes = try? FileByteSource.readAll(path: path, bytesMax: scenarioBytesMax),
                  let text = String(validating: bytes, as: UTF8.self) else {
                throw x.error("cannot read lexicon file \(path)")
            }
            checker.lexicon = Set(text.split(whereSeparator: \.isNewline).compactMap { line in
                line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map { $0.lowercased() }
            })
            guard !checker.lexicon.isEmpty else { throw x.error("lexicon file \(path) holds no words") }
        }
        try c.finish()
    }

    private static func readUnderlines(_ field: ConfigField, into underlines: inout UnderlineConfig) throws(ConfigError) {
        var u = try field.object()
        if let speculative = try u.optional("speculative", { x throws(ConfigError) in try x.bool() }) { underlines.speculative = speculative }
        if let window = try u.optional("flickerWindowMs", { x throws(ConfigError) in try x.milliseconds() }) { underlines.flickerWindow = window }
        if let rate = try u.optional("acceptanceRate", { x throws(ConfigError) in try x.probability() }) { underlines.acceptanceRate = rate }
        if let delay = try u.optional("acceptanceDelay", Distribution.init(config:)) { underlines.acceptanceDelay = delay }
        if let offsets = try u.optional("offsets", { x throws(ConfigError) in
            OffsetStrategy(rawValue: try x.oneOf(OffsetStrategy.allCases.map(\.rawValue)))!
        }) { underlines.offsets = offsets }
        try u.finish()
    }

    /// Reads budgets: `{key: {ms: 10, allowedShare: 0.01}, "local-underline": {ms: 150}}`.
    /// Budgets not named keep their defaults; `{key: null}` removes one.
    private static func readBudgets(_ field: ConfigField) throws(ConfigError) -> [Budget] {
        var b = try field.object()
        var budgets = Budget.defaults
        for metric in LatencyMetric.allCases {
            if b.has(metric.rawValue), case .null? = field.value[metric.rawValue]?.kind {
                b.allow(metric.rawValue)
                budgets.removeAll { $0.metric == metric }
                continue
            }
            try b.optional(metric.rawValue) { e throws(ConfigError) in
                var r = try e.object()
                let limit = try r.required("ms") { x throws(ConfigError) in try x.durationMs(positive: true) }
                let share = try r.optional("allowedShare") { x throws(ConfigError) in try x.probability() }
                    ?? Budget.defaults.first { $0.metric == metric }?.allowedShare ?? 0.05
                try r.finish()
                let budget = Budget(metric: metric, limit: SimDuration(milliseconds: limit), allowedShare: share)
                if let index = budgets.firstIndex(where: { $0.metric == metric }) { budgets[index] = budget } else { budgets.append(budget) }
            }
        }
        try b.finish()
        return budgets
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

    /// Reads a debounce policy. `policy` is one of `sentence-aware` (`sentenceEndMs`,
    /// `otherwiseMs`), `fixed` (`delayMs`), `edges` (`waitMs`, `leading`, `trailing`,
    /// `maxWaitMs`), `throttle` (`intervalMs`), `boundary` (`on`: "word" or "sentence", `delayMs`),
    /// `adaptive` (`AdaptiveDebounce.read`).
    public static func readDebounce(_ field: ConfigField) throws(ConfigError) -> DebouncePolicy {
        var d = try field.object()
        let names = ["sentence-aware", "fixed", "edges", "throttle", "boundary", "adaptive"]
        let policy = try d.optional("policy") { f throws(ConfigError) in try f.oneOf(names) } ?? "sentence-aware"
        func ms(_ key: String, _ fallback: SimDuration? = nil) throws(ConfigError) -> SimDuration {
            if let value = try d.optional(key, { f throws(ConfigError) in try f.milliseconds() }) { return value }
            guard let fallback else { throw d.error("missing required field '\(key)' for policy '\(policy)'") }
            return fallback
        }
        let result: DebouncePolicy
        switch policy {
        case "fixed":
            result = .fixed(delay: try ms("delayMs"))
        case "edges":
            let wait = try ms("waitMs")
            let leading = try d.optional("leading") { f throws(ConfigError) in try f.bool() } ?? false
            let trailing = try d.optional("trailing") { f throws(ConfigError) in try f.bool() } ?? true
            let maxWait = try d.optional("maxWaitMs") { f throws(ConfigError) in try f.milliseconds() }
            guard leading || trailing else { throw d.error("leading and trailing cannot both be false: nothing would be sent") }
            if let maxWait, maxWait < wait { throw d.error("maxWaitMs", "must be at least waitMs") }
            result = .edges(wait: wait, leading: leading, trailing: trailing, maxWait: maxWait)
        case "throttle":
            result = .throttle(interval: try ms("intervalMs"))
        case "boundary":
            let on = try d.optional("on") { f throws(ConfigError) in try f.oneOf(["word", "sentence"]) } ?? "sentence"
            result = .boundary(sentencesOnly: on == "sentence", delay: try ms("delayMs", .zero))
        case "adaptive":
            result = .adaptive(try AdaptiveDebounce.read(&d))
        default:
            result = .sentenceAware(sentenceEnd: try ms("sentenceEndMs", .milliseconds(400)), otherwise: try ms("otherwiseMs", .milliseconds(2000)))
        }
        try d.finish()
        return result
    }

}
