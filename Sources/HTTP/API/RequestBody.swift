import HTTPMessages
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
        // Fast path on bytes for ASCII media types (all real ones); Foundation's Unicode trimming
        // and lowercasing only when the media type has other characters.
        var media = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        while let first = media.first, first == 0x20 || first == 0x09 { media.removeFirst() }
        while let last = media.last, last == 0x20 || last == 0x09 { media.removeLast() }
        if media.allSatisfy({ $0 < 0x80 }) {
            let lowercase: (UInt8) -> UInt8 = { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
            return media.lazy.map(lowercase).elementsEqual("application/json".utf8)
        }
        let slow = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        return slow == "application/json"
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
        let trimmed = Self.trimmingWhitespace(text)
        guard !trimmed.isEmpty else {
            throw VerifyError(.invalidRequest, "\(field) must not be empty", details: ["field": .string(field)])
        }
        // A string has at most as many characters as UTF-8 bytes: count characters only when needed.
        guard trimmed.utf8.count <= maxLength || trimmed.count <= maxLength else {
            throw VerifyError(
                .invalidRequest, "\(field) is longer than \(maxLength) characters", details: ["field": .string(field)])
        }
        return trimmed
    }

    /// `text` without leading and trailing whitespace and newlines. Values that start and end
    /// with a visible ASCII character (nearly all) come back as they are, without Foundation's
    /// Unicode scan.
    static func trimmingWhitespace(_ text: String) -> String {
        let isVisibleASCII: (UInt8) -> Bool = { $0 > 0x20 && $0 < 0x7F }
        if let first = text.utf8.first, let last = text.utf8.last, isVisibleASCII(first), isVisibleASCII(last) {
            return text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

import Foundation
