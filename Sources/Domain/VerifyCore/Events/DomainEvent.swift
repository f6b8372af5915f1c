/// Things that happened, for metrics. The domain emits them; the application counts them.
public enum DomainEvent: Sendable, Equatable {
    /// A verification was started (not an idempotent replay).
    case verificationStarted(purpose: Purpose, region: String)
    /// A check ended with `outcome` ("approved", "incorrect", "expired", "max_attempts",
    /// "already_used", "not_found", "invalid", "refused").
    case checkCompleted(outcome: String, region: String?)
    /// A verification reached the end of its life ("approved", "max_attempts", "expired").
    case verificationEnded(reason: String, region: String)
    /// One call to one gateway: "sent", "retryable" or "permanent", and how long it took.
    case gatewayCall(gateway: String, outcome: String, seconds: Double)
    /// A rate limit or the fraud guard refused a start, resend or check (`code`: rate_limited or
    /// suspected_fraud; `scope`: the limit's or the guard's), whichever API asked.
    case refused(code: String, scope: String)
    /// A challenge was asked of a client ("asked", once per offered provider), or a submitted
    /// one "passed" or "failed".
    case challenge(provider: String, outcome: String)
    /// A message reached a delivery state ("sent", "failed" by the worker; "delivered",
    /// "undelivered", "failed" from a vendor's receipt) through `gateway`, to `to` (E.164, only
    /// for its country: never logged; empty when the receipt does not say). `region`: the
    /// number's region when the sender knows it (then `to` is not parsed again).
    case delivery(gateway: String, status: String, to: String, channel: Channel, region: String? = nil)
    /// A gateway took a message after an earlier one of its failover group failed it (`from` is
    /// the first that failed): the console counts failovers taken per gateway.
    case failover(from: String, to: String)
    /// Why a challenge was asked (`phone_send_soft`, `block_watched`, … `always`).
    case challengeReason(String)
    /// A start or resend whose SMS destination the fraud guard refused went over WhatsApp only.
    case steered
}

/// Receives domain events; must be cheap and never block.
public protocol EventSink: Sendable {
    func record(_ event: DomainEvent)
}

/// Drops every event.
public struct NoEvents: EventSink {
    public init() {}
    public func record(_ event: DomainEvent) {}
}
