import Foundation

/// Reading a JSON5 file for the config readers: its text, and its parse with errors that
/// name the file, line and column.
enum ConfigFile {
    /// The UTF-8 text of `path`.
    static func text(_ path: String) throws(ConfigError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            throw ConfigError(file: path, line: 0, column: 0, path: "", message: reason)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, line: 0, column: 0, path: "", message: "not valid UTF-8 text")
        }
        return text
    }

    /// `text` parsed as JSON5; a syntax error is positioned in `path`.
    static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigValue {
        do {
            return try JSON5Parser.parse(text)
        } catch {
            throw ConfigError(file: path, line: error.line, column: error.column, path: "", message: error.message)
        }
    }
}
