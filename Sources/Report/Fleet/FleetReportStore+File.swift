import Foundation

/// Writing a fleet into a report file as `keysim fleet` and `keysim merge` do.
extension FleetReportStore {
    /// Writes `report` into the report file at `path`: into an existing report as one more
    /// fleet, or as a new file made whole under a private name and linked into place, so a
    /// failed write never leaves half a report. Returns the fleet's `fleet_id`.
    /// - Throws: `ReportError` naming `path`.
    @discardableResult
    public static func write(_ report: FleetReport, toFile path: String, busyTimeoutMs: Int) throws(ReportError) -> Int64 {
        let existed = FileManager.default.fileExists(atPath: path)
        let target = existed ? path : ReportStore.privatePath(besides: path)
        defer { if !existed { ReportStore.removeFiles(of: target) } }
        let fleetID: Int64
        do {
            let store = try ReportStore(path: target, busyTimeoutMs: busyTimeoutMs)
            fleetID = try write(report, to: store)
            _ = try JobWriter.checkpoint(store, reportPath: path)
        } catch {
            throw ReportError(file: path, message: error.message)
        }
        if !existed {
            switch try ReportStore.publish(target, at: path) {
            case .published: break
            case .exists: throw ReportError(file: path, message: "was created by another process meanwhile; write into a new file")
            case .unsupported:
                do { try FileManager.default.copyItem(atPath: target, toPath: path) } catch {
                    throw ReportError(file: path, message: "cannot write the report (\(error.localizedDescription))")
                }
            }
        }
        return fleetID
    }
}
