import Foundation
import VerifyCore

/// A decoded Play Integrity verdict (`tokenPayloadExternal`) judged against a policy and the
/// request it must be bound to. Every member is read defensively: Google's answer is trusted
/// for what it says, not for its shape.
struct PlayIntegrityVerdict {
    static let provider = "play_integrity"

    let payload: JSONValue

    /// When the app asked for the token (`requestDetails.timestampMillis`).
    let requestedAt: Date

    /// Checks, in order: package, request binding, freshness, app, certificate, device.
    /// - Throws: `challenge_failed` naming the first check that does not pass.
    init(payload: JSONValue, policy: PlayIntegrityPolicy, packageName: String, binding: String, now: Date) throws {
        guard payload.isObject, let request = payload["requestDetails"], request.isObject else {
            throw Self.failed("the verdict has no request details")
        }
        guard let requested = request["requestPackageName"]?.stringValue, requested == packageName,
            policy.packageNames.contains(requested)
        else { throw Self.failed("the token was requested by another app") }

        let expected = PlayIntegrityPolicy.requestHash(for: binding)
        if let hash = request["requestHash"] {
            guard hash.stringValue.map(Self.unpadded) == expected else { throw Self.failed("the token is bound to another request") }
        } else if let nonce = request["nonce"] {
            guard nonce.stringValue.map(Self.unpadded) == expected else { throw Self.failed("the token is bound to another request") }
        } else {
            throw Self.failed("the token is bound to no request")
        }

        guard let millis = Self.milliseconds(request["timestampMillis"]) else { throw Self.failed("the verdict has no timestamp") }
        let requestedAt = Date(timeIntervalSince1970: Double(millis) / 1000)
        let age = now.timeIntervalSince(requestedAt)
        guard age <= TimeInterval(policy.maxAgeSeconds) else { throw Self.failed("the token is too old") }
        guard age >= -TimeInterval(policy.futureLeewaySeconds) else { throw Self.failed("the token is dated in the future") }

        let app = payload["appIntegrity"]
        guard let verdict = app?["appRecognitionVerdict"]?.stringValue, policy.appVerdicts.contains(verdict) else {
            throw Self.failed("the app is not recognised by Google Play")
        }
        if let appPackage = app?["packageName"]?.stringValue, appPackage != packageName {
            throw Self.failed("the token was requested by another app")
        }
        let digests = (app?["certificateSha256Digest"]?.arrayValue ?? []).compactMap {
            $0.stringValue.flatMap(PlayIntegrityPolicy.certificateDigest)
        }
        guard digests.contains(where: policy.certificateDigests.contains) else {
            throw Self.failed("the app is not signed with an accepted certificate")
        }

        let labels = Set((payload["deviceIntegrity"]?["deviceRecognitionVerdict"]?.arrayValue ?? []).compactMap(\.stringValue))
        guard !labels.isDisjoint(with: policy.acceptedDeviceLabels) else {
            throw Self.failed("the device does not meet the required integrity")
        }
        self.payload = payload
        self.requestedAt = requestedAt
    }

    static func failed(_ reason: String) -> VerifyError { ChallengeVendorError.failed(provider, reason) }

    /// Base64url values compared without padding (classic nonces may carry it).
    private static func unpadded(_ text: String) -> String {
        var text = Substring(text)
        while text.hasSuffix("=") { text = text.dropLast() }
        return String(text)
    }

    /// An int64 in proto3 JSON: a decimal string, or a number.
    private static func milliseconds(_ value: JSONValue?) -> Int64? {
        switch value {
        case .string(let text)?: return Int64(text)
        case .int(let number)?: return number
        case .double(let number)? where number.isFinite && abs(number) < 1e15: return Int64(number)
        default: return nil
        }
    }
}
