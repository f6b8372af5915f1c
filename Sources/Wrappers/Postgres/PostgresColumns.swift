/// The column names of one result set, shared by all of its rows.
///
/// Immutable, so it is `Sendable`. Lookups scan the names: results have a few dozen columns at
/// most, and building hash tables per result cost more than the scans they save.
final class PostgresColumns: Sendable {
    /// Names in result order.
    let names: [String]

    init(_ names: [String]) {
        self.names = names
    }

    /// Index of the first column with this name; exact match first, then
    /// case-insensitive like unquoted SQL identifiers.
    func index(of name: String) -> Int? {
        if let exact = names.firstIndex(of: name) { return exact }
        let folded = name.lowercased()
        return names.firstIndex { $0.lowercased() == folded }
    }
}
