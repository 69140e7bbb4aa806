extension ReportDigest {
    /// Kills, language files and token rejections per batch (or for the selected run), only
    /// for batches where one of them happened; empty for reports without `extension_per_run`.
    static func extensionTable(_ db: Database, scope: Scope) throws -> Table {
        let headers = ["batch", "runs", "kills", "keys held", "peak (MB)", "downloads", "interrupted", "failed verification",
                       "corrupt loads", "wrong suggestions", "token rejections", "revoked", "token added (ms)"]
        let numeric = Array(repeating: true, count: headers.count)
        guard try db.tableExists("extension_per_run") else { return Table(headers: headers, numeric: numeric, rows: []) }
        let filter = "WHERE " + scope.runs()
        let rows = try db.query("""
            SELECT r.batch_id, COUNT(*), SUM(e.kills), SUM(e.keys_held), MAX(e.peak_footprint_mb), SUM(e.downloads),
                   SUM(e.downloads_interrupted), SUM(e.verification_failures), SUM(e.corrupt_loads),
                   SUM(e.silently_wrong_suggestions), SUM(e.token_rejections), SUM(e.revoked_requests), SUM(e.token_added_ns) / 1e6
            FROM extension_per_run e JOIN runs r USING (run_id) \(filter)
            GROUP BY r.batch_id
            HAVING SUM(e.kills) + SUM(e.downloads) + SUM(e.corrupt_loads) + SUM(e.token_rejections) > 0
            ORDER BY r.batch_id
            """)
        let shown = rows.prefix(rowsMax).map { row in
            row.enumerated().map { index, value -> String in
                guard let x = value.doubleValue else { return "–" }
                return index == 4 ? TextTable.fixed(x, 1) : TextTable.fixed(x, 0)
            }
        }
        return Table(headers: headers, numeric: numeric, rows: shown, omittedRows: max(0, rows.count - rowsMax))
    }
}
