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
#endif
