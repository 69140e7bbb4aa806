import Scenarios
import Sim

/// `keysim report FILE --format fleet-html`: the day page (`FleetDayPage`) of the fleet a
/// report holds (`keysim fleet … --db FILE`, or `keysim merge` of its shards); the last
/// fleet when it holds several. `--format html` on a report that holds a fleet and no
/// keyboard runs writes the same page.
public struct FleetDayPageExporter: StreamExporter {
    public let name = "fleet-html"
    public let title = "a fleet's day as an HTML page"
    public let fileExtension = "html"
    public let scope = ExportScope.report
    public let summary = "is one page of a fleet's day with no scripts and no network access: the day's figures, then arrivals, "
        + "queue, utilisation, latencies and verdict coverage a minute at a time with the busiest hour shaded"
    public let documentation = "one self-contained page of the fleet a report holds (`keysim fleet`): the day's figures on top "
        + "(the busiest hour and every fleet metric), then a chart a minute at a time of arrivals, admitted and rejected per "
        + "second, mean queue length and batch, replica utilisation, first token p50/p95 and verdict p95 (gaps where a minute "
        + "has none), and verdict coverage, each with the busiest hour shaded and the hours on the x axis. Inline SVG and CSS, "
        + "no scripts. `html` writes the same page for a report that holds a fleet and no keyboard runs"

    /// The fleet day page exporter.
    public init() {}

    /// Writes the page of the report's last fleet to `output`.
    /// - Throws: `ReportError` when the report holds no fleet.
    public func write(_ source: ExportSource, to output: ReportOutput) throws {
        guard let id = try FleetReportStore.fleetIDs(source.store.database).last else {
            throw ReportError(file: source.store.path, message: "holds no fleet run: keysim fleet SCENARIO --db FILE writes one")
        }
        try Self.write(try FleetReportStore.read(source.store, fleetID: id), to: output)
    }

    /// Writes the page of `report` to `output`.
    static func write(_ report: FleetReport, to output: ReportOutput) throws {
        try output.write(FleetDayPage(report.result).render())
        try output.finish()
    }

    /// Whether `store` holds a fleet and no keyboard run: `html` then writes the day page.
    static func isFleetOnly(_ store: ReportStore) throws -> Bool {
        guard !(try FleetReportStore.fleetIDs(store.database)).isEmpty else { return false }
        return try store.database.query("SELECT COUNT(*) FROM runs").first?.first == .integer(0)
    }
}
