import Foundation
import XCTest

@testable import Report

final class SQLiteTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder(prefix: "keysim-sqlite") }
    override func tearDown() { folder = nil }

    /// The path of `name` in this test's own folder.
    func temporaryPath(_ name: String) -> String { folder.path(name) }

    /// Runs `body` once on an in-memory database and once on a fresh file database.
    private func onMemoryAndFile(_ body: (Database) throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws {
        for path in [":memory:", temporaryPath("db-\(UUID().uuidString).sqlite")] {
            let database = try Database(path: path)
            XCTAssertEqual(database.isInMemory, path == ":memory:", file: file, line: line)
            try body(database)
        }
    }

    private static let sampleValues: [SQLValue] = [
        .null,
        .integer(0), .integer(1), .integer(-1), .integer(.max), .integer(.min),
        .real(0.5), .real(-1.25e-300), .real(1.7976931348623157e308), .real(.infinity),
        .text(""), .text("plain ascii"), .text("Привет, мир"), .text("emoji 👩‍👩‍👧 🚀 and é"),
        .text("embedded\u{0}nul"), .text("quote ' and \"double\""),
        .blob([]), .blob([0, 1, 2, 255]), .blob((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
    ]

    func testEveryValueKindRoundTrips() throws {
        try onMemoryAndFile { db in
            // No declared type: no affinity, so each value keeps its storage class.
            try db.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, value)")
            let insert = try db.prepare("INSERT INTO v(id, value) VALUES (?, ?)")
            for (index, value) in Self.sampleValues.enumerated() {
                try insert.execute([.integer(Int64(index)), value])
            }
            let rows = try db.query("SELECT id, value, typeof(value) FROM v ORDER BY id")
            XCTAssertEqual(rows.count, Self.sampleValues.count)
            for (index, row) in rows.enumerated() {
                XCTAssertEqual(row[0], .integer(Int64(index)))
                XCTAssertEqual(row[1], Self.sampleValues[index], "value \(index) in \(db.path)")
                let expectedType: String
                switch Self.sampleValues[index] {
                case .null: expectedType = "null"
                case .integer: expectedType = "integer"
                case .real: expectedType = "real"
                case .text: expectedType = "text"
                case .blob: expectedType = "blob"
                }
                XCTAssertEqual(row[2], .text(expectedType), "storage class of value \(index)")
            }
            // Lengths are counted in bytes, so the NUL and the multi-byte characters survive.
            XCTAssertEqual(try db.query("SELECT length(CAST(value AS BLOB)) FROM v WHERE id = 14"), [[.integer(12)]])
        }
    }

    func testTypedBindersAndReaders() throws {
        try onMemoryAndFile { db in
            try db.execute("CREATE TABLE t(i INTEGER, d REAL, s TEXT, b BLOB, n, flag INTEGER)")
            let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)")
            XCTAssertEqual(insert.parameterCount, 6)
            XCTAssertFalse(insert.isReadOnly)
            try insert.bind(Int64(-42), at: 1)
            try insert.bind(2.5, at: 2)
            try insert.bind("Ёлка 🎄", at: 3)
            try [UInt8]([9, 8, 7]).withUnsafeBytes { try insert.bindBlob($0, at: 4) }
            try insert.bindNull(at: 5)
            try insert.bind(true, at: 6)
            XCTAssertFalse(try insert.step())
            insert.reset()
            // nil text is NULL; raw UTF-8 bytes bind as text without a String.
            try insert.bind(7, at: 1)
            try insert.bind(Double(-0.0), at: 2)
            try insert.bind(nil as String?, at: 3)
            try insert.bind([UInt8](), at: 4)
            try Array("raw ✓".utf8).withUnsafeBytes { try insert.bindText($0, at: 5) }
            try insert.bind(false, at: 6)
            try insert.step()
            XCTAssertEqual(db.changes, 1)
            XCTAssertEqual(db.lastInsertRowID, 2)

            let select = try db.prepare("SELECT i, d, s, b, n, flag AS is_set FROM t ORDER BY rowid")
            XCTAssertTrue(select.isReadOnly)
            XCTAssertEqual(select.columnCount, 6)
            XCTAssertEqual(select.columnNames, ["i", "d", "s", "b", "n", "is_set"])
            XCTAssertTrue(try select.step())
            XCTAssertEqual(select.int64(at: 0), -42)
            XCTAssertEqual(select.double(at: 1), 2.5)
            XCTAssertEqual(select.string(at: 2), "Ёлка 🎄")
            XCTAssertEqual(select.blob(at: 3), [9, 8, 7])
            XCTAssertTrue(select.isNull(at: 4))
            XCTAssertNil(select.string(at: 4))
            XCTAssertNil(select.blob(at: 4))
            XCTAssertEqual(select.int64(at: 4), 0, "NULL reads as 0 through the integer reader")
            XCTAssertEqual(select.value(at: 5), .integer(1))
            XCTAssertTrue(try select.step())
            XCTAssertEqual(select.int64(at: 0), 7)
            XCTAssertTrue(select.isNull(at: 2))
            XCTAssertEqual(select.value(at: 3), .blob([]), "an empty blob is not NULL")
            XCTAssertFalse(select.isNull(at: 3))
            XCTAssertEqual(select.value(at: 4), .text("raw ✓"))
            XCTAssertEqual(select.value(at: 5), .integer(0))
            XCTAssertFalse(try select.step())
        }
    }

    func testNamedParameters() throws {
        let db = try Database(path: ":memory:")
        let statement = try db.prepare("SELECT :a + :b, :a")
        let a = try XCTUnwrap(statement.parameterIndex(":a"))
        let b = try XCTUnwrap(statement.parameterIndex(":b"))
        XCTAssertNil(statement.parameterIndex(":c"))
        try statement.bind(40, at: a)
        try statement.bind(2, at: b)
        XCTAssertEqual(try statement.rows(), [[.integer(42), .integer(40)]])
    }

    func testTransactionRollsBackAndRethrowsOnError() throws {
        struct Abort: Error, Equatable { let reason: String }
        try onMemoryAndFile { db in
            try db.execute("CREATE TABLE t(a INTEGER NOT NULL)")
            let insert = try db.prepare("INSERT INTO t VALUES (?)")
            XCTAssertThrowsError(try db.transaction {
                for i in 0..<100 { try insert.execute([.integer(Int64(i))]) }
                XCTAssertTrue(db.isInTransaction)
                throw Abort(reason: "halfway")
            }) { error in
                XCTAssertEqual(error as? Abort, Abort(reason: "halfway"), "the body's own error comes back unchanged")
            }
            XCTAssertFalse(db.isInTransaction)
            XCTAssertEqual(try db.query("SELECT count(*) FROM t"), [[.integer(0)]])

            // A failing statement inside the body rolls back the rows before it, too.
            XCTAssertThrowsError(try db.transaction {
                try insert.execute([.integer(1)])
                try insert.execute([.null])
            }) { error in
                XCTAssertEqual((error as? SQLiteError)?.isConstraintViolation, true)
            }
            XCTAssertEqual(try db.query("SELECT count(*) FROM t"), [[.integer(0)]])

            let total = try db.transaction { () -> Int in
                for i in 0..<10 { try insert.execute([.integer(Int64(i))]) }
                return 10
            }
            XCTAssertEqual(total, 10)
            XCTAssertEqual(try db.query("SELECT count(*), sum(a) FROM t"), [[.integer(10), .integer(45)]])

            // Transactions do not nest; the inner attempt fails and the outer one commits.
            try db.transaction {
                try insert.execute([.integer(100)])
                XCTAssertThrowsError(try db.transaction { try insert.execute([.integer(200)]) })
                XCTAssertTrue(db.isInTransaction)
            }
            XCTAssertEqual(try db.query("SELECT a FROM t WHERE a >= 100"), [[.integer(100)]],
                           "the inner body never ran; the outer one committed")
        }
    }

    func testSyntaxErrorCarriesSQLAndMessage() throws {
        try onMemoryAndFile { db in
            XCTAssertThrowsError(try db.execute("CREATE TABLE ok(a);\nSELEC a FROM ok")) { error in
                guard let error = error as? SQLiteError else { return XCTFail("not a SQLiteError: \(error)") }
                XCTAssertEqual(error.resultCode, 1)
                XCTAssertEqual(error.codeName, "SQLITE_ERROR")
                XCTAssertTrue(error.message.contains("syntax error"), error.message)
                XCTAssertTrue(error.message.contains("SELEC"), error.message)
                XCTAssertEqual(error.sql, "SELEC a FROM ok",
                               "the error names the failing statement, not the whole script")
                XCTAssertEqual(error.path, db.path)
                XCTAssertTrue(error.description.hasPrefix("\(db.path): SQLite error 1 (SQLITE_ERROR): "), error.description)
                XCTAssertTrue(error.description.contains("in: "), error.description)
            }
            // The statement before the error ran.
            XCTAssertTrue(try db.tableExists("ok"))

            XCTAssertThrowsError(try db.prepare("SELECT nope FROM missing_table")) { error in
                let error = error as? SQLiteError
                XCTAssertEqual(error?.message, "no such table: missing_table")
                XCTAssertEqual(error?.sql, "SELECT nope FROM missing_table")
            }
            XCTAssertThrowsError(try db.prepare("SELECT 1; SELECT 2")) { error in
                XCTAssertEqual((error as? SQLiteError)?.isMisuse, true)
            }
            XCTAssertThrowsError(try db.prepare("  -- only a comment")) { error in
                XCTAssertEqual((error as? SQLiteError)?.isMisuse, true)
            }
            // A trailing comment is not a second statement.
            XCTAssertEqual(try db.query("SELECT 1; -- done"), [[.integer(1)]])
        }
    }

    func testBindingErrors() throws {
        let db = try Database(path: ":memory:")
        let statement = try db.prepare("SELECT ?, ?")
        XCTAssertThrowsError(try statement.bind([.integer(1)])) { error in
            let error = error as? SQLiteError
            XCTAssertEqual(error?.isMisuse, true)
            XCTAssertEqual(error?.message, "statement has 2 parameters but 1 values were given")
            XCTAssertEqual(error?.sql, "SELECT ?, ?")
        }
        XCTAssertThrowsError(try statement.bind(1, at: 3)) { error in
            XCTAssertEqual((error as? SQLiteError)?.resultCode, 25)
            XCTAssertEqual((error as? SQLiteError)?.message, "parameter index 3 is outside 1...2")
        }
    }

    func testTableExists() throws {
        try onMemoryAndFile { db in
            XCTAssertFalse(try db.tableExists("runs"))
            try db.execute("CREATE TABLE runs(id INTEGER); CREATE VIEW run_view AS SELECT id FROM runs")
            XCTAssertTrue(try db.tableExists("runs"))
            XCTAssertTrue(try db.tableExists("RUNS"), "SQL names are case-insensitive")
            XCTAssertFalse(try db.tableExists("run_view"), "a view is not a table")
            XCTAssertFalse(try db.tableExists("runs' OR '1'='1"), "the name is bound, not spliced")
        }
    }

    func testStatementReuse() throws {
        try onMemoryAndFile { db in
            try db.execute("CREATE TABLE samples(replication INTEGER, key_ns INTEGER, label TEXT)")
            let insert = try db.prepare("INSERT INTO samples VALUES (?, ?, ?)")
            try db.transaction {
                for i in 0..<1_000 {
                    try insert.bind(Int64(i % 4), at: 1)
                    try insert.bind(Int64(i) * 1_000, at: 2)
                    try insert.bind(i % 2 == 0 ? "even" : "odd", at: 3)
                    XCTAssertFalse(try insert.step())
                    insert.reset()
                }
            }
            XCTAssertEqual(db.lastInsertRowID, 1_000)
            let byReplication = try db.prepare("SELECT count(*), sum(key_ns) FROM samples WHERE replication = ?")
            for replication in 0..<4 {
                let rows = try byReplication.rows([.integer(Int64(replication))])
                let expectedSum = stride(from: replication, to: 1_000, by: 4).reduce(0) { $0 + Int64($1) * 1_000 }
                XCTAssertEqual(rows, [[.integer(250), .integer(expectedSum)]])
            }

            // Bindings survive reset until cleared.
            try insert.execute()
            XCTAssertEqual(try db.query("SELECT key_ns, label FROM samples WHERE rowid = 1001"),
                           [[.integer(999_000), .text("odd")]])
            insert.clearBindings()
            try insert.execute()
            XCTAssertEqual(try db.query("SELECT key_ns, label FROM samples WHERE rowid = 1002"), [[.null, .null]])

            var seen = 0
            var keySum: Int64 = 0
            let all = try db.prepare("SELECT key_ns FROM samples WHERE label = ?")
            try all.bind("even", at: 1)
            try all.forEachRow { row in
                seen += 1
                keySum += row.int64(at: 0)
            }
            XCTAssertEqual(seen, 500)
            XCTAssertEqual(keySum, stride(from: 0, to: 1_000, by: 2).reduce(0) { $0 + Int64($1) * 1_000 })
            // After forEachRow the statement is reset and can run again.
            var again = 0
            try all.forEachRow { _ in again += 1 }
            XCTAssertEqual(again, 500)

            try db.execute("DELETE FROM samples WHERE replication = 0")
            XCTAssertEqual(db.changes, 250)
        }
    }

    func testStepErrorResetsStatementForReuse() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE u(a INTEGER UNIQUE)")
        let insert = try db.prepare("INSERT INTO u VALUES (?)")
        try insert.execute([.integer(1)])
        XCTAssertThrowsError(try insert.execute([.integer(1)])) { error in
            let error = error as? SQLiteError
            XCTAssertEqual(error?.isConstraintViolation, true)
            XCTAssertEqual(error?.extendedResultCode, 2067, "SQLITE_CONSTRAINT_UNIQUE")
            XCTAssertEqual(error?.sql, "INSERT INTO u VALUES (?)")
        }
        try insert.execute([.integer(2)])
        XCTAssertEqual(try db.query("SELECT a FROM u ORDER BY a"), [[.integer(1)], [.integer(2)]])
    }

    func testValueDescriptionsAndLiterals() {
        let values: [SQLValue] = [nil, 3, 2.5, "it's", .blob([0xAB, 0x01])]
        XCTAssertEqual(values.map(\.description), ["NULL", "3", "2.5", "'it''s'", "X'AB01'"])
    }
}
