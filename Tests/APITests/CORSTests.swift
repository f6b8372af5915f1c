import API
import Testing

/// Web apps calling the client endpoints from the browser (docs/API.md: "directly or through their backend").
@Suite struct CORSTests {
    let origin = "https://app.example.com"

    func preflight(_ h: APITestHarness, _ path: String, origin: String) -> APITestHarness.Reply {
        h.call("OPTIONS", path, headers: [
            ("Origin", origin), ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "content-type"),
        ])
    }

    @Test func anAllowedOriginGetsPreflightAndFields() {
        let h = APITestHarness(cors: CORSPolicy(origins: [origin]))
        let pre = preflight(h, "/v1/verifications", origin: origin)
        #expect(pre.status == 204)
        #expect(pre.headers["Access-Control-Allow-Origin"] == origin)
        #expect(pre.headers["Access-Control-Allow-Methods"] == "GET, POST, DELETE")
        #expect(pre.headers["Access-Control-Allow-Headers"]?.contains("Idempotency-Key") == true)
        #expect(pre.headers["Vary"] == "Origin")
        let started = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#, headers: [("Origin", origin)])
        #expect(started.status == 201)
        #expect(started.headers["Access-Control-Allow-Origin"] == origin)
        #expect(started.headers["Access-Control-Expose-Headers"]?.contains("RateLimit") == true)
        // Refusals carry them too, so the app can read the error and Retry-After.
        let missing = h.call("GET", "/v1/verifications/ver_nope", headers: [("Origin", origin)])
        #expect(missing.status == 404 && missing.headers["Access-Control-Allow-Origin"] == origin)
    }

    @Test func otherOriginsAndOtherEndpointsGetNothing() {
        let h = APITestHarness(adminKey: "admin-key-0123456789", cors: CORSPolicy(origins: [origin]))
        #expect(preflight(h, "/v1/verifications", origin: "https://evil.example").status == 405)
        let other = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#, headers: [("Origin", "https://evil.example")])
        #expect(other.headers["Access-Control-Allow-Origin"] == nil)
        #expect(other.headers["Vary"] == "Origin")  // the answer depends on Origin: caches must know
        // Server-to-server endpoints never answer cross-origin.
        #expect(preflight(h, "/v1/admin/fraud", origin: origin).status == 405)
        #expect(h.call("GET", "/v1/admin/fraud", headers: [("Origin", origin)]).headers["Access-Control-Allow-Origin"] == nil)
        #expect(preflight(h, "/v1/credentials/introspect", origin: origin).headers["Access-Control-Allow-Origin"] == nil)
    }

    @Test func anyOriginWithAStar() {
        let h = APITestHarness(cors: CORSPolicy(origins: ["*"]))
        let pre = preflight(h, "/v1/mfa/factors", origin: "https://anything.example")
        #expect(pre.status == 204 && pre.headers["Access-Control-Allow-Origin"] == "*" && pre.headers["Vary"] == nil)
    }

    @Test func withoutAPolicyNothingChanges() {
        let h = APITestHarness()
        #expect(preflight(h, "/v1/verifications", origin: origin).status == 405)
        let started = h.call("POST", "/v1/verifications", json: #"{"phone_number":"+15555550123"}"#, headers: [("Origin", origin)])
        #expect(started.headers["Access-Control-Allow-Origin"] == nil)
    }

    @Test func originsAreValidated() {
        #expect(CORSPolicy.isOrigin("https://app.example.com"))
        #expect(CORSPolicy.isOrigin("http://localhost:3000"))
        #expect(!CORSPolicy.isOrigin("https://app.example.com/"))
        #expect(!CORSPolicy.isOrigin("app.example.com"))
        #expect(!CORSPolicy.isOrigin("https://"))
        // Forms browsers never send: they would silently never match.
        #expect(!CORSPolicy.isOrigin("https://App.Example.com"))
        #expect(!CORSPolicy.isOrigin("https://app.example.com:443"))
        #expect(!CORSPolicy.isOrigin("https://user@app.example.com"))
        #expect(CORSPolicy.isOrigin("https://app.example.com:8443"))
        #expect(CORSPolicy.isOrigin("http://[::1]:3000"))
    }
}
