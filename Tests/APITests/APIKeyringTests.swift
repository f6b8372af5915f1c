import API
import HTTPMessages
import Testing
import VerifyCore

/// Scoped API keys: which key reaches which route, and how a refusal reads.
@Suite struct APIKeyringTests {
    static let admin = "admin-key-0123456789abcdef"
    static let introspection = "introspection-key-012345"
    static let factors = "factors-key-0123456789abc"

    func request(_ key: String?) -> HTTPRequest {
        HTTPRequest(method: "GET", path: "/", headers: HTTPHeaders(key.map { [("Authorization", "Bearer " + $0)] } ?? []))
    }

    func code(_ body: () throws -> Void) -> ErrorCode? {
        do { try body() } catch let error as VerifyError { return error.code } catch {}
        return nil
    }

    @Test func parsesScopesJoinedByPlus() throws {
        let parsed = try APIKeyring.parseScoped(" metrics=KEY1-0123456789abcdef , factors+lockouts=KEY2-0123456789ab==")
        #expect(parsed.count == 2)
        #expect(parsed[0].scopes == [.metrics] && parsed[0].key == "KEY1-0123456789abcdef")
        #expect(parsed[1].scopes == [.factors, .lockouts] && parsed[1].key == "KEY2-0123456789ab==")
    }

    @Test(arguments: ["root=0123456789abcdef0", "metrics=short", "0123456789abcdef0", "metrics+=0123456789abcdef0"])
    func refusesBadEntriesWithoutQuotingTheKey(_ text: String) {
        #expect(throws: APIKeyring.SyntaxError.self) { try APIKeyring.parseScoped(text) }
        let message = (try? APIKeyring.parseScoped(text)).map { _ in "" } ?? {
            do { _ = try APIKeyring.parseScoped(text) } catch { return "\(error)" }
            return ""
        }()
        #expect(!message.contains("0123456789abcdef0") && !message.contains("short"))
    }

    @Test func aValidKeyOutsideItsScopeIs403AndAnUnknownKey401() throws {
        let keys = APIKeyring(
            admin: [Self.admin], introspection: [Self.introspection], scoped: [([.factors, .lockouts], Self.factors)])
        #expect(code { try keys.require(request(Self.introspection), .introspect) } == nil)
        #expect(code { try keys.require(request(Self.introspection), .fraud, .read) } == .forbidden)
        #expect(code { try keys.require(request(Self.factors), .lockouts) } == nil)
        #expect(code { try keys.require(request(Self.factors), .metrics) } == .forbidden)
        for scope in APIScope.allCases { #expect(code { try keys.require(request(Self.admin), scope) } == nil) }
        #expect(code { try keys.require(request(nil), .introspect) } == .unauthenticated)
        #expect(code { try keys.require(request("unknown-key-0123456789"), .introspect) } == .unauthenticated)
        #expect(code { try keys.require(request(Self.admin + "x"), .introspect) } == .unauthenticated)
        #expect(keys.hasKey(for: .lockouts) && !APIKeyring(introspection: [Self.introspection]).hasKey(for: .metrics))
    }

    /// The same key in two lists has both lists' scopes.
    @Test func aKeyListedTwiceHasTheUnionOfItsScopes() {
        let keys = APIKeyring(introspection: [Self.factors], scoped: [([.factors], Self.factors)])
        #expect(keys.scopes(of: Self.factors) == [.introspect, .factors])
    }

    @Test func the403NamesTheScopesItNeeds() {
        let h = APITestHarness(apiKeys: APIKeyring(introspection: [Self.introspection]))
        let refused = h.call("GET", "/v1/admin/fraud", headers: [("Authorization", "Bearer " + Self.introspection)])
        #expect(refused.status == 403 && refused.errorCode == "forbidden")
        #expect(refused.json["error"]?["details"]?["required_scopes"] == ["fraud", "read"])
        #expect(refused.headers["WWW-Authenticate"] == #"Bearer error="insufficient_scope", scope="fraud read""#)
        let unknown = h.call("GET", "/v1/admin/fraud", headers: [("Authorization", "Bearer " + Self.admin)])
        #expect(unknown.status == 401 && unknown.headers["WWW-Authenticate"] == #"Bearer error="invalid_token""#)
        let none = h.call("GET", "/v1/admin/fraud")
        #expect(none.status == 401 && none.headers["WWW-Authenticate"] == "Bearer")
    }
}
