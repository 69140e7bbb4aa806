import Foundation

/// Reading a JSON5 file for the config readers: its text, and its parse with errors that
/// name the file, line and column.
enum ConfigFile {
    /// The UTF-8 text of `path`: a regular file of at most `ScenarioLoader.scenarioBytesMax`
    /// bytes (a directory or a device such as `/dev/zero` is refused with an error naming it).
    static func text(_ path: String) throws(ConfigError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try FileByteSource.readAll(path: path, bytesMax: ScenarioLoader.scenarioBytesMax)
        } catch {
            throw ConfigError(file: path, line: 0, column: 0, path: "", message: error.message)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
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
