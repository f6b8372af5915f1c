import API
import Foundation
import VerifyCore

/// Response bodies of the Twilio-compatible API, shaped as Twilio's published OpenAPI
/// description of Verify v2 (snake_case, ISO 8601 dates, absolute `url`s).
enum TwilioCompatJSON {
    static func date(_ date: Date) -> JSONValue { .string(RFC3339.format(date)) }

    /// `VE` + the hex of a `ver_` id: native and compatible calls name the same verification.
    static func verificationSID(_ id: String) -> String { "VE" + id.dropFirst(4) }

    /// The `ver_` id of a `VE` SID, or nil when it is not one.
    static func verificationID(_ sid: String) -> String? {
        guard TwilioCompatCredentials.isSID(sid, prefix: "VE") else { return nil }
        return "ver_" + sid.dropFirst(2).lowercased()
    }

    static func service(_ s: TwilioCompatServiceRecord, base: String) -> JSONValue {
        let url = base + "/v2/Services/" + s.sid
        let settings = s.settings
        return .object([
            JSONMember("sid", .string(s.sid)),
            JSONMember("account_sid", .string(s.accountSID)),
            JSONMember("friendly_name", .string(settings.friendlyName)),
            JSONMember("code_length", .int(Int64(settings.codeLength))),
            JSONMember("lookup_enabled", .bool(settings.lookupEnabled)),
            JSONMember("psd2_enabled", .bool(settings.psd2Enabled)),
            JSONMember("skip_sms_to_landlines", .bool(settings.skipSmsToLandlines)),
            JSONMember("dtmf_input_required", .bool(settings.dtmfInputRequired)),
            JSONMember("tts_name", .optional(settings.ttsName)),
            JSONMember("do_not_share_warning_enabled", .bool(settings.doNotShareWarningEnabled)),
            JSONMember("custom_code_enabled", .bool(settings.customCodeEnabled)),
            JSONMember("push", ["include_date": false, "apn_credential_sid": nil, "fcm_credential_sid": nil]),
            JSONMember("totp", ["issuer": nil, "time_step": nil, "code_length": nil, "skew": nil]),
            JSONMember("whatsapp", ["msg_service_sid": nil, "from": nil]),
            JSONMember("passkeys", [
                "relying_party": ["id": nil, "name": nil, "origins": nil], "authenticator_attachment": nil,
                "discoverable_credentials": nil, "user_verification": nil,
            ]),
            JSONMember("default_template_sid", .optional(settings.defaultTemplateSid)),
            JSONMember("verify_event_subscription_enabled", .bool(settings.verifyEventSubscriptionEnabled)),
            JSONMember("date_created", date(s.createdAt)),
            JSONMember("date_updated", date(s.updatedAt)),
            JSONMember("url", .string(url)),
            JSONMember("links", [
                "verification_checks": .string(url + "/VerificationCheck"), "verifications": .string(url + "/Verifications"),
            ]),
        ])
    }

    static func verification(_ view: TwilioCompatVerificationView, base: String) -> JSONValue {
        let v = view.verification
        let link = view.link
        return .object([
            JSONMember("sid", .string(verificationSID(v.id))),
            JSONMember("service_sid", .string(link.serviceSID)),
            JSONMember("account_sid", .string(link.accountSID)),
            JSONMember("to", .string(v.phoneNumber)),
            JSONMember("channel", .string(v.channel)),
            JSONMember("status", .string(status(view.status))),
            JSONMember("valid", .bool(view.status == .approved)),
            JSONMember("date_created", date(v.createdAt)),
            JSONMember("date_updated", date(view.updatedAt)),
            JSONMember("lookup", .object([])),
            JSONMember("amount", .null),
            JSONMember("payee", .null),
            JSONMember("send_code_attempts", .array(sendCodeAttempts(view))),
            JSONMember("sna", .null),
            JSONMember("url", .string(base + "/v2/Services/" + link.serviceSID + "/Verifications/" + verificationSID(v.id))),
        ])
    }

    static func check(_ view: TwilioCompatVerificationView, valid: Bool) -> JSONValue {
        let v = view.verification
        return .object([
            JSONMember("sid", .string(verificationSID(v.id))),
            JSONMember("service_sid", .string(view.link.serviceSID)),
            JSONMember("account_sid", .string(view.link.accountSID)),
            JSONMember("to", .string(v.phoneNumber)),
            JSONMember("channel", .string(v.channel)),
            JSONMember("status", .string(status(view.status))),
            JSONMember("valid", .bool(valid)),
            JSONMember("amount", .null),
            JSONMember("payee", .null),
            JSONMember("sna_attempts_error_codes", .array([])),
            JSONMember("date_created", date(v.createdAt)),
            JSONMember("date_updated", date(view.updatedAt)),
        ])
    }

    static func status(_ status: VerificationStatus) -> String { status.rawValue }

    /// One entry per send: `{time, channel, attempt_sid: "VL…"}`, the channel lowercase as in
    /// Twilio's live answers (`sms`, `whatsapp`, `call`). An attempt's SID is the hex of its
    /// outbox message id; sends without a message (test numbers) get SIDs derived from the
    /// verification's, and its latest channel.
    static func sendCodeAttempts(_ view: TwilioCompatVerificationView) -> [JSONValue] {
        let v = view.verification
        var attempts: [JSONValue] = view.messages.prefix(v.sends).map { message in
            ["time": date(message.createdAt), "channel": .string(message.channel.rawValue), "attempt_sid": .string("VL" + message.id.dropFirst(4))]
        }
        let hex = String(v.id.dropFirst(4))
        var index = attempts.count
        while index < v.sends {
            let suffix = String(index, radix: 16)
            let sid = "VL" + hex.dropLast(2) + String(repeating: "0", count: max(0, 2 - suffix.count)) + suffix.suffix(2)
            attempts.append(["time": date(index == 0 ? v.createdAt : v.lastSentAt), "channel": .string(v.channel), "attempt_sid": .string(sid)])
            index += 1
        }
        return attempts
    }
}
