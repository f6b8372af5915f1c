import API
import Foundation
import HTTPMessages
import Telemetry
import Testing
import VerifyCore
import VerifyTesting

@Suite struct OperationalRoutesTests {
    @Test func healthAndReadiness() {
        let up = APITestHarness()
        #expect(up.call("GET", "/healthz").status == 200)
        #expect(up.call("GET", "/readyz").json["status"] == "ready")
        let down = APITestHarness(ready: false)
        #expect(down.call("GET", "/healthz").status == 200)
        let readyz = down.call("GET", "/readyz")
        #expect(readyz.status == 503)
        #expect(readyz.errorCode == "unavailable")
        // Every gateway down: /readyz says so (docs/OPERATIONS.md: store and gateway reachable), while the load
        // balancers' variant keeps the replica serving checks, JWKS and introspection.
        let vendorDown = APITestHarness(gatewaysUp: false)
        #expect(vendorDown.call("GET", "/readyz").status == 503)
        #expect(vendorDown.call("GET", "/readyz", query: ["gateways": "false"]).status == 200)
        #expect(down.call("GET", "/readyz", query: ["gateways": "false"]).status == 503)
    }

    @Test func discoveryDocumentPointsAtJWKS() {
        let h = APITestHarness()
        let doc = h.call("GET", "/.well-known/openid-configuration").json
        #expect(doc["issuer"] == "http://issuer.test")
        #expect(doc["jwks_uri"] == "http://issuer.test/.well-known/jwks.json")
        #expect(doc["id_token_signing_alg_values_supported"] == ["EdDSA"])
        // There is no token endpoint, so no authentication methods for one (docs/INTEGRATION.md).
        #expect(doc["token_endpoint_auth_methods_supported"] == nil)
        let jwks = h.call("GET", "/.well-known/jwks.json").json
        #expect(jwks["keys"]?.arrayValue?.first?["kid"] == "test-key")
    }

