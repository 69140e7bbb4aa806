import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a connection stores the database: the write-ahead log, durability, and the space the
/// main file takes on disk — allocated before a log is folded into it, given back after a
/// write that failed.
extension Database {
    /// How hard a WAL connection works to survive the machine (not the process) going down.
    public enum Durability: Sendable {
        /// `synchronous=NORMAL`: syncs at checkpoints; a power loss may drop the last
        /// transactions but never corrupts the file.
        case powerLossSafe
        /// `synchronous=OFF`: never syncs. A killed or crashed process still leaves every
        /// committed transaction and no partial one (the operating system holds the writes);
        /// only an operating-system crash or power loss before the kernel writes them back
        /// can damage the file. For files that can be made again, such as simulation reports.
        case processCrashSafe

        var pragma: String { self == .powerLossSafe ? "NORMAL" : "OFF" }
    }

    /// Switches the database to write-ahead logging, with `durability` for this connection.
    ///
    /// WAL lets readers proceed while one writer writes. The journal mode is stored in the
    /// file and persists for later connections; `synchronous` is per connection.
    /// - Returns: `true` when WAL is in effect; `false` for an in-memory database, which
    ///   cannot use WAL and keeps its own journal.
    /// - Throws: `SQLiteError` if a file database refuses WAL (for example when opened
    ///   read-only on a file that is not already in WAL mode).
    @discardableResult
    public func enableWAL(durability: Durability = .powerLossSafe) throws(SQLiteError) -> Bool {
        let mode = try query("PRAGMA journal_mode=WAL").first?.first
        guard case .text(let modeName) = mode, modeName.lowercased() == "wal" else {
            if isInMemory { return false }
            throw SQLiteError(extendedResultCode: SQLITE_ERROR,
                              message: "could not switch to WAL; journal mode is \(mode.map(String.init(describing:)) ?? "unknown")",
                              sql: "PRAGMA journal_mode=WAL", path: path)
        }
        try execute("PRAGMA synchronous=\(durability.pragma)")
        return true
    }

