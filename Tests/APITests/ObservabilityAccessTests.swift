import API
import Testing
import VerifyCore

/// In production, `/metrics` (per-country counts) needs a `metrics` key, and `/readyz` answers
/// anonymous probes with ready or not ready only: its reasons (store errors, gateway states)
/// go to `metrics` and `read` keys.
@Suite struct ObservabilityAccessTests {
    static let metrics = "metrics-key-0123456789abcdef"
    static let read = "read-key-0123456789abcdef0"
    static let introspection = "introspection-key-0123456"
    static let keys = APIKeyring(
        introspection: [introspection], scoped: [([.metrics], metrics), ([.read], read)])

    func bearer(_ key: String) -> [(String, String)] { [("Authorization", "Bearer " + key)] }

    @Test func productionMetricsNeedAMetricsKey() {
        let h = APITestHarness(apiKeys: Self.keys, production: true)
        #expect(h.call("GET", "/metrics").status == 401)
        #expect(h.call("GET", "/metrics", headers: bearer("unknown-key-0123456789")).status == 401)
        #expect(h.call("GET", "/metrics", headers: bearer(Self.introspection)).status == 403)
        #expect(h.call("GET", "/metrics", headers: bearer(Self.read)).status == 403)
        #expect(h.call("GET", "/metrics", headers: bearer(Self.metrics)).status == 200)
        #expect(APITestHarness(apiKeys: Self.keys).call("GET", "/metrics").status == 200)  // development
    }

    @Test func productionReadinessTellsReasonsToKeysOnly() {
        let h = APITestHarness(ready: false, apiKeys: Self.keys, production: true)
        let anonymous = h.call("GET", "/readyz")
        #expect(anonymous.status == 503 && anonymous.errorCode == "unavailable")
        #expect(anonymous.json["error"]?["message"] == "not ready")
        for key in [Self.introspection, "unknown-key-0123456789"] {
            #expect(h.call("GET", "/readyz", headers: bearer(key)).json["error"]?["message"] == "not ready")
        }
        for key in [Self.metrics, Self.read] {
            #expect(h.call("GET", "/readyz", headers: bearer(key)).json["error"]?["message"] == "not ready: store down")
        }
        #expect(APITestHarness(ready: false).call("GET", "/readyz").json["error"]?["message"] == "not ready: store down")
        let up = APITestHarness(apiKeys: Self.keys, production: true)
        #expect(up.call("GET", "/readyz").status == 200 && up.call("GET", "/readyz").json["status"] == "ready")
    }
}
