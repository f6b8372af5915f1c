/// The column names of one result set, shared by all of its rows.
///
/// Immutable, so it is `Sendable`; the lookup tables are built once per prepared statement
/// (``Statement`` keeps them until SQLite re-prepares it).
final class RowColumns: Sendable {
    /// Names in result order.
    let names: [String]
    private let exact: [String: Int]
    private let folded: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var exact: [String: Int] = [:]
        var folded: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            if exact[name] == nil { exact[name] = index }
            let key = name.lowercased()
            if folded[key] == nil { folded[key] = index }
        }
        self.exact = exact
        self.folded = folded
    }

    /// Index of the first column with this name; exact match first, then
    /// case-insensitive like SQL identifiers.
    func index(of name: String) -> Int? {
        exact[name] ?? folded[name.lowercased()]
    }
}