    /// Makes the main file grow in whole chunks of `bytes`, each allocated on disk before a
    /// page is written into it (`SQLITE_FCNTL_CHUNK_SIZE`). A checkpoint announces the size
    /// it will need before it copies the log into the file, so with chunks a disk too full to
    /// take them fails it before the first page lands, leaving the file whole on its own.
    public func setChunkSize(_ bytes: Int32) throws(SQLiteError) {
        var size = bytes
        let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_CHUNK_SIZE, &size)
        guard code == SQLITE_OK || code == SQLITE_NOTFOUND else {
            throw SQLiteError(extendedResultCode: code, message: String(cString: sqlite3_errstr(code)),
                              sql: "SQLITE_FCNTL_CHUNK_SIZE", path: path)
        }
    }

    /// Makes closing this connection leave the write-ahead log unfolded: after a disk full,
    /// so that the database file stays whole on its own, its newer pages in the log.
    public func keepLogOnClose() {
        _ = keysim_sqlite_keep_log_on_close(handle)
    }

    /// Writes the pages the open transaction changed and holds in its cache to the
    /// write-ahead log now (`sqlite3_db_cacheflush`), so that the log has grown as far as
    /// the transaction needs before anything else is allocated: a disk too full for the
    /// log then fails the transaction before the main file is touched.
    public func flushCacheToLog() throws(SQLiteError) {
        let code = sqlite3_db_cacheflush(handle)
        guard code == SQLITE_OK else { throw error(code, sql: "sqlite3_db_cacheflush") }
    }

    /// The size of the main file on disk, in bytes; nil for an in-memory database.
    public var mainFileBytes: Int64? {
        var file = stat()
        guard !isInMemory, stat(path, &file) == 0 else { return nil }
        return Int64(file.st_size)
    }

    /// Disk space the file system has free, over the space a reservation needs, below
    /// which `reserveSpaceForPages` refuses outright rather than allocate: what allocating
    /// a file's blocks takes beyond their bytes, and the log's last frames at the commit.
    public static let reservationSlackBytes: Int64 = 1 << 20

    /// Allocates on disk what the main file needs to hold every page the database has now,
    /// log included (`PRAGMA page_count`), through SQLite's own file (`SQLITE_FCNTL_SIZE_HINT`
    /// with a chunk size set, `setChunkSize`): after it, folding the log into the file
    /// writes only into space the file system has already given. A file system that cannot
    /// allocate ahead (SQLite built without `posix_fallocate` writes a byte per block
    /// instead) only makes this slower.
    ///
    /// Allocating writes a byte into every block the file gains when SQLite is built without
    /// `posix_fallocate` (Debian's is), which costs about what writing the pages does; so
    /// when the file system has plenty of room for the growth — twice over, and 16 MB more —
    /// nothing is allocated ahead. When it has less than the growth and
    /// `reservationSlackBytes`, nothing is allocated either, and the disk is full: the file
    /// is left as it was. Only another process filling the disk between this check and the
    /// allocation can stop the allocation part way; the file then has zero bytes past its
    /// last page, which SQLite ignores and `releaseSpace` or the next fold gives back.
    /// - Throws: `SQLiteError` (`isFull`) when the disk cannot take it.
    public func reserveSpaceForPages() throws(SQLiteError) {
        guard let pages = try query("PRAGMA page_count").first?.first?.integerValue,
              let size = try query("PRAGMA page_size").first?.first?.integerValue else { return }
        var bytes = sqlite3_int64(pages * size)
        var volume = statvfs()
        if let fileBytes = mainFileBytes, statvfs(path, &volume) == 0 {
            let growth = Int64(bytes) - fileBytes
            guard growth > 0 else { return }
            let available = Int64(volume.f_bavail) * Int64(volume.f_frsize)
            if available > 2 * growth + (16 << 20) { return }
            if available < growth + Self.reservationSlackBytes {
                throw SQLiteError(extendedResultCode: SQLITE_FULL,
                                  message: "the disk has \(available) bytes free; the report needs \(growth) more",
                                  sql: "allocating \(bytes) bytes for the report", path: path)
            }
        }
        var code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_SIZE_HINT, &bytes)
        guard code == SQLITE_OK || code == SQLITE_NOTFOUND else {
            // The disk filled up under the allocation: say so as SQLite says a full disk.
            if sqlite3_system_errno(handle) == ENOSPC { code = SQLITE_FULL }
            // A file control leaves no message on the connection: the code's own text.
            throw SQLiteError(extendedResultCode: code, message: String(cString: sqlite3_errstr(code)),
                              sql: "allocating \(bytes) bytes for the report", path: path)
        }
    }

    /// Gives back space the main file took beyond `bytes` and beyond the database's
    /// committed pages, as after a `reserveSpaceForPages` whose transaction then failed
    /// (the size is rounded up to the chunk size, as SQLite keeps it).
    ///
    /// Runs in a write transaction of its own, which takes the write lock, so no commit can
    /// happen meanwhile; other processes folding the log into the file write only committed
    /// pages, which lie below the size kept. Waits for no other writer: when one holds the
    /// lock, the space stays (zero bytes past the last page, which SQLite ignores) until
    /// the next fold.
    /// - Precondition: no transaction is open on this connection.
    public func releaseSpace(downTo bytes: Int64) throws(SQLiteError) {
        precondition(!isInTransaction, "releaseSpace takes its own transaction")
        guard let fileBytes = mainFileBytes, fileBytes > bytes else { return }
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, Int32(busyTimeoutMs)) }
        try execute("BEGIN IMMEDIATE")
        defer { _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
        guard let pages = try query("PRAGMA page_count").first?.first?.integerValue,
              let size = try query("PRAGMA page_size").first?.first?.integerValue else { return }
        var file: UnsafeMutablePointer<sqlite3_file>?
        let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file)
        guard code == SQLITE_OK, let file, let truncate = file.pointee.pMethods?.pointee.xTruncate else { return }
        let kept = max(bytes, pages * size)
        let truncated = truncate(file, kept)
        guard truncated == SQLITE_OK else { throw error(truncated, sql: "giving back the space past \(kept) bytes") }
    }
}
