import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few file-system operations the database needs, without Foundation.
enum FileSystem {
    /// Creates the directory that will hold `path` and any missing parents
    /// (`mkdir -p "$(dirname path)"`). Paths without a `/` need nothing.
    static func createParentDirectory(of path: String) throws {
        guard let slash = path.lastIndex(of: "/") else { return }
        let directory = String(path[..<slash])
        guard !directory.isEmpty else { return }
        var current = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            if mkdir(current, 0o755) != 0 {
                let code = errno
                guard code == EEXIST else {
                    let reason = String(cString: strerror(code))
                    throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create directory \(current): \(reason)")
                }
            }
        }
    }
}
