import Foundation
import Scenarios

/// Where an exporter's text goes: standard output, or a file that appears whole or not at
/// all (written beside its destination and renamed into place by `finish()`).
public final class ReportOutput {
    private let file: AtomicFileWriter?
    private var buffer: [UInt8] = []

    /// Bytes gathered before a write.
    static let bufferSize = 1 << 16

    /// Output to standard output.
    public static func standardOutput() -> ReportOutput { ReportOutput(file: nil) }

    /// Output to the file at `path`, replaced only when `finish()` succeeds.
    public static func file(_ path: String) throws -> ReportOutput {
        do {
            return ReportOutput(file: try AtomicFileWriter(path: path))
        } catch {
            throw ReportError(file: path, message: error.message)
        }
    }

    private init(file: AtomicFileWriter?) {
        self.file = file
        buffer.reserveCapacity(Self.bufferSize)
    }

    /// Appends `text`.
    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Appends raw bytes (a binary format such as a Perfetto trace).
    public func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Writes what is buffered and, for a file, moves it into place.
    public func finish() throws {
        try flush()
        if let file {
            do { try file.commit() } catch { throw ReportError(file: file.path, message: error.message) }
        }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        if let file {
            do { try file.write(buffer) } catch { throw ReportError(file: file.path, message: error.message) }
        } else {
            FileHandle.standardOutput.write(Data(buffer))
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
