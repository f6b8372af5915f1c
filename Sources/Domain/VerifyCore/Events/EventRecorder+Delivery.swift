import Foundation

extension EventRecorder {
    /// The `delivery.updated` event of a send's recorded outcome (`sent` or `failed`; a retry
    /// reports nothing), to be written with it; nil when not wanted.
    public func delivery(_ message: OutboxMessage, outcome: OutboxOutcome) -> WebhookEvent? {
        guard wants(.deliveryUpdated), outcome.status == .sent || outcome.status == .failed else { return nil }
        return make(.deliveryUpdated, data: Self.delivery(
            verificationID: message.verificationID, messageID: message.id, channel: message.channel.rawValue,
            status: outcome.status, gateway: outcome.gateway,
            providerMessageID: outcome.providerMessageID, error: outcome.lastError), at: outcome.at)
    }

    /// The `delivery.updated` event of a provider's receipt; the store fills in the message it
    /// applies to (``ReceiptEvent``). Nil when not wanted.
    /// Vendors call back several times per state (Twilio: queued, sending, sent all mean `sent`,
    /// which the delivery worker reported already): a receipt `sent` writes no event, and the
    /// others get an id made of the message and the state, so a repeated callback writes the
    /// same event once (the store ignores a second insert of an id).
    public func receipt(gateway: String, providerMessageID: String, status: DeliveryStatus, error: String?, at: Date) -> ReceiptEvent? {
        guard wants(.deliveryUpdated), status != .sent else { return nil }
        let safe = String(String.UnicodeScalarView(providerMessageID.unicodeScalars.filter(Self.isIDScalar).prefix(64)))
        return ReceiptEvent(
            recorder: self, id: "evt_dlv_" + gateway + "_" + safe + "_" + status.rawValue, gateway: gateway,
            providerMessageID: providerMessageID, status: status, error: error, at: at)
    }

    /// The characters of a provider's message id kept in an event id.
    static func isIDScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-")
    }

    /// The event's `data`; `channel` is the one the message went by (`sms`, `whatsapp`, `call`),
    /// which differs from the one asked for after a fallback (docs/EVENTS.md).
    static func delivery(
        verificationID: String, messageID: String, channel: String, status: DeliveryStatus, gateway: String?, providerMessageID: String?, error: String?
    ) -> [JSONMember] {
        [
            JSONMember("verification_id", .string(verificationID)), JSONMember("message_id", .string(messageID)),
            JSONMember("channel", .string(channel)),
            JSONMember("status", .string(status.rawValue)), JSONMember("gateway", .optional(gateway)),
            JSONMember("provider_message_id", .optional(providerMessageID)), JSONMember("error", .optional(error)),
        ]
    }
}

/// A receipt's `delivery.updated` event before the store knows which message the receipt
/// applies to: it is written in the receipt's transaction, only when the receipt changes a
/// message. SQL stores fill `data.message_id`, `data.verification_id` and `data.channel` of
/// `template` in place.
public struct ReceiptEvent: Sendable {
    let recorder: EventRecorder
    public let id: String
    public let gateway: String
    public let providerMessageID: String
    public let status: DeliveryStatus
    public let error: String?
    public let at: Date

    /// The event with empty `message_id`, `verification_id` and `channel`.
    public var template: WebhookEvent { event(messageID: "", verificationID: "", channel: "") }

    public func event(messageID: String, verificationID: String, channel: String) -> WebhookEvent {
        recorder.make(.deliveryUpdated, data: EventRecorder.delivery(
            verificationID: verificationID, messageID: messageID, channel: channel, status: status, gateway: gateway,
            providerMessageID: providerMessageID, error: error), at: at, id: id)
    }
}
