import Foundation
import Sim

/// Content hashes that identify what a report's runs were made from.
public enum ScenarioFingerprint {
    /// SHA-256 of the resolved configuration in a canonical form (keys sorted, numbers in
    /// shortest round-trip form): the same settings hash the same whatever the file's layout.
    public static func configHash(_ value: ConfigValue) -> String {
        var text = ""
        canonical(value, into: &text)
        return SHA256.hex(text.utf8)
    }

    /// SHA-256 over the bytes of the files in order (each prefixed by its length, so that
    /// moving bytes between files changes the hash).
    public static func filesHash(_ paths: [String]) throws -> String {
        var hasher = SHA256()
        for path in paths {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw InputError(FileManager.default.fileExists(atPath: path) ? .unreadable : .noSuchFile, file: path, message: FileManager.default.fileExists(atPath: path) ? "cannot open the file" : "no such file")
            }
            defer { try? handle.close() }
            var length: UInt64 = 0
            var chunks: [Data] = []
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                length += UInt64(chunk.count)
                chunks.append(chunk)
            }
            hasher.update((0..<8).map { UInt8(truncatingIfNeeded: length >> (8 * UInt64($0))) })
            for chunk in chunks { hasher.update(chunk) }
        }
        return hasher.finalizeHex()
    }

    /// The canonical text of a configuration value.
    public static func canonicalText(_ value: ConfigValue) -> String {
        var text = ""
        canonical(value, into: &text)
        return text
    }

    private static func canonical(_ value: ConfigValue, into text: inout String) {
        switch value.kind {
        case .null: text += "null"
        case .bool(let b): text += b ? "true" : "false"
        case .number(let x): text += "\(x)"
        case .string(let s): text += "\"" + s.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "\\\($0)" : "\($0)" }.joined() + "\""
        case .array(let elements):
            text += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { text += "," }
                canonical(element, into: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { text += "," }
                canonical(ConfigValue(.string(member.key)), into: &text)
                text += ":"
                canonical(member.value, into: &text)
            }
            text += "}"
        }
    }
}
