import Foundation
import Testing
@testable import PhoneVerifyClient

/// docs/openapi.json, parsed: schemas resolved through `$ref`, `allOf` and `oneOf`.
struct OpenAPIDocument {
    let root: [String: Any]

    static func load() throws -> OpenAPIDocument {
        // Tests/PhoneVerifyClientTests/<this file> → the package root
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("docs/openapi.json"))
        return OpenAPIDocument(root: try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
    }

    func schema(_ name: String) -> [String: Any]? {
        ((root["components"] as? [String: Any])?["schemas"] as? [String: Any])?[name] as? [String: Any]
    }

    func resolve(_ node: [String: Any]) -> [String: Any] {
        guard let ref = node["$ref"] as? String else { return node }
        var current: Any = root
        for part in ref.dropFirst(2).split(separator: "/") { current = (current as? [String: Any])?[String(part)] as Any }
        return resolve(current as? [String: Any] ?? [:])
    }

    /// The object schemas a value may have (the branches of `allOf` / `oneOf` / `anyOf`, resolved).
    func branches(_ node: [String: Any]) -> [[String: Any]] {
        let node = resolve(node)
        var all = [node]
        for key in ["allOf", "oneOf", "anyOf"] {
            for branch in node[key] as? [[String: Any]] ?? [] { all += branches(branch) }
        }
        return all
    }

    /// The schema of a member, following a dotted path (`credential.token`, `factors[].id`).
    func member(_ path: String, of node: [String: Any]) -> [String: Any]? {
        var current = [node]
        for part in path.split(separator: ".").map(String.init) {
            let name = part.hasSuffix("[]") ? String(part.dropLast(2)) : part
            var found: [[String: Any]] = []
            for schema in current.flatMap(branches) {
                if let property = (schema["properties"] as? [String: Any])?[name] as? [String: Any] {
                    if part.hasSuffix("[]") {
                        found += branches(property).compactMap { $0["items"] as? [String: Any] }
                    } else {
                        found.append(property)
                    }
                }
            }
            guard !found.isEmpty else { return nil }
            current = found
        }
        return current.first
    }

    func operation(_ method: String, _ path: String) -> [String: Any]? {
        ((root["paths"] as? [String: Any])?[path] as? [String: Any])?[method.lowercased()] as? [String: Any]
    }

    func responseSchema(_ operation: [String: Any], status: Int) -> [String: Any]? {
        guard let response = (operation["responses"] as? [String: Any])?[String(status)] as? [String: Any] else { return nil }
        let resolved = resolve(response)
        return (((resolved["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any])
    }
}

/// The client and docs/openapi.json agree: every operation the client calls (Endpoint.all, the
/// data the client builds its requests from) exists with its success status, and every member
/// the client decodes is in that answer's schema.
@Suite struct OpenAPIAgreementTests {
    @Test(arguments: Endpoint.all) func theOperationAndEveryDecodedFieldExist(_ endpoint: Endpoint) throws {
        let document = try OpenAPIDocument.load()
        let operation = try #require(document.operation(endpoint.method, endpoint.template), "\(endpoint.method) \(endpoint.template)")
        let schema = try #require(
            document.responseSchema(operation, status: endpoint.successStatus),
            "\(endpoint.method) \(endpoint.template) has no \(endpoint.successStatus) JSON answer")
        #expect(!endpoint.decodedFields.isEmpty)
        for field in endpoint.decodedFields {
            #expect(document.member(field, of: schema) != nil, "\(endpoint.method) \(endpoint.template): \(field) is not in the answer's schema")
        }
        if endpoint.keyed {
            let parameters = try #require(operation["parameters"] as? [[String: Any]], "\(endpoint.template) documents no Idempotency-Key")
            #expect(parameters.map(document.resolve).contains { $0["name"] as? String == "Idempotency-Key" && $0["in"] as? String == "header" })
        }
    }

    @Test func theRequiredMembersOfEveryModelAreDecoded() throws {
        // A required member the document adds later must be decided on here: decoded, or listed.
        let document = try OpenAPIDocument.load()
        let notDecoded: [String: Set<String>] = ["MFAChallenge": ["purpose"]]
        let models: [(String, Endpoint)] = [
            ("Verification", .start), ("VerificationDetail", .status), ("MFAEnrollment", .enroll), ("MFAChallenge", .challenge),
            ("FactorList", .factors), ("ApprovedVerification", .check), ("MFAApproved", .verify),
        ]
        for (name, endpoint) in models {
            let schema = try #require(document.schema(name))
            for member in schema["required"] as? [String] ?? [] where !(notDecoded[name]?.contains(member) ?? false) {
                #expect(endpoint.decodedFields.contains { $0 == member || $0.hasPrefix(member + ".") || $0.hasPrefix(member + "[].") }, "\(name).\(member)")
            }
        }
    }

    @Test func theErrorEnvelopeAndTheDetailsTheClientReadsAreDocumented() throws {
        let document = try OpenAPIDocument.load()
        let error = try #require(document.schema("Error"))
        for field in Endpoint.errorFields { #expect(document.member(field, of: error) != nil, "\(field)") }
        let codes = Set(try #require(document.schema("ErrorCode")?["enum"] as? [String]))
        for (code, members) in PhoneVerifyError.decodedDetails {
            #expect(codes.contains(code), "\(code) is not an ErrorCode")
            for member in members {
                switch member {
                // docs/openapi.json describes these two in ChallengeProviders and Challenge, not
                // in ErrorDetails (which allows additional members).
                case "providers":
                    let items = try #require(document.schema("ChallengeProviders")?["items"] as? [String: Any])
                    #expect((items["required"] as? [String]) == ["name"])
                case "provider":
                    #expect(document.member("provider", of: try #require(document.schema("Challenge"))) != nil)
                default:
                    #expect(document.member("error.details.\(member)", of: error) != nil, "\(code): details.\(member)")
                }
            }
        }
    }

    @Test func theChallengeMemberTheClientSendsIsDocumented() throws {
        let document = try OpenAPIDocument.load()
        let request = try #require(document.schema("StartVerificationRequest"))
        for field in ["phone_number", "default_region", "locale", "channel", "challenge.provider", "challenge.token", "challenge.key_id",
            "challenge.client_data", "challenge.package_name"]
        {
            #expect(document.member(field, of: request) != nil, "\(field)")
        }
    }
}

extension Endpoint: CustomTestStringConvertible {
    public var testDescription: String { "\(method) \(template)" }
}
