import Gateways
import Foundation
import VerifyCore

/// One message status from a Meta WhatsApp webhook (`entry[].changes[].value.statuses[]`).
public struct MetaWhatsAppStatus: Sendable, Equatable {
    /// The `wamid.…` id the gateway got when it sent.
    public let messageID: String
    public let status: DeliveryStatus
    /// The first `errors[].code` of a failed message, if any.
    public let errorCode: Int64?
    /// `errors[].title` (and `error_data.details`), bounded; never the code's text.
    public let error: String?
    /// `recipient_id`: the recipient's WhatsApp id (digits), for the delivery metric's country.
    public let recipient: String?

    public init(messageID: String, status: DeliveryStatus, errorCode: Int64?, error: String?, recipient: String? = nil) {
        self.messageID = messageID
        self.status = status
        self.errorCode = errorCode
        self.error = error
        self.recipient = recipient
    }

    /// Meta `status` → delivery status: `sent` (accepted by WhatsApp), `delivered` and `read`
    /// (on the device), `failed`. A failure that means "not reachable on WhatsApp" (131026…) is
    /// `undelivered`, so a channel fallback can follow; other statuses (`deleted`, `warning`) → nil.
    public static func deliveryStatus(_ value: String, errorCode: Int64? = nil) -> DeliveryStatus? {
        switch value {
        case "sent": return .sent
        case "delivered", "read": return .delivered
        case "failed":
            if let errorCode, MetaWhatsAppGateway.unroutableErrors.contains(errorCode) { return .undelivered }
            return .failed
        default: return nil
        }
    }

    /// Every status in a webhook body (already verified with `MetaWebhookSignature`). Messages
    /// (inbound chats) and unknown statuses are skipped; a body that is not Meta's shape gives [].
    public static func parse(_ body: [UInt8]) -> [MetaWhatsAppStatus] {
        guard let root = try? JSONValue.parse(body), let entries = root["entry"]?.arrayValue else { return [] }
        var found: [MetaWhatsAppStatus] = []
        for entry in entries {
            for change in entry["changes"]?.arrayValue ?? [] {
                for item in change["value"]?["statuses"]?.arrayValue ?? [] {
                    guard let id = item["id"]?.stringValue, let raw = item["status"]?.stringValue else { continue }
                    let error = item["errors"]?.arrayValue?.first
                    let code = error?["code"]?.intValue
                    guard let status = deliveryStatus(raw, errorCode: code) else { continue }
                    var text = error?["title"]?.stringValue ?? error?["message"]?.stringValue
                    if let details = error?["error_data"]?["details"]?.stringValue, !details.isEmpty {
                        text = (text.map { $0 + ": " } ?? "") + details
                    }
                    found.append(MetaWhatsAppStatus(
                        messageID: id, status: status, errorCode: code,
                        error: text.map { "code \(code.map(String.init) ?? "-"): " + String($0.prefix(300)) },
                        recipient: item["recipient_id"]?.stringValue))
                }
            }
        }
        return found
    }
}
