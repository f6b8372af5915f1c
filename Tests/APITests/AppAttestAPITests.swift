import API
import Foundation
import Synchronization
import Testing
import VerifyCore

/// A registry that issues a fixed nonce and accepts any attestation except for key "taken=",
/// recording what it was given.
final class FakeAppAttestRegistry: AppAttestRegistry {
    let registrations = Mutex<[AppAttestRegistration]>([])

    func issueChallenge(now: Date) throws -> AppAttestChallenge {
        AppAttestChallenge(challenge: "nonce-1", expiresAt: now.addingTimeInterval(300))
    }

    func register(_ registration: AppAttestRegistration, now: Date) throws -> AttestedKey {
        registrations.withLock { $0.append(registration) }
        guard registration.keyID != "taken=" else {
            throw VerifyError(.challengeFailed, "the app_attest challenge failed: the key is already attested", details: ["provider": "app_attest"])
        }
        return AttestedKey(keyID: registration.keyID, appID: "ABCDE12345.com.example.app", publicKey: [], counter: 0, environment: "production", createdAt: now)
    }
}

/// `/v1/app-attest/…`, in-process.
@Suite struct AppAttestAPITests {
    let registry = FakeAppAttestRegistry()

    @Test func theChallengeRouteIssuesANonce() {
        let h = APITestHarness(appAttest: registry)
        for body in [nil, "{}"] {
            let reply = h.call("POST", "/v1/app-attest/challenge", json: body)
            #expect(reply.status == 201)
            #expect(reply.json["challenge"]?.stringValue == "nonce-1")
            #expect(reply.json["expires_at"]?.stringValue == RFC3339.format(h.t.clock.now().addingTimeInterval(300)))
            #expect(reply.headers["Cache-Control"] == "no-store")
        }
        #expect(h.call("POST", "/v1/app-attest/challenge", json: "[]").errorCode == "invalid_request")
    }

    @Test func anAttestationIsRegistered() {
        let h = APITestHarness(appAttest: registry)
        let reply = h.call("POST", "/v1/app-attest/attestations", json: #"{"key_id":"a2V5","attestation":"YXR0","challenge":"nonce-1"}"#)
        #expect(reply.status == 201)
        #expect(reply.json["key_id"]?.stringValue == "a2V5")
        #expect(reply.json["environment"]?.stringValue == "production")
        #expect(registry.registrations.withLock { $0 } == [AppAttestRegistration(keyID: "a2V5", attestation: "YXR0", challenge: "nonce-1")])
    }

    @Test func refusalsUseTheErrorEnvelope() {
        let h = APITestHarness(appAttest: registry)
        let taken = h.call("POST", "/v1/app-attest/attestations", json: #"{"key_id":"taken=","attestation":"YXR0","challenge":"n"}"#)
        #expect(taken.status == 403)
        #expect(taken.errorCode == "challenge_failed")
        #expect(taken.json["error"]?["details"]?["provider"]?.stringValue == "app_attest")
        let missing = h.call("POST", "/v1/app-attest/attestations", json: #"{"key_id":"a2V5","challenge":"n"}"#)
        #expect(missing.status == 400)
        #expect(missing.json["error"]?["details"]?["field"]?.stringValue == "attestation")
        // Oversized members are refused before the registry sees them.
        let huge = String(repeating: "A", count: 10928)
        let oversized = h.call("POST", "/v1/app-attest/attestations", json: #"{"key_id":"a2V5","attestation":"\#(huge)","challenge":"n"}"#)
        #expect(oversized.status == 400)
        let longKey = String(repeating: "k", count: 257)
        #expect(h.call("POST", "/v1/app-attest/attestations", json: #"{"key_id":"\#(longKey)","attestation":"YXR0","challenge":"n"}"#).status == 400)
        #expect(h.call("POST", "/v1/app-attest/attestations", json: "{", headers: []).status == 400)
        #expect(h.call("POST", "/v1/app-attest/attestations", form: "key_id=a").status == 415)
        #expect(registry.registrations.withLock { $0.map(\.keyID) } == ["taken="])
    }

    @Test func theRoutesExistOnlyWhenTheProviderIsEnabled() {
        let h = APITestHarness()
        #expect(h.call("POST", "/v1/app-attest/challenge").status == 404)
        #expect(h.call("POST", "/v1/app-attest/attestations", json: "{}").status == 404)
    }

    @Test func browserAppsMayCallThemCrossOrigin() {
        let origin = "capacitor://localhost"
        let h = APITestHarness(cors: CORSPolicy(origins: ["*"]), appAttest: registry)
        let reply = h.call("POST", "/v1/app-attest/challenge", headers: [("Origin", origin)])
        #expect(reply.headers["Access-Control-Allow-Origin"] == "*")
        let preflight = h.call("OPTIONS", "/v1/app-attest/attestations", headers: [("Origin", origin), ("Access-Control-Request-Method", "POST")])
        #expect(preflight.status == 204)
    }
}
