import Foundation
import LibCrypto
import VerifyCore

/// A Google service account's key file (the JSON the Cloud console downloads): who signs
/// (`client_email`), with which key (`private_key`, an RSA PEM) and where the signed assertion is
/// exchanged for an access token (`token_uri`). Read once at start-up; the key never leaves this
/// value and is never printed.
public struct GoogleServiceAccount: Sendable {
    /// Google's token endpoint, used when the file names none.
    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"
    /// Key files are about 2.3 KiB; anything far larger is not one.
    static let maxFileBytes = 64 * 1024

    public let clientEmail: String
    public let tokenURI: String
    /// `private_key_id`, sent as the assertion's `kid` when present.
    let keyID: String?
    let key: SigningKey

    /// Parses a key file's contents.
    /// - Throws: ``ChallengeConfigurationError`` naming the member that is missing or unusable.
    public init(json bytes: [UInt8]) throws {
        guard bytes.count <= Self.maxFileBytes, let document = try? JSONValue.parse(bytes), document.isObject else {
            throw ChallengeConfigurationError("is not a service-account JSON document")
        }
        if let type = document["type"]?.stringValue, type != "service_account" {
            throw ChallengeConfigurationError("is not a service-account key file (type \"\(type.prefix(32))\")")
        }
        guard let email = document["client_email"]?.stringValue, !email.isEmpty, email.utf8.count <= 512 else {
            throw ChallengeConfigurationError("has no client_email")
        }
        guard let pem = document["private_key"]?.stringValue, !pem.isEmpty else {
            throw ChallengeConfigurationError("has no private_key")
        }
        guard let key = try? SigningKey(pem: pem), key.algorithm == .rs256 else {
            throw ChallengeConfigurationError("has a private_key that is not an unencrypted RSA PEM key of 2048 bits or more")
        }
        let tokenURI = document["token_uri"]?.stringValue ?? Self.defaultTokenURI
        guard tokenURI.hasPrefix("https://") || tokenURI.hasPrefix("http://"), URL(string: tokenURI)?.host != nil else {
            throw ChallengeConfigurationError("has a token_uri that is not an http(s) URL")
        }
        self.clientEmail = email
        self.tokenURI = tokenURI
        self.keyID = document["private_key_id"]?.stringValue.flatMap { $0.isEmpty || $0.utf8.count > 256 ? nil : $0 }
        self.key = key
    }

    /// Reads and parses the key file at `path`.
    /// - Throws: ``ChallengeConfigurationError`` when it cannot be read or parsed.
    public init(file path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ChallengeConfigurationError("cannot be read")
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: Self.maxFileBytes + 1) else {
            throw ChallengeConfigurationError("cannot be read")
        }
        try self.init(json: [UInt8](data))
    }
}

/// A provider's settings that cannot work, found at start-up; `description` follows the
/// setting's name ("PHONE_VERIFY_PLAY_INTEGRITY_SERVICE_ACCOUNT_FILE has no client_email").
public struct ChallengeConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
