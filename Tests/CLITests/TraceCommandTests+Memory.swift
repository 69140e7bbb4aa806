import Foundation
import Scenarios
import Sim
import XCTest

/// `keysim trace validate` on long traces: memory that does not grow with the trace.
extension TraceCommandTests {
    /// Validating a trace holds one line at a time: ten times the events, about the same
    /// resident memory, far under 64 MB. (The bench measures 10 million events.)
    func testReadingALongCompressedTraceKeepsMemoryFlat() throws {
        let folder = try TemporaryFolder()
        func makeTrace(_ name: String, events: Int) throws -> String {
            let path = folder.path(name)
            let writer = try TraceFileWriter(path: path, header: TraceHeader(name: name), compressionLevel: 1)
            for i in 0..<events {
                let time = SimTime(nanoseconds: Int64(i) * 150_000_000)
                try writer.write(TraceEvent(time: time, kind: .key(text: ["a", "b", " "][i % 3], touchUp: time + SimDuration(nanoseconds: 80_000_000),
                                                                  point: TouchPoint(x: Double(i % 330), y: 81))))
            }
            try writer.commit()
            return path
        }
        let small = try makeTrace("small.jsonl.zst", events: 6_000)
        let large = try makeTrace("large.jsonl.zst", events: 60_000)
        let smallMiB = try maxResidentMiB(["trace", "validate", small])
        let largeMiB = try maxResidentMiB(["trace", "validate", large])
        XCTAssertLessThan(largeMiB, 64)
        XCTAssertLessThan(largeMiB - smallMiB, 4, "memory must not grow with the trace: \(smallMiB) MiB vs \(largeMiB) MiB")
    }

    /// Runs keysim and returns its peak resident memory: its VmHWM from /proc, read every
    /// few milliseconds until it exits. (getrusage's ru_maxrss would not do: Linux carries
    /// the test process's own peak into a spawned child's.)
    private func maxResidentMiB(_ arguments: [String]) throws -> Double {
        let path = KeysimProcess.executable.path
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        XCTAssertEqual(posix_spawn(&pid, path, &actions, nil, &argv, environ), 0)
        var peakKiB = 0
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if let kib = ProcStatus.kibibytes("VmHWM", pid: "\(pid)") { peakKiB = max(peakKiB, kib) }
            usleep(2_000)
        }
        XCTAssertEqual(status, 0)
        XCTAssertGreaterThan(peakKiB, 0, "the child's memory was read")
        return Double(peakKiB) / 1024
    }
}
