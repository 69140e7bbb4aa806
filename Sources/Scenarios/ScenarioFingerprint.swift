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
    /// Streamed: memory stays flat whatever the size of the files, and a device, pipe or
    /// directory is refused with an error naming it (see `FileByteSource`).
    public static func filesHash(_ paths: [String], bytesMax: Int64 = FileByteSource.defaultBytesMax) throws(InputError) -> String {
        var hasher = SHA256()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        for path in paths {
            let source = try FileByteSource(path: path, bytesMax: bytesMax)
            let length = UInt64(source.sizeBytes)
            hasher.update((0..<8).map { UInt8(truncatingIfNeeded: length >> (8 * UInt64($0))) })
            var hashed: UInt64 = 0
            while true {
                let read = try source.read(into: chunk)
                if read == 0 { break }
                hashed += UInt64(read)
                hasher.update(UnsafeRawBufferPointer(rebasing: chunk[..<read]))
            }
            guard hashed == length else {
                throw InputError(.unreadable, file: path, message: "changed size while it was read (\(length) bytes, then \(hashed))")
            }
        }
        return hasher.finalizeHex()
    }

    /// The hash of what a scenario's `traces` replay: `filesHash` of the files when every
    /// entry is one (as before populations existed); otherwise SHA-256 over one line per
    /// entry, a file's own `filesHash` or a population's content key.
    public static func tracesHash(_ entries: [TraceEntry]) throws(InputError) -> String {
        let files = entries.compactMap(\.file)
        if files.count == entries.count { return try filesHash(files) }
        var text = ""
        for entry in entries {
            switch entry {
            case .file(let path): text += "file \(try filesHash([path]))\n"
            case .population(let population): text += "population \(population.key)\n"
            }
        }
        return SHA256.hex(text.utf8)
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
