import VerifyCore

/// Tuning of the delivery worker.
public struct DeliveryConfiguration: Sendable {
    /// Messages one thread claims at a time.
    public var batchSize = 16
    /// Sending threads (each claims its own batch; vendor calls block).
    public var threads = 4
    /// Seconds a claim holds unless renewed; a live worker renews every third of it, so a
    /// crashed worker's messages are claimable again within this time.
    public var leaseSeconds = 15
    /// Attempts before a retryable failure becomes final.
    public var maxAttempts = 8
    /// First retry delay and cap, seconds (exponential with jitter in between).
    public var retryBase = 1.0
    public var retryCap = 60.0
    /// Seconds between polls when nothing wakes the worker.
    public var pollInterval = 1.0
    /// How long ended verifications and sent messages are kept, seconds.
    public var retention = 86_400.0
    /// Idempotency records are kept at least this long (the window in which a repeated
    /// `Idempotency-Key` replays), even when `retention` is shorter.
    public var idempotencyWindow = 86_400.0
    public var purgeInterval = 60.0
    /// Writes `delivery.updated` with each recorded send or failure; nil when events are off.
    public var events: EventRecorder?
    /// Counts each message's send or final failure (the delivery metric).
    public var sink: any EventSink = NoEvents()

    public init() {}
}
