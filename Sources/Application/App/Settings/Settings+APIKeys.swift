import API
import SettingsTable

/// The apiKeys section of the settings table (read by `Configuration.readAPIKeys`).
extension Settings {
    public static let adminAPIKeys = Setting<[String]>(
        "PHONE_VERIFY_ADMIN_API_KEYS", .apiKeys, .apiKeys, defaultsTo: [], shown: "(none)",
        "comma-separated server-to-server keys with every scope: /v1/admin/…, /v1/credentials/introspect, /metrics (Authorization: Bearer KEY)",
        secret: true, production: strong("PHONE_VERIFY_ADMIN_API_KEYS"))

    public static let introspectionAPIKeys = Setting<[String]>(
        "PHONE_VERIFY_INTROSPECTION_API_KEYS", .apiKeys, .apiKeys, defaultsTo: [], shown: "(none)",
        "comma-separated keys that may only introspect and redeem credentials (POST /v1/credentials/introspect): the main auth server's",
        secret: true, production: strong("PHONE_VERIFY_INTROSPECTION_API_KEYS"))

    public static let scopedAPIKeys = Setting<[(scopes: Set<APIScope>, key: String)]>(
        "PHONE_VERIFY_SCOPED_API_KEYS", .apiKeys, .scopedAPIKeys, defaultsTo: [], shown: "(none)",
        "keys with chosen scopes, SCOPE[+SCOPE…]=KEY,… e.g. metrics=KEY1,factors+lockouts=KEY2; scopes: introspect, factors, fraud, lockouts, metrics, read (docs/OPERATIONS.md)",
        secret: true, production: strong("PHONE_VERIFY_SCOPED_API_KEYS"))

    /// Production refuses low-entropy keys (``APIKeyStrength``).
    static func strong(_ name: String) -> ProductionRule {
        .check { c in APIKeyStrength.problem(of: c.apiKeyLists[name] ?? []) }
    }

    static let apiKeysSection: [any SettingEntry] = [adminAPIKeys, introspectionAPIKeys, scopedAPIKeys]
}

extension SettingType where Value == [String] {
    /// Keys, each at least `Configuration.minimumAPIKeyLength` characters.
    static var apiKeys: Self {
        Self("comma-separated keys") { text in
            let keys = items(text)
            let short = keys.contains { $0.utf8.count < Configuration.minimumAPIKeyLength }
            return (keys, short ? ["entries must be at least \(Configuration.minimumAPIKeyLength) characters"] : [])
        }
    }
}

extension SettingType where Value == [(scopes: Set<APIScope>, key: String)] {
    static var scopedAPIKeys: Self {
        Self("SCOPE[+SCOPE…]=KEY,…") { text in
            do { return (try APIKeyring.parseScoped(text, minimumKeyLength: Configuration.minimumAPIKeyLength), []) } catch {
                return (nil, ["\(error)"])
            }
        }
    }
}
