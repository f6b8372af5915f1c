import API
import Foundation
import HTTPMessages
import Telemetry
import Testing
import Vendors
import VerifyCore
import VerifyTesting

/// docs/openapi.json describes exactly the routes the router registers, with error codes and
/// statuses as the code maps them; Sources/HTTP/API/Generated/OpenAPIDocument.swift embeds it byte for byte.
@Suite struct OpenAPITests {
    /// Routes announced for the operations work that may not be registered yet. Each is excused
    /// only while the router does not have it; once registered, it must match the spec like any other.
    static let pending: Set<Operation> = [
        Operation("GET", "/openapi.json"), Operation("GET", "/metrics"),
        Operation("GET", "/dev/inbox"), Operation("GET", "/dev/inbox/events"),
    ]
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    struct Operation: Hashable, Comparable, CustomStringConvertible {
        let method: String
        let template: String
        init(_ method: String, _ template: String) {
            self.method = method.uppercased()
            self.template = template
        }
        var description: String { "\(method) \(template)" }
        static func < (a: Operation, b: Operation) -> Bool { (a.template, a.method) < (b.template, b.method) }
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func specText() throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("docs/openapi.json"), encoding: .utf8)
    }

    static func spec() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(try specText().utf8))
        return try #require(object as? [String: Any], "docs/openapi.json is not a JSON object")
    }

    /// Every (method, path template) the spec describes.
    static func specOperations(_ spec: [String: Any]) throws -> Set<Operation> {
        let paths = try #require(spec["paths"] as? [String: Any])
        var operations: Set<Operation> = []
        for (template, item) in paths {
            let item = try #require(item as? [String: Any], "path item \(template)")
            for method in methods where item[method] != nil { operations.insert(Operation(method, template)) }
        }
        return operations
    }

    /// Every route of a fully configured API: the test harness (development mode, MFA, admin key,
    /// App Attest) plus the vendor callback routes, which exist only when their gateways are configured.
    static func routerOperations() -> Set<Operation> {
        let h = APITestHarness(adminKey: "admin-key-0123456789", appAttest: FakeAppAttestRegistry(), console: true)
        var operations = Set(h.api.router.table.map { Operation($0.method, $0.template) })
        operations.formUnion(callbackResponder().router.table.map { Operation($0.method, $0.template) })
        // The Twilio-compatible /v2 routes are Twilio's protocol, not the native API (docs/TWILIO_COMPAT.md);
        // the console's HTML pages are for browsers (docs/OPERATIONS.md, "Console"), their JSON is here.
        return operations.filter { !$0.template.hasPrefix("/v2/") && !$0.template.hasPrefix("/console") }
    }

    static func callbackResponder() -> APIResponder {
        let t = TestService()
        // Every vendor's callback routes, with checks that refuse everything.
        let receipts = DeliveryReceipts(outbox: t.store, clock: t.clock)
        let twilio = TwilioCallbacks(publicURL: "http://issuer.test") { _, _, _ in false }
        let meta = MetaCallbacks(challenge: { _, _, _ in nil }, verify: { _, _ in false }, statuses: { _ in [] })
        let vonage = VonageCallbacks(
            receipts: { _ in false },
            channels: VonageChannelCallbacks(authenticate: { _, _, _ in false }, whatsAppStatus: { _ in nil }, callStatus: { _ in nil }))
        return APIResponder(
            APIDependencies(
                random: t.random, logger: Logger(handler: CapturingLogHandler(), minimumLevel: .debug),
                groups: [.webhooks([twilio.routes(receipts), meta.routes(receipts), vonage.routes(receipts)])]))
    }

    @Test func everyRouteIsDescribedAndEveryDescriptionIsRouted() throws {
        let described = try Self.specOperations(try Self.spec())
        let routed = Self.routerOperations()
        let undocumented = routed.subtracting(described).sorted()
        #expect(undocumented.isEmpty, "routes without a description in docs/openapi.json: \(undocumented)")
        // Announced routes are excused only while the router lacks them: once registered, they are in `routed`.
        let unrouted = described.subtracting(routed).subtracting(Self.pending).sorted()
        #expect(unrouted.isEmpty, "operations in docs/openapi.json that no route serves: \(unrouted)")
    }

    @Test func developmentRoutesExistOnlyInDevelopmentMode() throws {
        let production = APITestHarness(dev: false, adminKey: "admin-key-0123456789")
        let devRoutes = production.api.router.table.filter { $0.template.hasPrefix("/dev/") || $0.template == "/dev" }
        #expect(devRoutes.isEmpty)
        let paths = try #require(try Self.spec()["paths"] as? [String: Any])
        for (template, item) in paths where template.hasPrefix("/dev/") {
            let item = try #require(item as? [String: Any])
            for method in Self.methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                #expect((operation["tags"] as? [String])?.contains("development") == true, "\(method) \(template) is not tagged development")
                #expect((operation["description"] as? String)?.contains("Development mode only") == true, "\(method) \(template)")
            }
        }
    }

    @Test func embeddedDocumentIsDocsOpenAPIJSON() throws {
        let text = try Self.specText()
        let identical = OpenAPIDocument.json == text
        #expect(identical, "Sources/HTTP/API/Generated/OpenAPIDocument.swift differs from docs/openapi.json: run scripts/embed-openapi")
        let spec = try Self.spec()
        #expect(spec["openapi"] as? String == "3.1.0")
        #expect((spec["info"] as? [String: Any])?["title"] as? String == "PhoneVerify")
    }

    @Test func servedDocumentIsTheSpecOnceRouted() throws {
        let h = APITestHarness(adminKey: "admin-key-0123456789")
        guard h.api.router.table.contains(where: { $0.method == "GET" && $0.template == "/openapi.json" }) else { return }
        let reply = h.call("GET", "/openapi.json")
        #expect(reply.status == 200)
        #expect(reply.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(reply.json == (try JSONValue.parse(Array(try Self.specText().utf8))))
    }

    @Test func errorCodesAreTheErrorCodeEnum() throws {
        let spec = try Self.spec()
        let components = try #require(spec["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        let errorCode = try #require(schemas["ErrorCode"] as? [String: Any])
        let listed = try #require(errorCode["enum"] as? [String])
        #expect(listed.sorted() == ErrorCode.allCases.map(\.rawValue).sorted())
    }

    /// Each error response lists codes whose HTTP status (ErrorCode+HTTP.swift) is that response's status,
    /// and every response of every operation documents X-Request-Id.
    @Test func errorResponsesMatchTheStatusMapping() throws {
        let spec = try Self.spec()
        let components = try #require(spec["components"] as? [String: Any])
        let sharedResponses = try #require(components["responses"] as? [String: Any])
        let paths = try #require(spec["paths"] as? [String: Any])
        let byRawValue = Dictionary(uniqueKeysWithValues: ErrorCode.allCases.map { ($0.rawValue, $0) })
        var problems: [String] = []
        var seenStatuses: [String: Set<Int>] = [:]
        for (template, item) in paths {
            guard let item = item as? [String: Any] else { continue }
            for method in Self.methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                let name = "\(method.uppercased()) \(template)"
                guard let responses = operation["responses"] as? [String: Any] else {
                    problems.append("\(name): no responses")
                    continue
                }
                for (statusText, value) in responses {
                    guard let status = Int(statusText) else {
                        problems.append("\(name): response \(statusText) is not a status code")
                        continue
                    }
                    var response = value as? [String: Any] ?? [:]
                    if let reference = response["$ref"] as? String {
                        let key = String(reference.split(separator: "/").last ?? "")
                        response = sharedResponses[key] as? [String: Any] ?? [:]
                    }
                    if (response["headers"] as? [String: Any])?["X-Request-Id"] == nil {
                        problems.append("\(name) \(status): no X-Request-Id header")
                    }
                    for code in Self.errorCodes(in: response) {
                        guard let known = byRawValue[code] else {
                            problems.append("\(name) \(status): unknown error code \(code)")
                            continue
                        }
                        seenStatuses[code, default: []].insert(status)
                        if known.httpStatus != status {
                            problems.append("\(name) \(status): \(code) is answered with \(known.httpStatus)")
                        }
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.sorted())")
        // Every code a client can meet through the API's own handlers is documented on some operation.
        let reachable = Set(ErrorCode.allCases.map(\.rawValue)).subtracting(["method_not_allowed"])
        let undocumented = reachable.subtracting(seenStatuses.keys).sorted()
        #expect(undocumented.isEmpty, "error codes on no operation: \(undocumented)")
    }

    /// Every `{name}` of a template is a declared path parameter, and the reverse.
    @Test func pathParametersAreDeclared() throws {
        let paths = try #require(try Self.spec()["paths"] as? [String: Any])
        for (template, item) in paths {
            let item = try #require(item as? [String: Any])
            let names = Set(template.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }
                .map { String($0.dropFirst().dropLast()) })
            for method in Self.methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                let parameters = ((item["parameters"] as? [[String: Any]]) ?? []) + ((operation["parameters"] as? [[String: Any]]) ?? [])
                let declared = Set(parameters.filter { $0["in"] as? String == "path" }.compactMap { $0["name"] as? String })
                #expect(declared == names, "\(method.uppercased()) \(template): path parameters \(declared.sorted()) for \(names.sorted())")
            }
        }
    }

    /// The `code` enum of an error response (`allOf: [Error, {…code: {enum}}]`), empty for other responses.
    static func errorCodes(in response: [String: Any]) -> [String] {
        guard let content = response["content"] as? [String: Any],
            let json = content["application/json"] as? [String: Any],
            let schema = json["schema"] as? [String: Any],
            let parts = schema["allOf"] as? [[String: Any]]
        else { return [] }
        return parts.flatMap { part -> [String] in
            let error = (part["properties"] as? [String: Any])?["error"] as? [String: Any]
            let code = (error?["properties"] as? [String: Any])?["code"] as? [String: Any]
            return code?["enum"] as? [String] ?? []
        }
    }
}
