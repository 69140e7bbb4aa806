extension ScenarioLoader {
    /// An override from the command line: a dotted path and a value.
    public struct Override: Sendable, Equatable {
        /// The dotted field path, such as "debounce.otherwiseMs".
        public var path: String
        /// The value to put there.
        public var value: ConfigValue
        /// Creates an override.
        public init(path: String, value: ConfigValue) { self.path = path; self.value = value }

        /// The top-level fields an override changes in the file itself, before includes
        /// and policies are applied, rather than in the scenario after its policy.
        public static let fileLevelKeys = ["include", "policies"]
    }

    /// The overrides split by where they apply: on the file's own `include` and `policies`
    /// (and fields inside them), or on the scenario after its policy; each with its path's keys.
    /// - Throws: a `ConfigError` for a path with an empty key (`a..b`).
    static func splitOverrides(_ overrides: [Override], file: String) throws(ConfigError)
        -> (file: [(keys: [String], value: ConfigValue)], fields: [(keys: [String], value: ConfigValue)]) {
        var split: (file: [(keys: [String], value: ConfigValue)], fields: [(keys: [String], value: ConfigValue)]) = ([], [])
        for override in overrides {
            let keys = override.path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !keys.isEmpty, !keys.contains(where: \.isEmpty) else {
                throw ConfigError(file: file, line: 0, column: 0, path: override.path, message: "not a field path")
            }
            if Override.fileLevelKeys.contains(keys[0]) {
                split.file.append((keys, override.value))
            } else {
                split.fields.append((keys, override.value))
            }
        }
        return split
    }
}
