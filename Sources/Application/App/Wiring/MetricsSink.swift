import PhoneParsing
import Foundation
import Gateways
import SQLiteStore
import Telemetry
import VerifyCore

/// Turns domain events into Prometheus metrics, and registers the gauges read on scrape.
final class MetricsSink: EventSink, Sendable {
    let registry: MetricsRegistry
    /// Gateway calls per outcome (and failovers taken) per minute over the last day, for the console.
    let calls: CallTally
    private let verifications: Counter
    private let checks: Counter
    private let gatewayCalls: Counter
    private let gatewayLatency: Histogram
    private let refusals: Counter
    private let challenges: Counter
    private let challengeReasons: Counter
    private let deliveries: Counter
    private let steered: Counter
    /// The country of a delivery's recipient, for its label (libphonenumber and the declared
    /// ranges, as for the start; off the request path).
    private let regions: DeclaredRangesParser

    init(registry: MetricsRegistry, numberRanges: [NumberRange] = [], now: @escaping @Sendable () -> Date = { Date() }) {
        self.registry = registry
        calls = CallTally(now: now)
        regions = DeclaredRangesParser(inner: LibPhoneNumberParser(), ranges: numberRanges)
        verifications = registry.counter(
            "phoneverify_verifications_total",
            "Verifications by event (started, approved, max_attempts) and country", labels: ["event", "country", "purpose"])
        checks = registry.counter("phoneverify_checks_total", "Code checks by outcome", labels: ["outcome"])
        gatewayCalls = registry.counter(
            "phoneverify_sms_sends_total", "SMS send attempts by gateway and outcome (sent, retryable, permanent)",
            labels: ["gateway", "outcome"])
        gatewayLatency = registry.histogram(
            "phoneverify_gateway_request_duration_seconds", "Latency of SMS gateway calls", labels: ["gateway"])
        refusals = registry.counter(
            "phoneverify_refusals_total",
            "Starts, resends and checks refused by rate limits and the fraud guard (native, MFA and Twilio-compatible APIs), by error code and scope",
            labels: ["code", "scope"])
        challenges = registry.counter(
            "phoneverify_challenges_total",
            "Challenges asked of clients (once per offered provider), passed and failed, by provider", labels: ["provider", "outcome"])
        deliveries = registry.counter(
            "phoneverify_deliveries_total",
            "Messages by gateway, delivery state (sent and failed from the delivery worker; delivered, undelivered and failed from vendors' receipts) the recipient's country and the channel",
            labels: ["gateway", "status", "country", "channel"])
        challengeReasons = registry.counter(
            "phoneverify_challenge_reasons_total",
            "Why challenges were asked: phone_send_soft, ip_send_exhausted, block_watched, country_paused, always, …", labels: ["reason"])
        steered = registry.counter(
            "phoneverify_fraud_steered_total",
            "Starts and resends whose SMS destination the fraud guard refused, sent over WhatsApp only instead", labels: [])
        registry.gauge("phoneverify_build_info", "Build information", labels: ["version", "swift"])
            .set(1, [CommandLineTool.version, Self.swiftVersion])
    }

    func record(_ event: DomainEvent) {
        switch event {
        case .verificationStarted(let purpose, let region):
            verifications.increment(["started", Self.country(region), purpose.rawValue])
        case .checkCompleted(let outcome, _):
            checks.increment([outcome])
        case .verificationEnded(let reason, let region):
            verifications.increment([reason, Self.country(region), "any"])
        case .gatewayCall(let gateway, let outcome, let seconds):
            calls.record([gateway, outcome])
            gatewayCalls.increment([gateway, outcome])
            gatewayLatency.observe(seconds, [gateway])
        case .refused(let code, let scope):
            refusals.increment([code, scope])
        case .challenge(let provider, let outcome):
            challenges.increment([provider, outcome])
        case .failover(_, let to):
            calls.record([to, "failover"])
        case .challengeReason(let reason):
            challengeReasons.increment([reason])
        case .steered:
            steered.increment([])
        case .delivery(let gateway, let status, let to, let channel, let known):
            deliveries.increment([gateway, status, Self.country(known ?? region(of: to)), channel.rawValue])
        }
    }

    /// `phoneverify_challenges_total` as it stands: provider, outcome, count (since start-up).
    func challengeCounts() -> [(provider: String, outcome: String, count: Int)] {
        challenges.samples().map { ($0.labels.first ?? "", $0.labels.dropFirst().first ?? "", Int($0.value)) }
    }

    /// Outbox depth and age, and circuit states, refreshed on every scrape.
    func watch(outbox: any OutboxStore, gateway: ChannelRouter, clock: any Clock) {
        let depth = registry.gauge("phoneverify_outbox_depth", "Messages waiting in the outbox")
        let age = registry.gauge("phoneverify_outbox_oldest_age_seconds", "Age of the oldest waiting message")
        let circuits = registry.gauge(
            "phoneverify_gateway_circuit_state", "Circuit breaker per gateway of each channel's chain: 0 closed, 1 half-open, 2 open",
            labels: ["gateway", "channel"])
        registry.onCollect {
            if let queue = try? outbox.queueDepth() {
                depth.set(Double(queue.count))
                age.set(queue.oldest.map { max(0, clock.now().timeIntervalSince($0)) } ?? 0)
            }
            for (channel, name, state) in gateway.circuitStates() {
                circuits.set(state == .closed ? 0 : state == .halfOpen ? 1 : 2, [name, channel.rawValue])
            }
        }
    }

    /// The region libphonenumber gives an E.164 number ("ZZ", its unknown region, when the
    /// receipt named none).
    func region(of e164: String) -> String {
        guard !e164.isEmpty, case .success(let number) = regions.parse(e164, defaultRegion: nil) else { return "ZZ" }
        return number.region
    }

    /// ISO regions are a bounded set; anything else (test numbers: "ZZ", non-geographic: "001") stays as is.
    static func country(_ region: String) -> String {
        region.count <= 3 ? region : "other"
    }

    static let swiftVersion: String = {
        #if swift(>=6.3)
        return "6.3"
        #else
        return "6"
        #endif
    }()
}
