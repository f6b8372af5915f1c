import Foundation
import Encoding

/// What operators do about a number's send quota: lift it (`phone-verify limits clear NUMBER`,
/// `DELETE /v1/admin/limits/{phone}`, the console's lookup page), for an owner whose quota
/// strangers spent (docs/ABUSE.md, "Operators lift locks").
public struct LimitsAdmin: Sendable {
    let store: any LimitLogAdminStore

    public init(store: any LimitLogAdminStore) {
        self.store = store
    }

    /// Deletes every rate-limit log of `phone`'s send quotas (the scopes in
    /// ``LimitScope/numberQuotaScopes``, every window, every requester); returns how many.
    public func clear(phone: String) throws -> Int {
        guard phone.hasPrefix("+"), (2...16).contains(phone.count), phone.dropFirst().allSatisfy(ASCII.isDigit) else {
            throw VerifyError(.invalidPhoneNumber, "phone_number must be in E.164 form (+ and digits)", details: ["reason": "not_a_number"])
        }
        return try store.deleteLimitLogs(scopes: LimitScope.numberQuotaScopes.map(\.rawValue).sorted(), value: phone)
    }

    /// Whether `key` (`scope|window|value`) is a log of `value` in one of `scopes`: its scope is
    /// one of them, its window is digits, and its value is `value` or starts with `value|`.
    /// Stores that cannot say this in SQL filter their candidates with it.
    public static func matches(_ key: String, scopes: [String], value: String) -> Bool {
        let parts = key.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, scopes.contains(String(parts[0])), !parts[1].isEmpty, parts[1].utf8.allSatisfy(ASCII.isDigit) else {
            return false
        }
        let rest = parts[2]
        return rest == value || rest.hasPrefix(value + "|")
    }
}
