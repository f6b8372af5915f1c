import Credentials
import LibCrypto
import Foundation
import SettingsTable
import SQLiteStore
import VerifyCore

/// `phone-verify keys list | rotate | retire KID`.
enum KeysCommand {
    static func run(_ args: [String], _ c: Configuration) throws -> Int32 {
        let opened = try StoreFactory.openExisting(c)
        defer { opened.close() }
        let store = opened.store
        let now = Date()
        switch (args.first, args.count) {
        case ("list", 1):
            for record in try store.signingKeys() {
                let line: JSONValue = [
                    "kid": .string(record.kid), "alg": .string(record.algorithm), "status": .string(record.status.rawValue),
                    "created_at": .string(RFC3339.format(record.createdAt)),
                    "retire_after": record.retireAfter.map { .string(RFC3339.format($0)) } ?? .null,
                    "published": .bool(record.isPublished(at: now)),
                ]
                print(line.encodedString())
            }
            return 0
        case ("rotate", 1):
            if c.signingKeyFile != nil { return try activateInstalledKey(c, store: store, now: now) }
            let algorithm = SigningAlgorithm(rawValue: c.signingAlgorithm) ?? .es256
            let signer = try JWTSigner(key: try SigningKey.generate(algorithm))
            try KeyMaterial.writeSecretFile(c.dataDirectory + "/signing-key.pem", contents: try signer.key.privateKeyPEM())
            try store.activate(try StoreKeyRing.record(for: signer, at: now), now: now, credentialLifetime: TimeInterval(c.credentialTTL))
            print("{\"active\":\"\(signer.keyID)\",\"note\":\"the previous key stays in JWKS for \(c.credentialTTL) s; a running server publishes it within \(Settings.keyRefresh.name) and signs with it one interval later\"}")
            return 0
        case ("retire", 2):
            let before = try store.signingKeys().first { $0.kid == args[1] }
            if try store.retire(kid: args[1]) {
                // Still published means credentials it signed may still be valid, or a replica
                // whose key file was not updated still signs with it: that replica now answers 503
                // (not ready) until its file holds the active key.
                let stillInUse = before?.isPublished(at: now) == true
                let note = stillInUse
                    ? "it was still published: its unexpired credentials no longer verify, and a replica still signing with it stops (503, not ready) until its key file holds the active key"
                    : "it was no longer published"
                print("{\"retired\":\"\(args[1])\",\"note\":\"\(note)\"}")
                return 0
            }
            fail("no verifying key \(args[1]) (the active key cannot be retired; rotate first)")
            return 65
        default:
            fail("usage: phone-verify keys list | rotate | retire KID")
            return 64
        }
    }

    /// With PHONE_VERIFY_SIGNING_KEY_FILE the new key is the PEM the operator installed there:
    /// it becomes the active key in the store, and each running replica signs with it as soon as
    /// its own key file holds it (checked every PHONE_VERIFY_KEY_REFRESH seconds).
    static func activateInstalledKey(_ c: Configuration, store: any AppStore, now: Date) throws -> Int32 {
        let signer = try JWTSigner(key: try KeyMaterial.signingKey(c))
        let known = try store.signingKeys().first { $0.kid == signer.keyID }
        if known?.status == .retired {
            fail("the key in \(Settings.signingKeyFile.name) (\(signer.keyID)) was retired; install a new key there")
            return 65
        }
        if known?.status == .active {
            fail("""
                the key in \(Settings.signingKeyFile.name) (\(signer.keyID)) is already the active key: install the new PEM \
                there first (on every replica), then run this again
                """)
            return 65
        }
        try store.activate(try StoreKeyRing.record(for: signer, at: now), now: now, credentialLifetime: TimeInterval(c.credentialTTL))
        print("""
            {"active":"\(signer.keyID)","note":"replicas sign with it within \(c.keyRefreshSeconds) s once their key file holds it; \
            the previous key stays in JWKS until their last credential expires"}
            """)
        return 0
    }

    static func fail(_ message: String) {
        FileHandle.standardError.write(Data("phone-verify: \(message)\n".utf8))
    }
}
