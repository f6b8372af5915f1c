import Foundation
import LibCrypto

/// What a Play Integrity verdict must show to pass (docs/CHALLENGES.md, "play_integrity").
public struct PlayIntegrityPolicy: Sendable, Equatable {
    /// Device labels from weakest to strongest; requiring one accepts the stronger ones too.
    public static let deviceLabels = ["MEETS_BASIC_INTEGRITY", "MEETS_DEVICE_INTEGRITY", "MEETS_STRONG_INTEGRITY"]
    /// Emulators run by Google Play Games for PC: accepted only when required by name.
    public static let virtualLabel = "MEETS_VIRTUAL_INTEGRITY"
    /// App verdicts that can be accepted (UNEVALUATED never is: it carries no certificate).
    public static let appVerdicts = ["PLAY_RECOGNIZED", "UNRECOGNIZED_VERSION"]

    /// Android package names (`com.example.app`) whose tokens are accepted.
    public var packageNames: [String]
    /// SHA-256 digests of the accepted app signing certificates.
    public var certificateDigests: [[UInt8]]
    /// Accepted `appIntegrity.appRecognitionVerdict` values.
    public var appVerdicts: [String]
    /// The `deviceIntegrity.deviceRecognitionVerdict` label required (or a stronger one).
    public var deviceVerdict: String
    /// Oldest `requestDetails.timestampMillis` accepted, in seconds.
    public var maxAgeSeconds: Int
    /// Clock skew tolerated for a timestamp in the future, in seconds.
    public var futureLeewaySeconds = 30

    public init(
        packageNames: [String], certificateDigests: [[UInt8]], appVerdicts: [String] = ["PLAY_RECOGNIZED"],
        deviceVerdict: String = "MEETS_DEVICE_INTEGRITY", maxAgeSeconds: Int = 120
    ) {
        self.packageNames = packageNames
        self.certificateDigests = certificateDigests
        self.appVerdicts = appVerdicts
        self.deviceVerdict = deviceVerdict
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// The labels that satisfy `deviceVerdict`.
    var acceptedDeviceLabels: Set<String> {
        guard let index = Self.deviceLabels.firstIndex(of: deviceVerdict) else { return [deviceVerdict] }
        return Set(Self.deviceLabels[index...])
    }

    /// The request hash (standard requests) or nonce (classic requests) the app must send for
    /// `binding`: base64url without padding of SHA-256 of its UTF-8 bytes (43 characters).
    public static func requestHash(for binding: String) -> String {
        Base64URL.encode(Digest.sha256(Array(binding.utf8)))
    }

    /// Whether `name` can be an Android package name (letters, digits, `_`, `.`); it goes into
    /// the decode URL's path, so nothing else is let through.
    public static func isPackageName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && name.contains(".") && !name.hasPrefix(".") && !name.hasSuffix(".")
            && name.utf8.allSatisfy { ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    /// A certificate digest as the Play Console shows it (hex, with or without colons) or as the
    /// verdict carries it (base64url); nil unless it is 32 bytes.
    public static func certificateDigest(_ text: String) -> [UInt8]? {
        let hex = text.filter { $0 != ":" }
        if hex.count == 64, hex.utf8.allSatisfy(ASCII.isHexDigit) {
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
                bytes.append(byte)
                index = next
            }
            return bytes
        }
        var unpadded = Substring(text)
        while unpadded.hasSuffix("=") { unpadded = unpadded.dropLast() }
        let urlSafe = unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        guard let bytes = Base64URL.decode(urlSafe), bytes.count == 32 else { return nil }
        return bytes
    }
}
