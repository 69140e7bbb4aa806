/// The input formats `keysim calibrate` reads.
public enum CostFormat: String, Sendable, Equatable, CaseIterable {
    /// `xctrace export` XML of the os-signpost-interval table.
    case instruments
    /// `log show --style ndjson` signpost begin and end events.
    case unifiedLog = "unified-log"
    /// A MetricKit payload's `signpostMetrics` histograms.
    case metricKit = "metrickit"
    /// CSV with the header `kind,duration_ms`.
    case csv
    /// A keysim trace's `measure` lines.
    case trace
}
