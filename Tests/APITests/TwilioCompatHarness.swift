import API
import TwilioCompatAPI
import Foundation
import HTTPMessages
import Telemetry
import VerifyCore
import VerifyTesting

/// The Twilio Verify v2-compatible API in-process, on fakes with a manual clock.
struct TwilioCompatHarness {
    static let account = "AC" + String(repeating: "ab", count: 16)
    static let token = "token-0123456789abcdef"
    static let other = "AC" + String(repeating: "cd", count: 16)
    static let otherToken = "other-0123456789abcdef"

    let t: TestService
    let api: APIResponder
    let logs = CapturingLogHandler()

    /// `compat: false`: credentials unset (endpoints off); `store: false`: a store without the records (501);
    /// `compatStore`: another store for the compatible API's records; `customCodeAccounts`: the
    /// accounts the operator allows custom codes (by default `account`, not `other`); `policy`:
    /// the server's (its `channels` say which `Channel`s are enabled).
    init(
        compat: Bool = true, store: Bool = true, protection: AbuseProtection = .off, compatStore: (any TwilioCompatStore)? = nil,
        customCodeAccounts: Set<String> = [account], policy: VerificationPolicy = VerificationPolicy(), throttle: Bool = false
    ) {
        t = TestService(policy: policy, protection: protection)
        let logger = Logger(handler: logs, minimumLevel: .debug)
        var groups: [RouteGroup] = [
            .verifications(t.service, clock: t.clock), .discovery(keys: FakeSigner(), issuer: "http://issuer.test", introspection: false),
            .health(readiness: {}, gatewayReadiness: {}, keys: APIKeyring(), reasonsNeedKey: false), .openAPI(),
        ]
        if compat {
            let credentials = try! TwilioCompatCredentials(parsing: "\(Self.account):\(Self.token),\(Self.other):\(Self.otherToken)")
            let compat = TwilioCompatDependencies(
                credentials: credentials,
                service: store
                    ? TwilioCompatService(verifications: t.service, store: compatStore ?? t.store, customCodeAccounts: customCodeAccounts)
                    : nil,
                baseURL: "https://verify.example.com/")
            let guesses = throttle ? AuthThrottle(store: t.store, clock: t.clock) : nil
            groups.append(TwilioCompatFeature(compat, logger: logger, throttle: guesses).group)
        }
        api = APIResponder(APIDependencies(random: t.random, logger: logger, groups: groups))
    }

    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let json: JSONValue
        var code: Int64? { json["code"]?.intValue }
        subscript(_ key: String) -> JSONValue? { json[key] }
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    @discardableResult
    func call(
        _ method: String, _ path: String, form: [(String, String)]? = nil, query: [String: String] = [:],
        auth: String? = basic(account, token), contentType: String = "application/x-www-form-urlencoded", peer: String = "10.0.0.1"
    ) -> Reply {
        var headers = HTTPHeaders()
        if let auth { headers.set("Authorization", auth) }
        var body: [UInt8] = []
        if let form {
            headers.set("Content-Type", contentType)
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            body = Array(form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&").utf8)
        }
        let response = api.respond(to: HTTPRequest(method: method, path: path, query: query, headers: headers, body: body, remoteAddress: peer))
        let bytes = response.bodyBytes
        return Reply(status: response.status, headers: response.headers, json: bytes.isEmpty ? .null : ((try? JSONValue.parse(bytes)) ?? .null))
    }

    func createService(_ form: [(String, String)] = [("FriendlyName", "Acme")]) -> String {
        let reply = call("POST", "/v2/Services", form: form)
        precondition(reply.status == 201, "\(reply.json)")
        return reply["sid"]!.stringValue!
    }

    func send(_ service: String, to: String = "+15555550123", channel: String = "sms", extra: [(String, String)] = []) -> Reply {
        call("POST", "/v2/Services/\(service)/Verifications", form: [("To", to), ("Channel", channel)] + extra)
    }

    /// A native `/v1` call with a JSON body (no Twilio credentials).
    @discardableResult
    func native(_ method: String, _ path: String, json: String? = nil) -> Reply {
        var headers = HTTPHeaders()
        if json != nil { headers.set("Content-Type", "application/json") }
        let response = api.respond(to: HTTPRequest(
            method: method, path: path, query: [:], headers: headers, body: Array((json ?? "").utf8), remoteAddress: "10.0.0.2"))
        let bytes = response.bodyBytes
        return Reply(status: response.status, headers: response.headers, json: bytes.isEmpty ? .null : ((try? JSONValue.parse(bytes)) ?? .null))
    }

    func code(_ sid: String) throws -> String { try t.lastCode(for: "ver_" + sid.dropFirst(2)) }
}
