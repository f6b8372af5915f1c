// C helpers for the SQLite Swift wrapper: things Swift's Clang importer cannot
// call or import directly (function-pointer macros and variadic functions).
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// Binds UTF-8 text that SQLite copies before returning (SQLITE_TRANSIENT).
static inline int csqlite_bind_text(sqlite3_stmt *statement, int index,
                                    const char *text, sqlite3_uint64 byteCount) {
    return sqlite3_bind_text64(statement, index, text, byteCount, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/// Binds a blob that SQLite copies before returning (SQLITE_TRANSIENT).
static inline int csqlite_bind_blob(sqlite3_stmt *statement, int index,
                                    const void *bytes, sqlite3_uint64 byteCount) {
    return sqlite3_bind_blob64(statement, index, bytes, byteCount, SQLITE_TRANSIENT);
}

/// sqlite3_config is variadic. Threading mode: SQLITE_CONFIG_SINGLETHREAD,
/// SQLITE_CONFIG_MULTITHREAD or SQLITE_CONFIG_SERIALIZED (no argument).
/// Only valid before sqlite3_initialize (else SQLITE_MISUSE).
static inline int csqlite_config_threading_mode(int mode) {
    if (mode != SQLITE_CONFIG_SINGLETHREAD && mode != SQLITE_CONFIG_MULTITHREAD &&
        mode != SQLITE_CONFIG_SERIALIZED) {
        return SQLITE_MISUSE;
    }
    return sqlite3_config(mode);
}

/// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, int): memory statistics take a global
/// mutex on every allocation; turning them off removes that contention between threads.
static inline int csqlite_config_memstatus(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}

/// sqlite3_db_config for the boolean options (SQLITE_DBCONFIG_ENABLE_FKEY,
/// SQLITE_DBCONFIG_DEFENSIVE, ...): sets `value` (-1 leaves it) and reports the new state.
static inline int csqlite_db_config_bool(sqlite3 *db, int option, int value, int *current) {
    return sqlite3_db_config(db, option, value, current);
}

/// Names the calling thread (shown by `top -H`, gdb, perf) so the SQLite writer
/// thread is easy to find. prctl is variadic and pthread_setname_np needs
/// _GNU_SOURCE, so neither is callable from Swift directly. Linux only; no-op elsewhere.
static inline void csqlite_set_thread_name(const char *name) {
#if defined(__linux__)
    prctl(PR_SET_NAME, name, 0, 0, 0);
#else
    (void)name;
#endif
}

#endif
