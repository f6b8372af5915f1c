import CurlClient
import Foundation
import LibCrypto
import VerifyCore

/// The `play_integrity` provider: an Android app's integrity token, decoded by Google
/// (`POST {base}/v1/{packageName}:decodeIntegrityToken` with a service account's access token)
/// and judged by ``PlayIntegrityVerdict`` (docs/CHALLENGES.md).
///
/// The client sends `token` (the integrity token) and, when several packages are configured,
/// `package_name`. A malformed submission is refused before any call; Google's 400 (a token it
/// cannot decode) is a failed challenge; an unreachable Google, a refused service account, 429
/// and 5xx are `unavailable`.
public struct PlayIntegrityVerifier: ChallengeVerifier {
    /// Google's API root.
    public static let defaultBaseURL = "https://playintegrity.googleapis.com"
    /// Largest token accepted (Play Integrity tokens are encrypted JWS of a few KiB).
    public static let maxTokenBytes = 16 * 1024
    static let requestTimeoutSeconds = 5.0

    public var provider: String { PlayIntegrityVerdict.provider }
    public let publicParameters: [String: String]

    private let policy: PlayIntegrityPolicy
    private let baseURL: String
    private let tokens: GoogleAccessTokenSource
    private let http: HTTPClient

    /// - Parameters:
    ///   - baseURL: the API root without trailing slash (a fake in tests).
    ///   - cloudProjectNumber: published to clients for standard requests, when given.
    public init(
        policy: PlayIntegrityPolicy, tokens: GoogleAccessTokenSource, http: HTTPClient,
        baseURL: String = Self.defaultBaseURL, cloudProjectNumber: String? = nil
    ) {
        self.policy = policy
        self.tokens = tokens
        self.http = http
        self.baseURL = baseURL
        self.publicParameters = cloudProjectNumber.map { ["cloud_project_number": $0] } ?? [:]
    }

    public func verify(_ submission: ChallengeSubmission, context: ChallengeContext) throws -> ChallengeProof {
        let token = submission.token
        guard !token.isEmpty else { throw ChallengeVendorError.malformed("token", "is required") }
        guard token.utf8.count <= Self.maxTokenBytes else {
            throw ChallengeVendorError.malformed("token", "is longer than \(Self.maxTokenBytes) bytes")
        }
        guard token.utf8.allSatisfy(Self.isTokenByte) else {
            throw ChallengeVendorError.malformed("token", "is not an integrity token")
        }
        let packageName = try self.packageName(submission)

        let verdict = try PlayIntegrityVerdict(
            payload: decode(token, packageName: packageName), policy: policy, packageName: packageName,
            binding: context.binding, now: context.now)
        // The token is useless once too old: remember it until then (and a little beyond).
        let expiresAt = max(verdict.requestedAt, context.now).addingTimeInterval(TimeInterval(policy.maxAgeSeconds + policy.futureLeewaySeconds))
        return ChallengeProof(provider: provider, replayKey: Hex.encode(Digest.sha256(Array(token.utf8))), replayExpiresAt: expiresAt)
    }

    /// `challenge.package_name`, or the only configured package when absent.
    private func packageName(_ submission: ChallengeSubmission) throws -> String {
        guard let given = submission.fields["package_name"] else {
            guard policy.packageNames.count == 1, let only = policy.packageNames.first else {
                throw ChallengeVendorError.malformed("package_name", "is required (several apps are configured)")
            }
            return only
        }
        guard PlayIntegrityPolicy.isPackageName(given) else {
            throw ChallengeVendorError.malformed("package_name", "is not an Android package name")
        }
        guard policy.packageNames.contains(given) else {
            throw PlayIntegrityVerdict.failed("the token was requested by another app")
        }
        return given
    }

    /// Google's `tokenPayloadExternal` for `token`; asks once more with a new access token
    /// when Google refuses the cached one.
    private func decode(_ token: String, packageName: String) throws -> JSONValue {
        let body = JSONValue.object([JSONMember("integrity_token", .string(token))]).encoded()
        let url = baseURL + "/v1/" + packageName + ":decodeIntegrityToken"
        for attempt in 0..<2 {
            let accessToken: String
            do { accessToken = try tokens.token() } catch { throw ChallengeVendorError.unavailable(provider) }
            var request = HTTPClientRequest.json(
                url: url, body: body,
                headers: [(name: "Authorization", value: "Bearer " + accessToken), (name: "Accept", value: "application/json")])
            request.timeoutSeconds = Self.requestTimeoutSeconds
            guard let response = try? http.send(request) else { throw ChallengeVendorError.unavailable(provider) }
            switch response.status {
            case 200..<300:
                guard let document = try? JSONValue.parse(response.body), let payload = document["tokenPayloadExternal"],
                    payload.isObject
                else { throw ChallengeVendorError.unavailable(provider) }
                return payload
            case 401 where attempt == 0:
                tokens.invalidate()
                continue
            case 400:
                // INVALID_ARGUMENT: not a token Google can decode for this app.
                throw PlayIntegrityVerdict.failed("the token cannot be decoded")
            case 401, 403, 404, 429, 500...:
                // Our credentials, our project's quota or Google itself: not the client's fault.
                if response.status == 401 || response.status == 403 { tokens.invalidate() }
                throw ChallengeVendorError.unavailable(provider)
            default:
                throw PlayIntegrityVerdict.failed("the token cannot be decoded")
            }
        }
        throw ChallengeVendorError.unavailable(provider)
    }

    /// base64url, `.` (compact JWS/JWE) and `=`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "=")
    }
}
