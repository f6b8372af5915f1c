import Foundation
import Telemetry
import VerifyCore

/// Sending one message, retry timing and the purge of old rows.
extension DeliveryWorker {
    func deliver(_ message: OutboxMessage, payload known: MessagePayload?) -> OutboxOutcome {
        let now = clock.now()
        let attempts = message.attempts + 1
        func outcome(_ status: DeliveryStatus, error: String?, next: Date? = nil, provider: String? = nil, via: String? = nil) -> OutboxOutcome {
            OutboxOutcome(
                messageID: message.id, status: status, gateway: via ?? gateway.name, providerMessageID: provider,
                lastError: error, nextAttemptAt: next, attempts: attempts, at: now)
        }
        guard now < message.expiresAt else { return outcome(.failed, error: "code expired before delivery") }
        let payload: MessagePayload
        do {
            payload = try known ?? MessagePayload(json: try sealer.open(message.sealedPayload))
        } catch {
            logger.error("outbox payload cannot be opened (wrong PHONE_VERIFY_CODE_SECRET?)", [("message_id", message.id)])
            return outcome(.failed, error: "payload cannot be decrypted")
        }
        let outbound = OutboundMessage(
            messageID: message.id, to: message.to, display: payload.display, body: payload.body, code: payload.code,
            verificationID: message.verificationID, purpose: message.purpose, locale: payload.locale,
            expiresAt: message.expiresAt, channel: message.channel)
        // Built only for a line that is written (the logger's fields are an autoclosure): at log
        // level warning a sent message costs no masked number.
        func fields() -> [(String, String)] {
            [("message_id", message.id), ("verification_id", message.verificationID),
             ("to", PhoneMask.mask(message.to)), ("gateway", gateway.name), ("channel", message.channel.rawValue)]
        }
        // Vendors' error texts can quote the number or echo the request (with the code): they
        // reach the log and the verification's `last_error`, which API clients read.
        let clean = { (reason: String) in Redaction.scrub(reason, secrets: [payload.code, message.to]) }
        // Failure lines name the channel ("call failed permanently"); built only on failure.
        let kind = message.channel.rawValue
        switch gateway.send(outbound) {
        case .sent(let via, let providerID, let status):
            devLog?.record(DevMessage(
                to: message.to, body: payload.body, code: payload.code, verificationID: message.verificationID,
                purpose: message.purpose, gateway: via, sentAt: now, channel: message.channel))
            logger.info("message sent", fields() + [("via", via)])
            return outcome(status, error: nil, provider: providerID, via: via)
        case .permanent(let raw), .unroutable(let raw):
            let reason = clean(raw)
            logger.warning(kind + " failed permanently", fields() + [("reason", reason)])
            return outcome(.failed, error: reason)
        case .retryable(let raw, let retryAfter):
            let reason = clean(raw)
            guard attempts < configuration.maxAttempts else {
                logger.warning(kind + " failed after retries", fields() + [("reason", reason)])
                return outcome(.failed, error: reason)
            }
            let next = now.addingTimeInterval(max(backoff(attempt: attempts), Double(retryAfter ?? 0)))
            guard next < message.expiresAt else {
                // A long Retry-After would keep the sealed code past its expiry for nothing.
                logger.warning(kind + " failed: the code expires before the next try", fields() + [("reason", reason)])
                return outcome(.failed, error: reason + " (the code expires before the next try)")
            }
            logger.info(kind + " will be retried", fields() + [("reason", reason), ("attempt", String(attempts))])
            return outcome(.queued, error: reason, next: next)
        }
    }

    /// Exponential backoff with jitter: uniform in [d/2, d] where d = base × 2^(attempt−1), capped.
    func backoff(attempt: Int) -> Double {
        let d = min(configuration.retryCap, configuration.retryBase * pow(2, Double(max(0, attempt - 1))))
        let fraction = Double(random.uniform(below: 1_000_000)) / 1_000_000
        return d / 2 + fraction * d / 2
    }

    func purge() {
        do {
            let now = clock.now()
            let removed = try outbox.purge(
                endedBefore: now.addingTimeInterval(-configuration.retention),
                idempotencyBefore: now.addingTimeInterval(-max(configuration.retention, configuration.idempotencyWindow)))
            if removed > 0 { logger.info("purged ended verifications", [("rows", String(removed))]) }
        } catch {
            logger.warning("purge failed", [("error", String(describing: error))])
        }
    }
}
