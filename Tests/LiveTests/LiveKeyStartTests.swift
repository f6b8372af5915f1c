import LibCrypto
import Foundation
import Testing
import VerifyCore

/// A replica starting with a new key file replaces the active key; it serves only once other
/// replicas, rereading the store at most once a second when asked for JWKS, publish that key.
@Suite struct LiveKeyStartTests {
    private static let waitMessage = "a new signing key replaced the active one; serving once other replicas publish it"

    private func writeKey(_ path: String) throws -> String {
        let key = try SigningKey.generate(.ed25519)
        try key.privateKeyPEM().write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aReplicaStartingWithANewKeyWaitsForItsPublication() throws {
        let directory = LiveServer.temporaryDirectory()
        let first = try LiveServer(dataDirectory: directory, environment: [
            "PHONE_VERIFY_SIGNING_KEY_FILE": try writeKey(directory + "/first.pem"),
        ])
        let firstKids = try first.call("GET", "/.well-known/jwks.json").json["keys"]?.arrayValue?.compactMap { $0["kid"]?.stringValue }
        first.stop()
        // A first start (no other key in the store) does not wait.
        #expect(!first.logs.records.contains { $0.message == Self.waitMessage })

        let started = Date()
        let second = try LiveServer(dataDirectory: directory, environment: [
            "PHONE_VERIFY_SIGNING_KEY_FILE": try writeKey(directory + "/second.pem"),
        ])
        defer { second.stop() }
        #expect(Date().timeIntervalSince(started) >= 1.0)
        #expect(second.logs.records.contains { $0.message == Self.waitMessage })
        let kids = try second.call("GET", "/.well-known/jwks.json").json["keys"]?.arrayValue?.compactMap { $0["kid"]?.stringValue } ?? []
        #expect(kids.count == 2 && Set(firstKids ?? []).isSubset(of: Set(kids)))

        // Restarting with the key now active does not wait again.
        second.stop()
        let third = try LiveServer(dataDirectory: directory, environment: [
            "PHONE_VERIFY_SIGNING_KEY_FILE": directory + "/second.pem",
        ])
        defer { third.stop() }
        #expect(!third.logs.records.contains { $0.message == Self.waitMessage })
    }
}
