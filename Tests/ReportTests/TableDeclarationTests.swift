import Foundation
import XCTest

@testable import Report

/// A table declared for these tests: every column type, a rowid, a key and an index.
private struct Sample: ReportTableDeclaration {
    let table: ReportTable
    let a: TableColumn<Int64>
    let b: TableColumn<String?>
    let c: TableColumn<Double>
    let d: TableColumn<Int64?>

    init(withoutRowID: Bool = false) {
        var t = ReportTableBuilder(Self.self, "t", rowPer: "test row")
        a = t.column("a")
        b = t.column("b", "a label")
        c = t.column("c_ms")
        d = t.column("d", references: "runs(run_id)")
        table = t.table(primaryKey: [a], withoutRowID: withoutRowID, indexes: [("t_by_d", [d, c], true, "tests")])
    }
}

/// A table with a rowid SQLite assigns, and texts bound without copies.
private struct Labels: ReportTableDeclaration {
    let table: ReportTable
    let id: TableColumn<RowID>
    let a: TableColumn<Int64>
    let label: TableColumn<String>
    let flag: TableColumn<Bool?>

    init() {
        var t = ReportTableBuilder(Self.self, "labels", rowPer: "label")
        id = t.column("id")
        a = t.column("a")
        label = t.column("label")
        flag = t.column("flag")
        table = t.table(primaryKey: [id])
    }
}

/// Tables declared once: the SQL, the inserter and the docs made from a declaration.
final class TableDeclarationTests: XCTestCase {
    func testADeclarationMakesItsTableIndexAndInsert() {
        let sample = Sample(withoutRowID: false)
        XCTAssertEqual(sample.table.createSQL, """
            CREATE TABLE IF NOT EXISTS t (
                a               INTEGER NOT NULL PRIMARY KEY,
                b               TEXT,
                c_ms            REAL NOT NULL,
                d               INTEGER REFERENCES runs(run_id)
            );
            CREATE UNIQUE INDEX IF NOT EXISTS t_by_d ON t(d, c_ms);

            """)
        XCTAssertEqual(sample.table.insertSQL(rows: 2), "INSERT INTO t (a, b, c_ms, d) VALUES (?, ?, ?, ?), (?, ?, ?, ?)")
        XCTAssertEqual(sample.table.columns.map(\.unit), [nil, nil, "ms", nil])
        XCTAssertEqual(Labels().table.insertSQL(rows: 1, replacing: true), "INSERT OR REPLACE INTO labels (a, label, flag) VALUES (?, ?, ?)")
        XCTAssertTrue(Labels().table.createSQL.contains("    id              INTEGER PRIMARY KEY,\n"), Labels().table.createSQL)
    }

    func testBulkInsertWritesEveryRowWhateverTheBatchingAndTheOrderOfColumns() throws {
        let t = Sample()
        for rowsPerStatement in [1, 3, 64] {
            let database = try Database(path: ":memory:")
            try database.execute(t.table.createSQL)
            var insert = BulkInsert(database, t.table, rowsPerStatement: rowsPerStatement)
            // Groups of every size around the statement's: whole statements, a remainder, none.
            var i = 0
            for group in [41, 0, 59, 1, 2, 64, 65, 127, 128, 7, 7] {
                try insert.begin(rows: group)
                for _ in 0..<group {
                    // Columns bound in a different order on every row.
                    let binds: [(inout BulkInsert) throws -> Void] = [
                        { try $0.set(t.a, i) },
                        { try $0.set(t.b, i % 2 == 0 ? "even" : nil) },
                        { try $0.set(t.c, Double(i) / 4) },
                        { try $0.set(t.d, i % 3 == 0 ? Int64(i) : nil) },
                    ]
                    for k in 0..<4 { try binds[(k + i) % 4](&insert) }
                    try insert.endRow()
                    i += 1
                }
                try insert.finish()
            }
            let n = Int64(i)
            let sum = Double(n * (n - 1) / 2) / 4
            XCTAssertEqual(try database.query("SELECT COUNT(*), COUNT(b), SUM(c_ms), COUNT(d), SUM(a = d) FROM t"),
                           [[.integer(n), .integer((n + 1) / 2), .real(sum), .integer((n + 2) / 3), .integer((n + 2) / 3)]],
                           "\(rowsPerStatement) rows a statement")
        }
    }

