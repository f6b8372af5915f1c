import API
import SettingsTable

extension Configuration {
    /// Shortest key accepted in any key list: a key is a password typed by no one.
    static let minimumAPIKeyLength = 16

    /// Admin keys (every scope), introspection keys (`introspect` only: the key the main auth
    /// server holds) and scoped keys (`Settings+APIKeys.swift`). Problems name the entry,
    /// never the key.
    mutating func readAPIKeys(_ reader: inout SettingReader) {
        let admin = reader.value(Settings.adminAPIKeys)
        let introspection = reader.value(Settings.introspectionAPIKeys)
        let scoped = reader.value(Settings.scopedAPIKeys)
        apiKeys = APIKeyring(admin: admin, introspection: introspection, scoped: scoped)
        apiKeyLists = [
            Settings.adminAPIKeys.name: admin, Settings.introspectionAPIKeys.name: introspection,
            Settings.scopedAPIKeys.name: scoped.map(\.key),
        ]
    }
}
