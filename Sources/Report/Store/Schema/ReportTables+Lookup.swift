import Sim

/// The lookup tables: the names of the small integer codes the compact tables store,
/// filled once per file.
extension ReportTables {
    static let editKinds = Lookup("edit_kinds", "edit kind, by `key_rows.edit_code`",
                                  names: EditKind.allCases.enumerated().map { (Int64($0.offset), $0.element.rawValue) })
    static let suggestionOutcomes = Lookup("suggestion_outcomes", "suggestion outcome, by `key_rows.outcome_code`",
                                           names: SuggestionOutcome.allCases.enumerated().map { (Int64($0.offset), $0.element.rawValue) })
    /// Work kinds from 1: their `KeyboardWork.code`.
    static let workKinds = Lookup("work_kinds", "kind of work, by `task_rows.kind_code`",
                                  names: KeyboardWork.allCases.map { (Int64($0.code), $0.rawValue) })
    static let latencyMetrics = Lookup("latency_metrics", "latency metric, by `latency_histograms.metric_code`",
                                       names: LatencyMetric.allCases.enumerated().map { (Int64($0.offset), $0.element.rawValue) })

    /// A table of codes and their names.
    struct Lookup: ReportTableDeclaration {
        let table: ReportTable
        let code: TableColumn<Int64>
        let name: TableColumn<String>
        /// Every code and its name, in code order.
        let names: [(code: Int64, name: String)]

        init(_ tableName: String, _ rowPer: String, names: [(Int64, String)]) {
            var t = ReportTableBuilder(Self.self, tableName, rowPer: rowPer)
            code = t.column("code")
            name = t.column("name")
            table = t.table(primaryKey: [code], role: .lookup)
            self.names = names
        }

        /// `INSERT OR IGNORE` of every code: run with the schema, so that a file gains the
        /// codes a newer keysim added and keeps the ones it has.
        var fillSQL: String {
            "INSERT OR IGNORE INTO \(table.name) (code, name) VALUES " + names.map { "(\($0.code), '\($0.name)')" }.joined(separator: ", ") + ";\n"
        }
    }
}
