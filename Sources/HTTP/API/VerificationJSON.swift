import VerifyCore

/// JSON shapes of verifications in the native API.
public enum VerificationJSON {
    static func identity(_ v: Verification, status: VerificationStatus) -> [JSONMember] {
        [
            JSONMember("id", .string(v.id)),
            JSONMember("status", .string(status.rawValue)),
            JSONMember("phone_number", .string(v.phoneNumber)),
        ]
    }

    /// The body of start, resend and cancel.
    static func summary(_ v: Verification, status: VerificationStatus) -> JSONValue {
        .object(identity(v, status: status) + [
            JSONMember("channel", .string(v.channel)),
            JSONMember("expires_at", .string(RFC3339.format(v.expiresAt))),
            JSONMember("resend_available_at", .string(RFC3339.format(v.resendAvailableAt))),
            JSONMember("attempts_remaining", .int(Int64(v.attemptsRemaining))),
            JSONMember("sends_remaining", .int(Int64(max(0, v.maxSends - v.sends)))),
            JSONMember("code_length", .int(Int64(v.codeLength))),
            JSONMember("created_at", .string(RFC3339.format(v.createdAt))),
        ])
    }

    /// GET: the summary plus delivery status.
    static func detail(_ view: VerificationView) -> JSONValue {
        guard case .object(var members) = summary(view.verification, status: view.status) else { return .null }
        members.append(JSONMember("delivery", view.delivery.map(delivery) ?? .null))
        return .object(members)
    }

    /// The `Delivery` schema of docs/openapi.json (also the console's).
    public static func delivery(_ d: Delivery) -> JSONValue {
        [
            "status": .string(d.status.rawValue),
            "channel": .string(d.channel.rawValue),
            "gateway": .optional(d.gateway),
            "attempts": .int(Int64(d.attempts)),
            "last_error": .optional(d.lastError),
            "updated_at": .string(RFC3339.format(d.updatedAt)),
        ]
    }

    static func credential(_ c: Credential) -> JSONValue {
        ["token": .string(c.token), "token_type": .string(c.tokenType), "expires_in": .int(Int64(c.expiresIn))]
    }
}
