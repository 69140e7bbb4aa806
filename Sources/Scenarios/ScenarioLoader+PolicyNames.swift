extension ScenarioLoader {
    /// The names of the policies a scenario file defines, in file order, read without
    /// loading the scenario (what the shell completions offer for `--policy`).
    /// - Throws: a `ConfigError` when the file cannot be read or parsed, or its `policies`
    ///   is not an object of objects.
    public static func policyNames(path: String) throws(ConfigError) -> [String] {
        try readPolicies(try ConfigFile.parse(try ConfigFile.text(path), path: path), file: path).map(\.key)
    }
}
