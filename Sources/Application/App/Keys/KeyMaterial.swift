import LibCrypto
import Foundation

/// Loads the signing key and the code secret, generating them once in development mode and
/// keeping them in the data directory (mode 0600) so restarts keep credentials and codes valid.
enum KeyMaterial {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func signingKey(_ configuration: Configuration) throws -> SigningKey {
        if let file = configuration.signingKeyFile {
            guard let pem = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw Failure(description: "\(Settings.signingKeyFile.name) \(file) cannot be read")
            }
            do { return try SigningKey(pem: pem) } catch {
                throw Failure(description: "\(Settings.signingKeyFile.name) \(file) is not a supported PEM private key")
            }
        }
        let path = configuration.dataDirectory + "/signing-key.pem"
        if let pem = try? String(contentsOfFile: path, encoding: .utf8) {
            return try SigningKey(pem: pem)
        }
        let algorithm = SigningAlgorithm(rawValue: configuration.signingAlgorithm) ?? .es256
        let key = try SigningKey.generate(algorithm)
        try writeSecretFile(path, contents: try key.privateKeyPEM())
        return key
    }

    static func codeSecret(_ configuration: Configuration) throws -> [UInt8] {
        if let secret = configuration.codeSecret { return Array(secret.utf8) }
        let path = configuration.dataDirectory + "/code-secret"
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.utf8.count >= 32 { return Array(trimmed.utf8) }
        }
        let secret = Hex.encode(SecureRandom.bytes(32))
        try writeSecretFile(path, contents: secret + "\n")
        return Array(secret.utf8)
    }

    /// Writes a file readable by the owner only, creating the directory if needed.
    static func writeSecretFile(_ path: String, contents: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temp = path + ".tmp"
        guard FileManager.default.createFile(atPath: temp, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw Failure(description: "cannot write \(temp)")
        }
        _ = try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: temp, toPath: path)
    }
}

import SettingsTable
import VerifyCore
