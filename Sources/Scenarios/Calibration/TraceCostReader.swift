/// Reads the measured durations of a keysim trace: its `measure` lines (docs/trace-format.md,
/// "Measured costs"), by kind. The user events around them are checked as any trace read is,
/// and otherwise ignored.
public enum TraceCostReader {
    /// Reads `path` (`.jsonl` or `.jsonl.zst`).
    public static func read(path: String) throws(InputError) -> CostReading {
        var reader = try TraceFileReader(path: path)
        var collector = SeriesCollector()
        while let line = try reader.nextLine() {
            if case .measurement(let measurement) = line {
                collector.add(measurement.kind, ms: Double(measurement.duration.nanoseconds) / 1e6)
            }
        }
        return CostReading(file: path, format: .trace, series: collector.series(file: path, format: .trace))
    }

    /// The durations, in milliseconds, that the trace at `path` measured for `kind`, in
    /// trace order: what a scenario's `{type: "measured"}` distribution replays.
    public static func durationsMs(path: String, kind: String) throws(InputError) -> [Double] {
        var reader = try TraceFileReader(path: path)
        var durations: [Double] = []
        while let line = try reader.nextLine() {
            if case .measurement(let measurement) = line, measurement.kind == kind {
                durations.append(Double(measurement.duration.nanoseconds) / 1e6)
            }
        }
        return durations
    }
}
