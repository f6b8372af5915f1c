import API
import Dispatch
import Foundation
import HTTPMessages
import Synchronization
import VerifyCore

/// The status of the verifications a stream has shown: each once when first shown, then again
/// whenever it changes, looked up at most every `interval` while it can still change.
final class VerificationStatusWatch: Sendable {
    static let maxWatched = 100
    /// Statuses that never change again ("unknown": the verification is not in the store).
    static let final: Set<String> = ["approved", "canceled", "expired", "max_attempts_reached", "unknown"]

    private struct State {
        /// Watched ids, oldest first, with the status last sent.
        var order: [String] = []
        var last: [String: JSONValue] = [:]
        var nextCheck: UInt64 = 0
    }

    private let service: VerificationService
    private let interval: TimeInterval
    private let state = Mutex(State())

    init(service: VerificationService, interval: TimeInterval) {
        self.service = service
        self.interval = interval
        let first = DispatchTime.now().uptimeNanoseconds + Self.nanoseconds(interval)
        state.withLock { $0.nextCheck = first }
    }

    /// Status events for verifications not shown before, and starts watching them.
    func shown(_ ids: [String]) -> [ServerSentEvent] {
        var fresh: [String] = []
        state.withLock { state in
            for id in ids where state.last[id] == nil && !fresh.contains(id) { fresh.append(id) }
        }
        var events: [ServerSentEvent] = []
        for id in fresh {
            // Unreadable now (store down): watched anyway, so a later look reports it.
            let status = lookUp(id) ?? .null
            if status != .null { events.append(Self.event(id, status)) }
            state.withLock { state in
                state.order.append(id)
                state.last[id] = status
                if state.order.count > Self.maxWatched {
                    for gone in state.order.prefix(state.order.count - Self.maxWatched) { state.last[gone] = nil }
                    state.order.removeFirst(state.order.count - Self.maxWatched)
                }
            }
        }
        return events
    }

    /// When due, status events for watched verifications whose status changed.
    func changes() -> [ServerSentEvent] {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state -> [String]? in
            guard now >= state.nextCheck else { return nil }
            state.nextCheck = now + Self.nanoseconds(interval)
            return state.order.filter { id in
                guard let status = state.last[id]?["status"]?.stringValue else { return true }
                return !Self.final.contains(status)
            }
        }
        guard let due else { return [] }
        var events: [ServerSentEvent] = []
        for id in due {
            guard let status = lookUp(id) else { continue }
            let changed = state.withLock { state -> Bool in
                guard let previous = state.last[id], previous != status else { return false }
                state.last[id] = status
                return true
            }
            if changed { events.append(Self.event(id, status)) }
        }
        return events
    }

    /// Seconds until ``changes()`` looks again.
    func secondsUntilDue() -> TimeInterval {
        let next = state.withLock { $0.nextCheck }
        let now = DispatchTime.now().uptimeNanoseconds
        return next > now ? Double(next - now) / 1e9 : 0
    }

    /// The status as the page shows it; nil when it cannot be read now (tried again later).
    private func lookUp(_ id: String) -> JSONValue? {
        do {
            let view = try service.get(id: id, purposes: Set(Purpose.allCases))
            return [
                "status": .string(view.status.rawValue),
                "attempts_remaining": .int(Int64(view.verification.attemptsRemaining)),
                "expires_at": .string(RFC3339.format(view.verification.expiresAt)),
                "delivery": .optional(view.delivery?.status.rawValue),
            ]
        } catch let error as VerifyError where error.code == .notFound {
            return ["status": "unknown"]
        } catch {
            return nil
        }
    }

    private static func event(_ id: String, _ status: JSONValue) -> ServerSentEvent {
        var members = [JSONMember("verification_id", .string(id))]
        if case .object(let rest) = status { members += rest }
        return ServerSentEvent(event: "status", data: JSONValue.object(members).encodedString())
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64(max(0, seconds) * 1e9)
    }
}
