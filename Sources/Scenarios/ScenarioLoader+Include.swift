import Foundation

extension ScenarioLoader {
    /// The most files one object may include.
    static let includesMax = 16

    /// `value` with its `include` member expanded: each named file (relative to `file`), an
    /// object of scenario fields, is merged over the object's own fields in the order
    /// named, so that an included calibration replaces the costs the scenario assumed. An
    /// included file may not name `traces`, `policies` or `include` itself; each is checked
    /// on its own first, so that an error in it names it, with its line and column.
    /// - Parameter fieldPath: where `value` sits ("" at the top, "policies.calibrated").
    static func expandingIncludes(_ value: ConfigValue, file: String, fieldPath: String) throws(ConfigError) -> ConfigValue {
        guard case .object(let members) = value.kind, let include = value["include"] else { return value }
        let includePath = fieldPath.isEmpty ? "include" : "\(fieldPath).include"
        func fail(_ at: ConfigValue, _ message: String) -> ConfigError {
            ConfigError(file: file, line: at.line, column: at.column, path: includePath, message: message)
        }
        let names: [ConfigValue]
        switch include.kind {
        case .string: names = [include]
        case .array(let elements): names = elements
        default: throw fail(include, "expected a file name or an array of file names, found \(include.typeName)")
        }
        guard names.count <= includesMax else { throw fail(include, "at most \(includesMax) files may be included") }
        var result = ConfigValue(.object(members.filter { $0.key != "include" }), line: value.line, column: value.column)
        for name in names {
            guard case .string(let relative) = name.kind, !relative.isEmpty else {
                throw fail(name, "expected a file name, found \(name.typeName)")
            }
            let included = resolve(relative, besides: file)
            let overlay = try readInclude(included, named: name, fail: fail)
            result = result.merging(overlay)
        }
        return result
    }

    /// Parses and checks one included file.
    private static func readInclude(_ path: String, named name: ConfigValue,
                                    fail: (ConfigValue, String) -> ConfigError) throws(ConfigError) -> ConfigValue {
        guard FileManager.default.fileExists(atPath: path) else { throw fail(name, "included file not found: \(path)") }
        // Read as the scenario itself is: a regular file within the size limit (never a
        // device such as /dev/zero, which `include` on the command line could name).
        let overlay = try ConfigFile.parse(try ConfigFile.text(path), path: path)
        guard case .object(let members) = overlay.kind else {
            throw ConfigError(file: path, line: overlay.line, column: overlay.column, path: "",
                              message: "an included file must be an object of scenario fields, found \(overlay.typeName)")
        }
        for member in members where ["traces", "policies", "include"].contains(member.key) {
            throw ConfigError(file: path, line: member.value.line, column: member.value.column, path: member.key,
                              message: "an included file cannot set '\(member.key)'; set it in the scenario")
        }
        // Checked alone, its errors point into it rather than into the including scenario.
        _ = try decodeFragment(overlay, path: path)
        return overlay
    }
}
