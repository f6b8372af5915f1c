import API
import HTTPMessages
import Telemetry
import Testing
import VerifyCore
import VerifyTesting

/// Route groups: a prefix read as the router reads paths, the middleware of the groups that own
/// a path (outer prefix first, then the application's order), and route middleware that runs only
/// once a route matched.
@Suite struct RouteGroupTests {
    @Test(arguments: [
        ("/console", "/console", true), ("/console", "/console/", true), ("/console", "//console/numbers", true),
        ("/v1/admin", "/v1/admin/fraud", true), ("/v1/admin", "/v1//admin", true), ("/v1/admin", "/v1/admin", true),
        ("/v1/admin", "/v1/administrator", false), ("/console", "/consoles", false), ("/v1/admin", "/admin", false),
        ("/v1/admin", "/v1", false), ("/console", "/x/console", false), ("/console", "", false), ("/console", "/", false),
        ("/dev", "/dev/inbox?x=1", true), ("/dev", "/devices", false), ("/dev", "dev", true), ("/dev", "///", false),
        ("", "/anything", true), ("", "", true), ("/v2", "/v2", true), ("/v2/", "//v2//Services", true),
    ])
    func aPrefixOwnsPathsAsTheRouterReadsThem(prefix: String, path: String, owns: Bool) {
        #expect(PathPrefix(prefix).owns(path) == owns, "\(prefix) \(path)")
        // The rule it follows: the segments of a split that omits empty ones.
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let wanted = prefix.split(separator: "/", omittingEmptySubsequences: true)
        #expect(owns == (segments.count >= wanted.count && Array(segments.prefix(wanted.count)) == wanted))
    }

    /// Appends its name to the `X-Trace` header of the answer, so a test sees which middleware ran.
    struct Trace: Middleware {
        let name: String
        func respond(to request: HTTPRequest, context: inout RouteContext, next: NextResponder) throws -> HTTPResponse {
            var response = try next(request, &context)
            response.headers.set("X-Trace", name + (response.headers["X-Trace"].map { " " + $0 } ?? ""))
            return response
        }
    }

    struct Hello: RouteCollection {
        let path: String
        func register(in router: inout Router) {
            router.add("GET", path) { _, _ in HTTPResponse(status: 200) }
        }
    }

    func trace(_ api: APIResponder, _ path: String, method: String = "GET") -> (Int, String?) {
        let response = api.respond(to: HTTPRequest(method: method, path: path))
        return (response.status, response.headers["X-Trace"])
    }

    @Test func aRequestPassesTheMiddlewareOfTheGroupsThatOwnItsPath() {
        let api = APIResponder(
            APIDependencies(
                random: SeededRandom(seed: 1), logger: Logger(handler: CapturingLogHandler()),
                groups: [
                    RouteGroup("/a/b", middleware: [Trace(name: "ab")], routes: [Hello(path: "/a/b/c")]),
                    RouteGroup("/a", middleware: [Trace(name: "a1")], routes: [Hello(path: "/a/x")]),
                    RouteGroup("/a", middleware: [Trace(name: "a2")]),
                    RouteGroup("/z", routeMiddleware: [Trace(name: "z")], routes: [Hello(path: "/z/y")]),
                    RouteGroup("", routes: [Hello(path: "/top")]),
                ]))
        #expect(trace(api, "/a/b/c") == (200, "a1 a2 ab"))
        #expect(trace(api, "//a//b/c") == (200, "a1 a2 ab"))
        #expect(trace(api, "/a/x") == (200, "a1 a2"))
        // A group's middleware sees its paths' 404 and 405 too.
        #expect(trace(api, "/a/b/none") == (404, nil))  // errors are thrown through it, mapped outside
        #expect(trace(api, "/top") == (200, nil))
        // Route middleware runs only around a matched route: 404 and 405 come before it.
        #expect(trace(api, "/z/y") == (200, "z"))
        #expect(trace(api, "/z/y", method: "POST") == (405, nil))
        #expect(trace(api, "/z/none") == (404, nil))
    }

    /// The scope check is route middleware: an unknown admin path or method answers 404 or 405,
    /// never 401, and a matched route without a key 401 with `WWW-Authenticate`.
    @Test func adminRoutesAnswerRoutingErrorsBeforeAskingForAKey() {
        let h = APITestHarness(adminKey: String(repeating: "k", count: 32))
        #expect(h.call("GET", "/v1/admin/none").status == 404)
        #expect(h.call("POST", "/v1/admin/fraud").status == 405)
        let refused = h.call("GET", "/v1/admin/fraud")
        #expect(refused.status == 401 && refused.headers["WWW-Authenticate"] != nil)
        #expect(h.call("GET", "/v1/admin/fraud", headers: [("Authorization", "Bearer " + String(repeating: "k", count: 32))]).status == 200)
        let readOnly = APITestHarness(apiKeys: APIKeyring(scoped: [([.read], String(repeating: "r", count: 32))]))
        let bearer = [("Authorization", "Bearer " + String(repeating: "r", count: 32))]
        #expect(readOnly.call("GET", "/v1/admin/fraud", headers: bearer).status == 200)
        let change = readOnly.call("DELETE", "/v1/admin/fraud/country:NG", headers: bearer)
        #expect(change.status == 403 && change.json["error"]?["details"]?["required_scopes"] == ["fraud"])
    }
}
