/// A rules file for `keysim gate --rules FILE`: a JSON5 object with a `gates` array, the
/// same shape as a scenario's `gates` section.
public enum GateRuleFile {
    /// Reads and validates the rules in `path`.
    /// - Throws: a `ConfigError` naming the file, line and column of the first problem.
    public static func load(path: String) throws(ConfigError) -> [GateRule] {
        try parse(try ConfigFile.text(path), path: path)
    }

    /// Parses rules text; `path` locates errors.
    public static func parse(_ text: String, path: String) throws(ConfigError) -> [GateRule] {
        let root = try ConfigFile.parse(text, path: path)
        var top = try ConfigReader(root, path: "", file: path)
        let rules = try top.required("gates", GateRule.rules(config:))
        try top.finish()
        return rules
    }
}

extension ConfigValue {
    /// A copy of this object without the member `key` (self when it is not an object).
    func removingMember(_ key: String) -> ConfigValue {
        guard case .object(let members) = kind else { return self }
        var copy = self
        copy.kind = .object(members.filter { $0.key != key })
        return copy
    }
}
