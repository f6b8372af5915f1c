import CSQLite

/// Process-wide SQLite settings, applied once before the first connection opens.
enum SQLiteLibrary {
    /// Memory statistics take a global mutex on every allocation, which makes the
    /// writer and reader connections contend with each other; nothing here reads
    /// them. Returns SQLITE_MISUSE (ignored) if SQLite was already initialized.
    private static let configured: Bool = {
        _ = csqlite_config_memstatus(0)
        return true
    }()

    /// Applies the settings on first call; later calls are free.
    static func configure() {
        _ = configured
    }
}
