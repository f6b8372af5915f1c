import Foundation
import Telemetry
import VerifyCore

/// Tries gateways in the configured order, skipping those whose circuit is open. The first to
/// accept wins; a refusal of the destination itself ends the attempt (no other gateway would
/// do better); if every gateway fails, the attempt is retryable.
public struct FailoverGateway: MessageGateway {
    public let name = "failover"
    public let members: [(gateway: any MessageGateway, breaker: CircuitBreaker)]
    let clock: any Clock
    let logger: Logger
    let events: any EventSink

    public init(
        _ gateways: [any MessageGateway], clock: any Clock, logger: Logger, threshold: Int = 5, cooldown: TimeInterval = 30,
        events: any EventSink = NoEvents()
    ) {
        members = gateways.map { ($0, CircuitBreaker(threshold: threshold, cooldown: cooldown)) }
        self.clock = clock
        self.logger = logger
        self.events = events
    }

    /// Name and circuit state of every member, for readiness and metrics.
    public func circuitStates() -> [(gateway: String, state: CircuitBreaker.State)] {
        let now = clock.now()
        return members.map { ($0.gateway.name, $0.breaker.state(at: now)) }
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        var reasons: [String] = []
        var retryAfter: Int?
        var called = false
        var unroutable = 0
        var failedFirst: String?
        for member in members {
            guard member.breaker.allow(at: clock.now()) else {
                reasons.append("\(member.gateway.name): circuit open")
                continue
            }
            called = true
            let started = DispatchTime.now().uptimeNanoseconds
            let result = member.gateway.send(message)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            switch result {
            case .sent: events.record(.gatewayCall(gateway: member.gateway.name, outcome: "sent", seconds: seconds))
            case .retryable: events.record(.gatewayCall(gateway: member.gateway.name, outcome: "retryable", seconds: seconds))
            case .permanent, .unroutable: events.record(.gatewayCall(gateway: member.gateway.name, outcome: "permanent", seconds: seconds))
            }
            switch result {
            case .sent:
                member.breaker.record(success: true, at: clock.now())
                if let first = failedFirst { events.record(.failover(from: first, to: member.gateway.name)) }
                return result
            case .permanent:
                // The gateway works; the destination does not.
                member.breaker.record(success: true, at: clock.now())
                return result
            case .unroutable(let reason):
                // The gateway works, but not for this destination: the next one may.
                member.breaker.record(success: true, at: clock.now())
                reasons.append(reason)
                unroutable += 1
            case .retryable(let reason, let after):
                failedFirst = failedFirst ?? member.gateway.name
                member.breaker.record(success: false, at: clock.now())
                if member.breaker.state(at: clock.now()) == .open {
                    logger.warning("gateway circuit open", [("gateway", member.gateway.name)])
                }
                reasons.append(reason)
                if let after { retryAfter = min(retryAfter ?? after, after) }
            }
        }
        // No gateway can reach this destination: trying again would not change that.
        if unroutable == members.count { return .permanent(reason: reasons.joined(separator: "; ")) }
        if !called {
            // Every circuit is open: come back when the first lets a trial through, rather than
            // spending the message's attempts on backoffs shorter than the cooldown.
            retryAfter = members.compactMap { $0.breaker.secondsUntilTrial(at: clock.now()) }.min()
        }
        return .retryable(reason: reasons.joined(separator: "; "), retryAfter: retryAfter)
    }
}
