import Foundation

/// Delivery state of the latest message of a verification.
public enum DeliveryStatus: String, Sendable, Codable {
    case queued
    case sent
    case delivered
    case failed
    case undelivered
}

/// What a client is told about a message's delivery.
public struct Delivery: Sendable, Equatable {
    public var status: DeliveryStatus
    public var gateway: String?
    public var attempts: Int
    public var lastError: String?
    public var updatedAt: Date
    /// The channel this message went (or goes) by.
    public var channel: Channel

    public init(status: DeliveryStatus, gateway: String?, attempts: Int, lastError: String?, updatedAt: Date, channel: Channel = .sms) {
        self.channel = channel
        self.status = status
        self.gateway = gateway
        self.attempts = attempts
        self.lastError = lastError
        self.updatedAt = updatedAt
    }
}

/// One message waiting in (or having passed through) the durable outbox. Its payload
/// (text and code) is sealed at rest and erased once sent or once the code has expired.
public struct OutboxMessage: Sendable, Equatable {
    public var id: String
    public var verificationID: String
    public var to: String
    public var purpose: Purpose
    public var sealedPayload: [UInt8]
    public var status: DeliveryStatus
    public var gateway: String?
    public var attempts: Int
    public var lastError: String?
    public var providerMessageID: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var nextAttemptAt: Date
    /// After this instant the code is useless: the payload is erased and the message not sent.
    public var expiresAt: Date
    /// The channel it goes by (its gateways are that channel's).
    public var channel: Channel
    /// For a fallback of an `auto` send: the message it backs up. It waits (queued, due at the
    /// fallback time) and is sent with the same code when that message is not delivered in
    /// time; it is sent at once when that message fails, and dropped when any message of the
    /// verification is delivered. A pending fallback is not the verification's `delivery`.
    public var fallbackOf: String?

    public init(
        id: String, verificationID: String, to: String, purpose: Purpose, sealedPayload: [UInt8],
        status: DeliveryStatus = .queued, gateway: String? = nil, attempts: Int = 0, lastError: String? = nil,
        providerMessageID: String? = nil, createdAt: Date, updatedAt: Date, nextAttemptAt: Date, expiresAt: Date,
        channel: Channel = .sms, fallbackOf: String? = nil
    ) {
        self.channel = channel
        self.fallbackOf = fallbackOf
        self.id = id
        self.verificationID = verificationID
        self.to = to
        self.purpose = purpose
        self.sealedPayload = sealedPayload
        self.status = status
        self.gateway = gateway
        self.attempts = attempts
        self.lastError = lastError
        self.providerMessageID = providerMessageID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.nextAttemptAt = nextAttemptAt
        self.expiresAt = expiresAt
    }

    public var delivery: Delivery {
        Delivery(status: status, gateway: gateway, attempts: attempts, lastError: lastError, updatedAt: updatedAt, channel: channel)
    }
}

/// The sealed content of an outbox message.
public struct MessagePayload: Sendable, Equatable, Codable {
    public var body: String
    public var code: String
    public var locale: String?
    /// International format of the destination, for the console sink.
    public var display: String
    /// The destination's region as parsed at the start (`US`, `GB`, …), for the delivery metric's
    /// country: without it the worker would parse the number again for every message (one
    /// libphonenumber parse ≈ 25 µs and ~200 allocations, docs/BENCHMARKS.md). Absent in
    /// payloads sealed before it existed.
    public var region: String?

    public init(body: String, code: String, locale: String?, display: String, region: String? = nil) {
        self.body = body
        self.code = code
        self.locale = locale
        self.display = display
        self.region = region
    }

    /// The JSON that is sealed: `{"body","code","locale"?,"display","region"?}` (the same document
    /// `Codable` writes, made without Foundation's encoder on the request path).
    public var json: [UInt8] {
        var members = [JSONMember("body", .string(body)), JSONMember("code", .string(code))]
        if let locale { members.append(JSONMember("locale", .string(locale))) }
        members.append(JSONMember("display", .string(display)))
        if let region { members.append(JSONMember("region", .string(region))) }
        return JSONValue.object(members).encoded()
    }

    /// Reads the sealed JSON back.
    public init(json: [UInt8]) throws {
        let value = try JSONValue.parse(json)
        guard let body = value["body"]?.stringValue, let code = value["code"]?.stringValue,
              let display = value["display"]?.stringValue
        else { throw PayloadError() }
        self.init(body: body, code: code, locale: value["locale"]?.stringValue, display: display, region: value["region"]?.stringValue)
    }

    struct PayloadError: Error {}
}
