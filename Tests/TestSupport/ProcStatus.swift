import Foundation

/// Memory figures of a running process from Linux's `/proc/<pid>/status`.
public enum ProcStatus {
    /// The value of `field` (such as `VmRSS` or `VmHWM`) of process `pid` (this one by
    /// default), in KiB; nil where there is no such file or field (not Linux, the process
    /// gone).
    public static func kibibytes(_ field: String, pid: String = "self") -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}
