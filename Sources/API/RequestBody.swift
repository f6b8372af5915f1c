import HTTPTypes
import VerifyCore

/// A decoded JSON request body with typed, validated field access. Every problem is a 4xx
/// `VerifyError` naming the field.
public struct RequestBody: Sendable {
    public let json: JSONValue

    /// Decodes the body of `request`: 415 for a non-JSON content type, 400 for malformed JSON or a
    /// non-object. An empty body is an empty object when `allowEmpty`.
    public init(_ request: HTTPRequest, allowEmpty: Bool = false) throws {
        if request.body.isEmpty {
            guard allowEmpty else {
                throw VerifyError(.invalidRequest, "the request body must be a JSON object")
            }
            json = .object([])
            return
        }
        guard let contentType = request.headers["Content-Type"], Self.isJSON(contentType) else {
            throw VerifyError(
                .unsupportedMediaType, "Content-Type must be application/json",
                details: ["content_type": .optional(request.headers["Content-Type"])])
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(request.body)
        } catch {
            throw VerifyError(.invalidRequest, "the request body is not valid JSON")
        }
        guard parsed.isObject else { throw VerifyError(.invalidRequest, "the request body must be a JSON object") }
        json = parsed
    }

    static func isJSON(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        return media == "application/json"
    }

    /// A required string field, trimmed, non-empty, at most `maxLength` characters.
    public func string(_ field: String, maxLength: Int = 256) throws -> String {
        guard let value = try optionalString(field, maxLength: maxLength) else {
            throw VerifyError(.invalidRequest, "\(field) is required", details: ["field": .string(field)])
        }
        return value
    }

    /// An optional string field; null and absent are the same.
    public func optionalString(_ field: String, maxLength: Int = 256) throws -> String? {
        guard let value = json[field], value != .null else { return nil }
        guard case .string(let text) = value else {
            throw VerifyError(
                .invalidRequest, "\(field) must be a string, not \(value.typeName)", details: ["field": .string(field)])
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw VerifyError(.invalidRequest, "\(field) must not be empty", details: ["field": .string(field)])
        }
        guard trimmed.count <= maxLength else {
            throw VerifyError(
                .invalidRequest, "\(field) is longer than \(maxLength) characters", details: ["field": .string(field)])
        }
        return trimmed
    }
}

import Foundation
