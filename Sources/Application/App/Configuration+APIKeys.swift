import API

extension Configuration {
    /// Shortest key accepted in any key list: a key is a password typed by no one.
    static let minimumAPIKeyLength = 16

    /// `PHONE_VERIFY_ADMIN_API_KEYS` (every scope), `PHONE_VERIFY_INTROSPECTION_API_KEYS`
    /// (`introspect` only: the key the main auth server holds) and
    /// `PHONE_VERIFY_SCOPED_API_KEYS` (`SCOPE[+SCOPE…]=KEY,…`). Problems name the entry, never
    /// the key.
    mutating func readAPIKeys(_ reader: inout SettingReader) {
        let admin = reader.list("PHONE_VERIFY_ADMIN_API_KEYS") ?? []
        let introspection = reader.list("PHONE_VERIFY_INTROSPECTION_API_KEYS") ?? []
        for (name, keys) in [("PHONE_VERIFY_ADMIN_API_KEYS", admin), ("PHONE_VERIFY_INTROSPECTION_API_KEYS", introspection)]
        where keys.contains(where: { $0.utf8.count < Self.minimumAPIKeyLength }) {
            reader.problem(name, "entries must be at least \(Self.minimumAPIKeyLength) characters")
        }
        var scoped: [(scopes: Set<APIScope>, key: String)] = []
        if let text = reader.string("PHONE_VERIFY_SCOPED_API_KEYS") {
            do { scoped = try APIKeyring.parseScoped(text, minimumKeyLength: Self.minimumAPIKeyLength) } catch {
                reader.problem("PHONE_VERIFY_SCOPED_API_KEYS", "\(error)")
            }
        }
        apiKeys = APIKeyring(admin: admin, introspection: introspection, scoped: scoped)
    }
}
