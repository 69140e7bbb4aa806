/// A report table declared once: a struct whose `init` builds its `ReportTable` with a
/// `ReportTableBuilder` and keeps a handle for every column (`TableColumn`), in table order.
///
/// The DDL (`ReportTable.createSQL`), the row inserter (`BulkInsert`), the digests and the
/// tables section of `docs/report-schema.md` (`ReportTable.markdown`) all come from it. The
/// compiler checks that `init` assigns every handle once; `BulkInsert` checks that a writer
/// binds every column of a row once.
protocol ReportTableDeclaration: Sendable {
    /// The table as data.
    var table: ReportTable { get }
}

/// Every table of a report, one declaration each (`ReportTables+….swift`), and the one list
/// of them (`ReportSchema.tables`).
enum ReportTables {}
