import Foundation

/// Shows how far a long command has got, on standard error so that standard output keeps
/// only the results.
///
/// On a terminal it redraws one line — a bar, the count, elapsed time and an estimate of
/// the time left — at most ten times a second. When standard error is a file or a pipe (a
/// batch job's log), it prints a plain line at every tenth of the work instead, so the log
/// stays short and readable. With a delay, nothing shows until the work has run that long,
/// so a short command prints no progress at all.
final class Progress {
    private let label: String
    private let isTerminal: Bool
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDrawNanos: UInt64 = 0
    private var lastTenth = -1
    private var drewBar = false
    private let delayNanos: UInt64
    private let unit: String

    /// The width of the bar in characters.
    static let barWidth = 30

    /// Creates a progress display for `label` ("keysim sweep") that stays silent for the
    /// first `delaySeconds`, counting `unit` ("runs", "sessions").
    init(label: String, delaySeconds: Double = 0, unit: String = "runs", isTerminal: Bool = isatty(STDERR_FILENO) != 0) {
        self.label = label
        self.unit = unit
        self.isTerminal = isTerminal
        delayNanos = UInt64(max(delaySeconds, 0) * 1e9)
    }

    /// Reports `done` of `total` work items.
    func update(_ done: Int, of total: Int) {
        guard total > 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let elapsed = Double(now - started) / 1e9
        guard now - started >= delayNanos else { return }
        if isTerminal {
            guard done == total || now - lastDrawNanos >= 100_000_000 else { return }
            lastDrawNanos = now
            let filled = Self.barWidth * done / total
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: Self.barWidth - filled)
            write("\r\(label) [\(bar)] \(done)/\(total) \(unit)  \(Self.clock(elapsed)) elapsed, \(eta(done, total, elapsed)) left\u{1B}[K")
            drewBar = true
        } else {
            let tenth = 10 * done / total
            guard tenth > lastTenth, tenth > 0 else { return }
            lastTenth = tenth
            write("\(label): \(done)/\(total) \(unit) (\(100 * done / total)%), \(Self.clock(elapsed)) elapsed, \(eta(done, total, elapsed)) left\n")
        }
    }

    /// Ends the display: moves past the bar on a terminal.
    func finish() {
        if isTerminal && drewBar { write("\n") }
    }

    private func eta(_ done: Int, _ total: Int, _ elapsed: Double) -> String {
        guard done > 0 else { return "?" }
        return Self.clock(elapsed / Double(done) * Double(total - done))
    }

    /// Seconds as `m:ss`, or `h:mm:ss` past an hour.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
