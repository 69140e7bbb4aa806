#ifndef KEYSIM_CSQLITE_SHIM_H
#define KEYSIM_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro around a function-pointer cast that Swift cannot import.
static inline sqlite3_destructor_type keysim_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// SQLITE_STATIC, for bytes that outlive the statement's use of them: SQLite does not copy.
static inline sqlite3_destructor_type keysim_sqlite_static(void) {
    return SQLITE_STATIC;
}

/// Turns off SQLite's memory statistics, which take a process-wide mutex on every
/// allocation. sqlite3_config is variadic, so Swift cannot call it; this must run before
/// SQLite initialises (before the first connection opens) and returns SQLITE_MISUSE after.
static inline int keysim_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// Makes closing the connection leave the write-ahead log as it is instead of folding it
/// into the database file (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, SQLite 3.16): after a disk
/// filled up, a fold on close could stop part way and leave a file that needs its log.
/// sqlite3_db_config is variadic, so Swift cannot call it.
static inline int keysim_sqlite_keep_log_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
