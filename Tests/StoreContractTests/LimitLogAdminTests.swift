import Foundation
import Testing
import VerifyCore

/// Operators' access to rate-limit logs by key prefix (the failed-check lockouts): every store
/// lists and deletes exactly the logs whose key starts with the prefix.
@Suite struct LimitLogAdminTests {
    @Test(arguments: StoreKind.allCases)
    func logsAreListedAndDeletedByPrefix(kind: StoreKind) throws {
        let made = try kind.make()
        let store = try #require(made as? any LimitLogAdminStore)
        let keys = [
            LockoutPolicy.key(phone: "+15555550123", requester: "203.0.113.9"),
            LockoutPolicy.key(phone: "+15555550123", requester: "user:alice|x"),
            LockoutPolicy.key(phone: "+155555501234", requester: "2001:db8::/64"),
            "phone_send|3600|+15555550123",
        ]
        try made.write { tx in
            for (i, key) in keys.enumerated() {
                try tx.setLimitEvents(key: key, events: [1_000 + Int64(i), 2_000], expiresAt: t0.addingTimeInterval(86_400))
            }
        }
        let number = try store.limitLogs(prefix: LockoutPolicy.keyPrefix(phone: "+15555550123"))
        #expect(number.map(\.key) == Array(keys[0...1]))
        #expect(number.first?.events == [1_000, 2_000])
        #expect(try store.limitLogs(prefix: LockoutPolicy.allKeysPrefix).count == 3)
        // A prefix is literal: LIKE wildcards in it match nothing else.
        #expect(try store.limitLogs(prefix: "failed_check|%").isEmpty)
        #expect(try store.deleteLimitLogs(prefix: LockoutPolicy.keyPrefix(phone: "+15555550123")) == 2)
        #expect(try store.limitLogs(prefix: LockoutPolicy.allKeysPrefix).map(\.key) == [keys[2]])
        #expect(try made.read { try $0.limitEvents(key: keys[3]) } == [1_003, 2_000])
    }

    /// `limits clear NUMBER`: every send-quota log of the number (each scope, window and
    /// requester) goes; a longer number, another scope, a number in a requester's place and a
    /// non-numeric window stay.
    @Test(arguments: StoreKind.allCases)
    func aNumbersSendQuotaLogsAreDeleted(kind: StoreKind) throws {
        let made = try kind.make()
        let store = try #require(made as? any LimitLogAdminStore)
        let number = "+15555550123"
        let gone = [
            "phone_send|3600|\(number)", "phone_send|86400|\(number)", "whatsapp_send|3600|\(number)",
            "call_send|86400|\(number)", "phone_send|3600|\(number)|203.0.113.0/24", "phone_send|86400|\(number)|user:a|b",
        ]
        let kept = [
            "phone_send|3600|\(number)4", "phone_send|3600|+1999|\(number)", "ip_send|600|\(number)",
            "failed_check|\(number)|203.0.113.9", "phone_send|x|\(number)", "phone_sendx|3600|\(number)",
            "phone_send|3600|+1555555012",
        ]
        try made.write { tx in
            for key in gone + kept { try tx.setLimitEvents(key: key, events: [1_000], expiresAt: t0.addingTimeInterval(86_400)) }
        }
        let scopes = LimitScope.numberQuotaScopes.map(\.rawValue).sorted()
        #expect(try store.deleteLimitLogs(scopes: scopes, value: number) == gone.count)
        for key in gone { #expect(try made.read { try $0.limitEvents(key: key) }.isEmpty, "\(key)") }
        for key in kept { #expect(try made.read { try $0.limitEvents(key: key) } == [1_000], "\(key)") }
        #expect(try store.deleteLimitLogs(scopes: scopes, value: number) == 0)
        #expect(try LimitsAdmin(store: store).clear(phone: "+15555550123") == 0)
        #expect(throws: VerifyError.self) { try LimitsAdmin(store: store).clear(phone: "15555550123") }
    }
}

/// An update writes the purpose too: a Twilio-compatible verification that receives a custom code
/// on a resend becomes `twilio_compat_custom_code` (its approval is no conversion).
@Suite struct PurposeUpdateTests {
    @Test(arguments: StoreKind.allCases)
    func anUpdateWritesThePurpose(kind: StoreKind) throws {
        let store = try kind.make()
        var v = sample("ver_purpose")
        v.purpose = .delegated
        let inserted = v
        try store.write { tx in try tx.insert(inserted) }
        v.purpose = .delegatedCustomCode
        v.sends = 2
        let updated = v
        try store.write { tx in try tx.update(updated) }
        let read = try store.read { try $0.verification(id: "ver_purpose") }
        #expect(read?.purpose == .delegatedCustomCode && read?.sends == 2)
    }
}
