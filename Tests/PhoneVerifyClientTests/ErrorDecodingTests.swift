import Foundation
import Testing
@testable import PhoneVerifyClient

/// Every error code of docs/ERRORS.md decodes into its case, with its details and Retry-After.
@Suite struct ErrorDecodingTests {
    static let cases: [(status: Int, code: String, details: String, retryAfter: String?, expected: PhoneVerifyError)] = [
        (400, "invalid_request", #"{"field": "code"}"#, nil, .invalidRequest(field: "code", message: "m")),
        (400, "invalid_phone_number", #"{"reason": "too_short"}"#, nil, .invalidPhoneNumber(reason: "too_short")),
        (422, "unsupported_line_type", #"{"line_type": "voip"}"#, nil, .unsupportedLineType(lineType: "voip")),
        (403, "region_not_allowed", #"{"region": "KP"}"#, nil, .regionNotAllowed(region: "KP")),
        (
            422, "channel_not_enabled", #"{"channel": "call", "allowed": ["sms", "whatsapp"]}"#, nil,
            .channelNotEnabled(channel: "call", allowed: ["sms", "whatsapp"])
        ),
        (429, "rate_limited", #"{"scope": "phone", "limit": "5/1h"}"#, "120", .rateLimited(scope: "phone", retryAfter: 120)),
        (429, "suspected_fraud", #"{"scope": "prefix", "key": "+88216", "reason": "r"}"#, "600", .suspectedFraud(retryAfter: 600)),
        (
            403, "challenge_required", #"{"providers": [{"name": "turnstile", "site_key": "0x4AAA"}, {"name": "grant"}]}"#, nil,
            .challengeRequired(providers: [.init(name: "turnstile", parameters: ["site_key": "0x4AAA"]), .init(name: "grant")])
        ),
        (403, "challenge_failed", #"{"provider": "turnstile"}"#, nil, .challengeFailed(provider: "turnstile")),
        (401, "unauthenticated", "{}", nil, .unauthenticated(message: "m")),
        (403, "step_up_required", #"{"acr_values": "aal2", "max_age": 600}"#, nil, .stepUpRequired(maxAge: 600, acrValues: "aal2")),
        (409, "factor_exists", "{}", nil, .factorExists),
        (409, "factor_limit_reached", #"{"max_factors": 10}"#, nil, .factorLimitReached(maxFactors: 10)),
        (403, "forbidden", "{}", nil, .forbidden(message: "m")),
        (422, "incorrect_code", #"{"attempts_remaining": 3}"#, nil, .incorrectCode(attemptsRemaining: 3)),
        (429, "max_attempts_reached", "{}", "200", .maxAttemptsReached),
        (
            429, "resend_too_soon", #"{"resend_available_at": "2026-11-30T12:00:30Z"}"#, "25",
            .resendTooSoon(availableAt: Date(timeIntervalSince1970: 1_796_040_030), retryAfter: 25)
        ),
        (429, "max_sends_reached", #"{"max_sends": 5}"#, "100", .maxSendsReached(maxSends: 5)),
        (410, "expired", "{}", nil, .expired),
        (409, "already_used", "{}", nil, .alreadyUsed),
        (404, "not_found", "{}", nil, .notFound),
        (422, "idempotency_key_reused", "{}", nil, .idempotencyKeyReused),
        (503, "unavailable", "{}", "60", .unavailable(retryAfter: 60)),
        (500, "internal_error", "{}", nil, .server(status: 500, code: "internal_error", message: "m")),
        (413, "payload_too_large", "{}", nil, .server(status: 413, code: "payload_too_large", message: "m")),
        (418, "a_future_code", "{}", nil, .server(status: 418, code: "a_future_code", message: "m")),
    ]

    @Test(arguments: cases.indices) func decodesTheEnvelope(_ index: Int) async throws {
        let c = Self.cases[index]
        let stub = StubServer([.json(c.status, Canned.error(c.code, c.details), headers: c.retryAfter.map { ["Retry-After": $0] } ?? [:])])
        let client = stub.client(.init(maxAttempts: 1))
        await #expect(throws: c.expected) { try await client.check(verificationID: "ver_1", code: "123456") }
        #expect(c.expected.code == c.code)
        #expect(c.expected.errorDescription?.isEmpty == false)
    }

    @Test func everyCodeOfTheOpenAPIDocumentHasACase() throws {
        let document = try OpenAPIDocument.load()
        let codes = try #require(document.schema("ErrorCode")?["enum"] as? [String])
        // Answers of the HTTP layer an app cannot act on: they stay `.server(status:code:message:)`.
        let generic: Set<String> = ["method_not_allowed", "unsupported_media_type", "payload_too_large", "internal_error"]
        let tested = Set(Self.cases.map(\.code))
        for code in codes {
            let error = PhoneVerifyError.decode(status: 400, body: Data(Canned.error(code).utf8), retryAfter: nil)
            #expect(error.code == code)
            if case .server = error {
                #expect(generic.contains(code), "\(code) has no case of its own")
            } else {
                #expect(tested.contains(code), "no decoding test for \(code)")
            }
        }
    }

    @Test func anAnswerWithoutAnEnvelopeIsInvalidAndA503WithoutOneIsUnavailable() async throws {
        let stub = StubServer([.json(502, "<html>bad gateway</html>")])
        await #expect(throws: PhoneVerifyError.invalidResponse(status: 502, reason: "no error envelope in the answer")) {
            try await stub.client(.init(maxAttempts: 1)).status(verificationID: "ver_1")
        }
        let proxy = StubServer([.json(503, "Service Unavailable", headers: ["Retry-After": "30"])])
        await #expect(throws: PhoneVerifyError.unavailable(retryAfter: 30)) {
            try await proxy.client(.init(maxAttempts: 1)).status(verificationID: "ver_1")
        }
    }

    @Test func retryAfterAcceptsSecondsAndHTTPDates() {
        #expect(PhoneVerifyClient.retryAfter("7") == 7)
        #expect(PhoneVerifyClient.retryAfter(" 0 ") == 0)
        #expect(PhoneVerifyClient.retryAfter(nil) == nil)
        #expect(PhoneVerifyClient.retryAfter("soon") == nil)
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(PhoneVerifyClient.retryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
    }

    @Test func messagesAreForPeople() {
        #expect(PhoneVerifyError.incorrectCode(attemptsRemaining: 1).errorDescription == "The code is incorrect. 1 attempt left.")
        #expect(PhoneVerifyError.invalidPhoneNumber(reason: "too_long").errorDescription == "This phone number is too long.")
        #expect(PhoneVerifyError.rateLimited(scope: "phone", retryAfter: 600).errorDescription == "Too many attempts. Try again in 10 minutes.")
        #expect(PhoneVerifyError.rateLimited(scope: "phone", retryAfter: 600).retryAfter == 600)
    }
}
