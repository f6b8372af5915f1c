import Encoding
import Foundation
import Testing

/// Whether a route needs a key depends only on the route group it sits in (docs/ARCHITECTURE.md,
/// "Route groups"), so a route registered in the wrong group would ship without a check. This
/// walks every operation the running service describes (its openapi.json, which OpenAPITests
/// keeps equal to the router) and expects each admin and introspection route the application
/// wired to refuse a request without a key (401) and with a key of a scope it does not take (403).
@Suite struct ProtectedRouteSweepTests {
    static let metricsKey = "sweep-metrics-key-0123456789abcdef0123456789"
    /// Configured so that introspection is wired too (it exists only when a key may introspect).
    static let introspectionKey = "sweep-introspection-key-0123456789abcdef01"

    @Test func everyAdminAndIntrospectionRouteRefusesMissingAndWrongKeys() throws {
        let server = try LiveServer(environment: [
            "PHONE_VERIFY_SCOPED_API_KEYS": "metrics=\(Self.metricsKey),introspect=\(Self.introspectionKey)",
            "PHONE_VERIFY_CONSOLE": "true",
        ])
        defer { server.stop() }
        guard case .object(let paths)? = try server.call("GET", "/openapi.json").json["paths"] else {
            Issue.record("openapi.json has no paths")
            return
        }
        var checked = 0, described = 0
        for path in paths where path.key.hasPrefix("/v1/admin") || path.key == "/v1/credentials/introspect" {
            guard case .object(let operations) = path.value else { continue }
            let concrete = path.key.replacingOccurrences(of: #"\{[^}]+\}"#, with: "x", options: .regularExpression)
            for operation in operations where ["get", "post", "put", "patch", "delete"].contains(operation.key) {
                let method = operation.key.uppercased()
                described += 1
                let anonymous = try server.call(method, concrete)
                if anonymous.status == 404 { continue }  // a part this configuration does not wire
                #expect(anonymous.status == 401, "\(method) \(path.key) without a key")
                let wrongScope = try server.call(method, concrete, headers: ["Authorization": "Bearer \(Self.metricsKey)"])
                #expect(wrongScope.status == 403, "\(method) \(path.key) with a metrics key")
                checked += 1
            }
        }
        // Not vacuous: with the console and an introspection key, every described operation is
        // wired here (fraud, factors, lockouts, limits, verifications, signing keys, the console's
        // reads, introspection).
        #expect(described >= 19)
        #expect(checked == described, "\(described - checked) described protected operations are not wired")
    }
}
