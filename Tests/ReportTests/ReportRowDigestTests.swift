import Report
import XCTest

final class ReportRowDigestTests: XCTestCase {
    private func database(_ statements: String) throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute(statements)
        return database
    }

    func testInsertionOrderAndWallClockColumnsDoNotChangeTheDigest() throws {
        let a = try database("""
            CREATE TABLE runs (run_id INTEGER, latency REAL, wall_seconds REAL, created_at TEXT);
            INSERT INTO runs VALUES (1, 2.5, 0.1, 'monday'), (2, 3.5, 0.2, 'monday');
            """)
        let b = try database("""
            CREATE TABLE runs (run_id INTEGER, latency REAL, wall_seconds REAL, created_at TEXT);
            INSERT INTO runs VALUES (2, 3.5, 9.9, 'tuesday'), (1, 2.5, 7.7, 'tuesday');
            """)
        XCTAssertEqual(try ReportRowDigest(database: a), try ReportRowDigest(database: b))
        XCTAssertEqual(try ReportRowDigest(database: a).tables.map(\.rows), [2])
    }

    func testAMeasuredValueOrItsStorageClassChangesTheDigest() throws {
        let base = try ReportRowDigest(database: database("CREATE TABLE keys (k INTEGER, v); INSERT INTO keys VALUES (1, 2);"))
        let moved = try ReportRowDigest(database: database("CREATE TABLE keys (k INTEGER, v); INSERT INTO keys VALUES (1, 3);"))
        let real = try ReportRowDigest(database: database("CREATE TABLE keys (k INTEGER, v); INSERT INTO keys VALUES (1, 2.0);"))
        XCTAssertNotEqual(base, moved)
        XCTAssertNotEqual(base, real)
    }

    func testTheJobSpecIsDigestedWithoutTheBuildVersion() throws {
        func spec(_ version: String) throws -> ReportRowDigest {
            try ReportRowDigest(database: database("""
                CREATE TABLE jobs (spec TEXT, keysim_version TEXT);
                INSERT INTO jobs VALUES ('{"command":"run","keysim_version":"\(version)","seed":42}', '\(version)');
                """))
        }
        XCTAssertEqual(try spec("0.1.0"), try spec("0.2.0"))
    }

    func testTablesAreListedByName() {
        let digest = try? ReportRowDigest(database: database("CREATE TABLE b (x); CREATE TABLE a (x);"))
        XCTAssertEqual(digest?.tables.map(\.name), ["a", "b"])
    }
}
