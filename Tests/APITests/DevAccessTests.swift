import API
@testable import DevInbox
import Testing

/// Development endpoints show codes: they answer loopback clients only, the client being what
/// trusted-proxy rules resolve, unless PHONE_VERIFY_DEV_EXPOSE asks otherwise.
@Suite struct DevAccessTests {
    @Test(arguments: [("127.0.0.1", 200), ("127.8.9.10", 200), ("::1", 200), ("10.0.0.5", 404), ("203.0.113.7", 404), ("2001:db8::1", 404)])
    func onlyLoopbackPeersReachTheDevEndpoints(peer: String, status: Int) {
        let h = APITestHarness()
        // Empty segments are read as the router reads them: `//dev/messages` is `/dev/messages`.
        for path in ["/dev/messages", "/dev/inbox", "//dev/messages", "///dev/messages/", "/dev//inbox"] {
            #expect(h.call("GET", path, peer: peer).status == status, "\(path) from \(peer)")
        }
        let other = h.call("GET", "/dev/other", peer: peer)
        #expect(other.status == 404 && other.errorCode == "not_found")
        #expect(h.call("GET", "/healthz", peer: peer).status == 200)
    }

    @Test func theResolvedClientDecidesBehindATrustedProxy() throws {
        let h = APITestHarness(trustedProxies: [try #require(CIDR("10.0.0.0/8"))])
        #expect(h.call("GET", "/dev/messages", headers: [("X-Forwarded-For", "203.0.113.7")], peer: "10.0.0.2").status == 404)
        // The proxy says its own client was on its loopback (a proxy appends the peer it saw).
        #expect(h.call("GET", "/dev/messages", headers: [("X-Forwarded-For", "127.0.0.1")], peer: "10.0.0.2").status == 200)
        #expect(h.call("GET", "/dev/messages", headers: [("X-Forwarded-For", "127.0.0.1, 203.0.113.7")], peer: "10.0.0.2").status == 404)
        // An untrusted peer's X-Forwarded-For is ignored: the loopback peer is the client.
        #expect(h.call("GET", "/dev/messages", headers: [("X-Forwarded-For", "203.0.113.7")]).status == 200)
    }

    @Test(arguments: [
        ("localhost:8080", 200), ("127.0.0.1:8080", 200), ("127.0.0.1", 200), ("[::1]:8080", 200), ("app.localhost", 200),
        ("evil.example:8080", 404), ("evil.example", 404), ("127.0.0.1.evil.example", 404), ("[2001:db8::1]:80", 404), ("", 404),
    ])
    func aLoopbackClientMustNameALoopbackHost(host: String, status: Int) {
        // A page whose name was re-pointed at 127.0.0.1 (DNS rebinding) sends its own name.
        let h = APITestHarness()
        #expect(h.call("GET", "/dev/messages", headers: [("Host", host)]).status == status, "\(host)")
        #expect(DevAccess(exposed: true).allows(client: "127.0.0.1", host: host))
    }

    @Test func exposedDevEndpointsAnswerEveryone() {
        #expect(DevAccess(exposed: true).allows(client: "203.0.113.7"))
        #expect(!DevAccess().allows(client: "203.0.113.7"))
    }
}
