extension ReportDigest {
    /// Which runs a digest reads: one run (`--run`), the batches a selection picked, or the
    /// whole report.
    struct Scope {
        /// The run, for a one-run digest.
        var runID: Int64?
        /// The batches selected; nil for every batch.
        var batchIDs: [Int64]?

        /// The scope of an export under `options`.
        init(_ options: ExportOptions) {
            runID = options.runID
            batchIDs = options.selection?.batchIDs
        }

        /// An SQL condition over the runs table aliased `alias` that keeps the runs in scope.
        func runs(_ alias: String = "r") -> String {
            if let runID { return "\(alias).run_id = \(runID)" }
            return batchIDs.map { "\(alias).batch_id IN (\(ReportSelection.list($0)))" } ?? "1 = 1"
        }

        /// An SQL condition over the batch-id column `column` that keeps the batches in scope.
        func batches(_ column: String) -> String {
            if let runID { return "\(column) = (SELECT batch_id FROM runs WHERE run_id = \(runID))" }
            return batchIDs.map { "\(column) IN (\(ReportSelection.list($0)))" } ?? "1 = 1"
        }
    }
}
