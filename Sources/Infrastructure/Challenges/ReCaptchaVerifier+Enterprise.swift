import CurlClient
import Foundation
import VerifyCore

/// reCAPTCHA Enterprise: `POST {base}/v1/projects/{project}/assessments?key={API key}` with
/// `{"event": {"token", "siteKey", "expectedAction", "userIpAddress"}}`, answered with an
/// assessment: `tokenProperties` (`valid`, `invalidReason`, `hostname`, `action`, `createTime`)
/// and `riskAnalysis.score`. Google writes JSON from protocol buffers, which leave out default
/// values: a missing `valid` is false and a missing score is 0.0.
extension ReCaptchaVerifier {
    func assess(token: String, projectID: String, apiKey: String, clientIP: String) throws -> VendorVerdict {
        let address = url + "/v1/projects/" + FormEncoding.percentEncode(projectID) + "/assessments?key="
            + FormEncoding.percentEncode(apiKey)
        var event: [JSONMember] = [JSONMember("token", .string(token)), JSONMember("siteKey", .string(siteKey))]
        if let action = rules.action { event.append(JSONMember("expectedAction", .string(action))) }
        if !clientIP.isEmpty { event.append(JSONMember("userIpAddress", .string(clientIP))) }
        let body = JSONValue.object([JSONMember("event", .object(event))]).encoded()
        let assessment = try call.send(.json(url: address, body: body), provider: provider)
        return try Self.verdict(assessment, provider: provider)
    }

    static func verdict(_ assessment: JSONValue, provider: String) throws -> VendorVerdict {
        guard let properties = assessment["tokenProperties"], properties.isObject else {
            throw ChallengeVendorError.unavailable(provider)
        }
        let valid = properties["valid"]?.boolValue ?? false
        return VendorVerdict(
            valid: valid,
            reasons: valid ? [] : [VendorVerdict.sanitised(properties["invalidReason"]?.stringValue ?? "INVALID_REASON_UNSPECIFIED")],
            hostname: properties["hostname"]?.stringValue,
            action: properties["action"]?.stringValue,
            score: assessment["riskAnalysis"]?["score"]?.numberValue ?? 0,
            challengeTime: try VendorVerdict.time(properties["createTime"], provider: provider))
    }
}
