import Foundation
import VerifyCore

/// Keeps every domain event, in order.
public final class RecordingEvents: EventSink, @unchecked Sendable {
    // @unchecked: `events` is only touched with `lock` held.
    private let lock = NSLock()
    private var stored: [DomainEvent] = []

    public init() {}

    public func record(_ event: DomainEvent) {
        lock.lock()
        stored.append(event)
        lock.unlock()
    }

    public var events: [DomainEvent] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// The refusals recorded, as (code, scope).
    public var refusals: [String] {
        events.compactMap { if case .refused(let code, let scope) = $0 { return code + "/" + scope } else { return nil } }
    }
}