    func testAMissingColumnIsNamed() throws {
        let t = Sample()
        let database = try Database(path: ":memory:")
        try database.execute(t.table.createSQL)
        var insert = BulkInsert(database, t.table)
        try insert.begin(rows: 1)
        try insert.set(t.c, 1.5)
        try insert.set(t.a, 1)
        XCTAssertEqual(insert.boundColumns, ["a", "c_ms"])
        XCTAssertEqual(BulkInsert.unbound(0b0101, of: t.table), ["b", "d"])
        XCTAssertEqual(BulkInsert.unbound(0b1111, of: t.table), [])
    }

    func testBulkInsertRecoversFromAFailedStatement() throws {
        let t = Sample()
        let database = try Database(path: ":memory:")
        try database.execute(t.table.createSQL)
        var insert = BulkInsert(database, t.table, rowsPerStatement: 4)
        func row(_ a: Int) throws {
            try insert.set(t.a, a)
            try insert.set(t.b, nil)
            try insert.set(t.c, 0)
            try insert.set(t.d, nil as Int64?)
            try insert.endRow()
        }
        try insert.begin(rows: 6)
        for a in [1, 2, 3] { try row(a) }
        XCTAssertThrowsError(try row(3), "the duplicate key fails the statement of four rows")
        try insert.begin(rows: 2)
        for a in [10, 11] { try row(a) }
        try insert.finish()
        XCTAssertEqual(try database.query("SELECT a FROM t ORDER BY a"), [[10], [11]])
    }

    func testStaticTextsBindWithoutCopiesAndRowIDsAreAssigned() throws {
        let t = Labels()
        let database = try Database(path: ":memory:")
        try database.execute(t.table.createSQL)
        let labels = StaticTexts(["key", "", "rerank", "émoji 🙂"])
        XCTAssertEqual(labels.count, 4)
        var insert = BulkInsert(database, t.table, rowsPerStatement: 8)
        try insert.begin(rows: 21)
        for i in 0..<21 {
            try insert.set(t.a, i)
            try insert.set(t.label, labels, i % labels.count)
            try insert.set(t.flag, i % 2 == 0 ? nil : i % 3 == 0)
            try insert.endRow()
        }
        try insert.finish()
        XCTAssertEqual(try database.query("SELECT label, COUNT(*) FROM labels GROUP BY label ORDER BY label"),
                       [[.text(""), 5], [.text("key"), 6], [.text("rerank"), 5], [.text("émoji 🙂"), 5]])
        XCTAssertEqual(try database.query("SELECT MIN(id), MAX(id), COUNT(flag), SUM(flag) FROM labels"), [[1, 21, 10, 3]])
        try insert.insertRow { row in
            try row.set(t.a, 99)
            try row.set(t.label, "last")
            try row.set(t.flag, true)
        }
        XCTAssertEqual(database.lastInsertRowID, 22)
    }

    /// The report's own declarations: every table and column once, keys and indexes on
    /// declared columns, and the schema they make is the one a report file holds.
    func testTheReportsDeclarationsMakeItsSchema() throws {
        let tables = ReportSchema.tables
        XCTAssertEqual(Set(tables.map(\.name)).count, tables.count, "a table declared twice")
        for table in tables {
            let names = table.columns.map(\.name)
            XCTAssertEqual(Set(names).count, names.count, table.name)
            XCTAssertTrue(table.primaryKey.allSatisfy(names.contains), table.name)
            XCTAssertTrue(table.indexes.allSatisfy { $0.columns.allSatisfy(names.contains) }, table.name)
            if names.contains("run_id") && table.role == .data {
                XCTAssertEqual(names.first, "run_id", "\(table.name): rows of a run carry run_id first (docs, conventions)")
            }
        }
        let folder = try ReportFolder()
        let store = try ReportStore(path: folder.path("r.sqlite"))
        for table in tables {
            let info = try store.database.query("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid", [.text(table.name)])
            XCTAssertEqual(info.map(\.[0].textValue), table.columns.map(\.name), table.name)
            XCTAssertEqual(info.map(\.[1].textValue), table.columns.map(\.type.rawValue), table.name)
            let keyed = info.filter { $0[3].integerValue > 0 }.sorted { $0[3].integerValue < $1[3].integerValue }.map(\.[0].textValue)
            XCTAssertEqual(keyed, table.primaryKey, table.name)
        }
        let lookups = try store.database.query("SELECT COUNT(*) FROM edit_kinds")[0][0].integerValue
        XCTAssertEqual(Int(lookups), ReportTables.editKinds.names.count)
    }
}
