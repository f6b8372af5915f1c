import Foundation
import VerifyCore

/// A credential signing key as the admin API shows it (`SigningKey` in docs/openapi.json), the
/// fields of `phone-verify keys list`: never key material, only its id, algorithm and state.
public enum SigningKeyJSON {
    public static func make(_ key: SigningKeyRecord, now: Date) -> JSONValue {
        [
            "kid": .string(key.kid), "algorithm": .string(key.algorithm), "status": .string(key.status.rawValue),
            "created_at": .string(RFC3339.format(key.createdAt)),
            "retire_after": key.retireAfter.map { .string(RFC3339.format($0)) } ?? .null,
            "published": .bool(key.isPublished(at: now)),
        ]
    }
}
