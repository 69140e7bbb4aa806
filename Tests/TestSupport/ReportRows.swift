import Foundation
import Report

/// Every row of every table of the report at `path`, each table in key order (rowid where
/// it has no key), without the wall-clock columns (`wall_seconds`, `created_at`): what two
/// reports of the same inputs must share, such as a merged report and one machine's.
public func allRows(_ path: String) throws -> [String: [[SQLValue]]] {
    let store = try ReportStore(path: path, readOnly: true)
    var result: [String: [[SQLValue]]] = [:]
    for relation in try ReportInspector.relations(store.database) where !relation.isView {
        let columns = relation.columns.filter { $0 != "wall_seconds" && $0 != "created_at" }
        let order = relation.primaryKey.isEmpty ? "rowid" : relation.primaryKey.map(ReportInspector.quoted).joined(separator: ", ")
        result[relation.name] = try store.database.query(
            "SELECT \(columns.map(ReportInspector.quoted).joined(separator: ", ")) FROM \(relation.name) ORDER BY \(order)")
    }
    return result
}