    /// A key ring that counts the rereads it is asked for.
    final class CountingKeyRing: KeyRing, @unchecked Sendable {
        private let lock = NSLock()
        private var rereads = 0
        func currentSigner() -> any CredentialSigner { FakeSigner() }
        func publicJWKs() -> [JSONValue] { FakeSigner().publicJWKs() }
        func refreshForUnknownKey() {
            lock.lock()
            rereads += 1
            lock.unlock()
        }
        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return rereads
        }
    }

    /// Verifiers fetch JWKS when a credential names a key they do not know (just activated,
    /// perhaps by another replica): the ring is asked to reread the store first (it limits that
    /// to once a second itself).
    @Test func jwksAsksTheKeyRingToRereadTheStore() {
        let t = TestService()
        let ring = CountingKeyRing()
        let dependencies = APIDependencies(
            random: t.random, logger: Logger(handler: CapturingLogHandler(), minimumLevel: .debug),
            groups: [.discovery(keys: ring, issuer: "http://issuer.test", introspection: false)])
        let response = APIResponder(dependencies).respond(to: HTTPRequest(method: "GET", path: "/.well-known/jwks.json"))
        #expect(response.status == 200 && ring.count == 1)
    }

    /// An issuer configured with a trailing "/" stays the `iss` as given; URLs under it drop the
    /// "/" (OIDC Discovery §4) instead of doubling it.
    @Test func anIssuerWithATrailingSlashGivesCleanURLs() {
        let t = TestService()
        let introspector = CredentialIntrospector(verifier: FakeCredentialVerifier(clock: t.clock), redemptions: t.store, random: t.random)
        let dependencies = APIDependencies(
            random: t.random, logger: Logger(handler: CapturingLogHandler(), minimumLevel: .debug),
            groups: [
                .discovery(keys: FakeSigner(), issuer: "https://verify.example.test/", introspection: true),
                .introspection(introspector, keys: APIKeyring()),
            ])
        let response = APIResponder(dependencies).respond(to: HTTPRequest(method: "GET", path: "/.well-known/openid-configuration"))
        let doc = (try? JSONValue.parse(response.bodyBytes)) ?? .null
        #expect(doc["issuer"] == "https://verify.example.test/")
        #expect(doc["jwks_uri"] == "https://verify.example.test/.well-known/jwks.json")
        #expect(doc["introspection_endpoint"] == "https://verify.example.test/v1/credentials/introspect")
    }

    @Test func devMessagesOnlyInDevelopment() {
        let dev = APITestHarness()
        dev.inbox.record(DevMessage(to: "+15555550123", body: "b", code: "123456", verificationID: "ver_1", purpose: .signIn, gateway: "console", sentAt: Date()))
        dev.inbox.record(DevMessage(to: "+15555550999", body: "b", code: "654321", verificationID: "ver_2", purpose: .signIn, gateway: "console", sentAt: Date()))
        let list = dev.call("GET", "/dev/messages", query: ["phone_number": "+15555550123"]).json["messages"]?.arrayValue
        #expect(list?.count == 1)
        #expect(list?.first?["code"] == "123456")
        #expect(dev.call("GET", "/dev/messages").json["messages"]?.arrayValue?.count == 2)
        // A "+" that arrived as a space is restored.
        #expect(dev.call("GET", "/dev/messages", query: ["phone_number": " 15555550999"]).json["messages"]?.arrayValue?.count == 1)
        let prod = APITestHarness(dev: false)
        #expect(prod.call("GET", "/dev/messages").status == 404)
    }

    @Test func accessLogHasRouteTemplateAndNoPhoneOrCode() throws {
        let h = APITestHarness()
        let id = try #require(h.start().json["id"]?.stringValue)
        let code = try h.t.lastCode(for: id)
        h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#)
        let lines = h.logs.lines
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { !$0.contains("5555550123") && !$0.contains(code) })
        #expect(lines[1].contains(#""route":"/v1/verifications/{id}/check""#))
        #expect(lines[1].contains(#""status":"200""#))
    }

    @Test func clientIPFromTrustedProxyOnly() {
        let resolver = ClientIPResolver(trustedProxies: [CIDR("10.0.0.0/8")!])
        let spoofed = HTTPRequest(method: "GET", path: "/", headers: ["X-Forwarded-For": "1.2.3.4"], remoteAddress: "203.0.113.9")
        #expect(resolver.resolve(spoofed) == "203.0.113.9")
        let proxied = HTTPRequest(method: "GET", path: "/", headers: ["X-Forwarded-For": "1.2.3.4, 198.51.100.7, 10.0.0.2"], remoteAddress: "10.0.0.1")
        #expect(resolver.resolve(proxied) == "198.51.100.7")
        let garbage = HTTPRequest(method: "GET", path: "/", headers: ["X-Forwarded-For": "nonsense"], remoteAddress: "10.0.0.1")
        #expect(resolver.resolve(garbage) == "10.0.0.1")
        // Hops with a port (some load balancers send them) name the client, not the proxy.
        for (hop, client) in [("198.51.100.7:51234", "198.51.100.7"), ("[2001:db8::7]:443", "2001:db8::7"),
                              ("[2001:db8::7]", "2001:db8::7"), ("2001:db8::7", "2001:db8::7")] {
            let request = HTTPRequest(method: "GET", path: "/", headers: ["X-Forwarded-For": hop + ", 10.0.0.2"], remoteAddress: "10.0.0.1")
            #expect(resolver.resolve(request) == client)
        }
    }

    @Test(arguments: [("10.1.2.3", true), ("11.0.0.1", false), ("::1", false)])
    func cidrContains(address: String, expected: Bool) {
        #expect(CIDR("10.0.0.0/8")!.contains(address) == expected)
    }

    @Test func cidrIPv6() {
        #expect(CIDR("2001:db8::/32")!.contains("2001:db8::1"))
        #expect(!CIDR("2001:db8::/32")!.contains("2001:db9::1"))
        #expect(CIDR("::1")!.contains("::1"))
        #expect(CIDR("10.0.0.0/33") == nil)
        #expect(CIDR("banana") == nil)
    }

    @Test func routerTable() {
        let h = APITestHarness()
        let routes = h.api.router.table.map { "\($0.method) \($0.template)" }
        #expect(routes.contains("POST /v1/verifications/{id}/check"))
        #expect(routes.contains("GET /.well-known/jwks.json"))
    }
}
