import Foundation
import Synchronization

extension EventRecorder {
    /// Notes that a start found `verdict` paused. The refused start's transaction is rolled
    /// back, so the event is written afterwards by ``flushPauses(to:)``. Idempotent: a body
    /// that runs twice notes the key once.
    func notePause(_ verdict: FraudVerdict, at: Date) {
        guard wants(.fraudPaused), verdict.state == .paused else { return }
        pauses.note(verdict, window: window(at), at: at)
    }

    /// Writes `fraud.paused` for the keys noted since the last flush, once per key per fraud
    /// window: the id is derived from the key and the window, so replicas that race insert one
    /// row, and this process remembers what it wrote so a paused key costs no write per refusal.
    func flushPauses(to store: any VerificationStore) {
        let noted = pauses.take()
        guard !noted.isEmpty else { return }
        let events = noted.map { pause -> (key: String, window: Int64, event: WebhookEvent) in
            let kind = pause.verdict.key.hasPrefix("country:") ? "country" : "prefix"
            let value = String(pause.verdict.key.drop { $0 != ":" }.dropFirst())
            let safe = String(value.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(Character.init))
            let event = make(.fraudPaused, data: [
                JSONMember("scope", .string(kind)), JSONMember("key", .string(value)),
                JSONMember("reason", .string(pause.verdict.reason)),
                JSONMember("sent", .int(Int64(pause.verdict.sent))), JSONMember("approved", .int(Int64(pause.verdict.approved))),
                JSONMember("window_seconds", .int(Int64(fraudWindow))),
            ], at: pause.at, id: "evt_paused_\(kind)_\(safe)_\(pause.window)")
            return (pause.verdict.key, pause.window, event)
        }
        do {
            try store.write { tx in for e in events { try tx.insertEvent(e.event) } }
            for e in events { pauses.emitted(e.key, window: e.window) }
        } catch {
            // Not remembered as written: the next refusal notes it again.
        }
    }

    func window(_ at: Date) -> Int64 {
        Int64((at.timeIntervalSince1970 / Double(fraudWindow)).rounded(.down))
    }
}

/// Paused keys noted by refused starts, and the window each key's event was last written in.
final class PauseLog: Sendable {
    struct Pause {
        let verdict: FraudVerdict
        let window: Int64
        let at: Date
    }

    struct State {
        var pending: [String: Pause] = [:]
        var written: [String: Int64] = [:]
    }

    private let state = Mutex(State())

    func note(_ verdict: FraudVerdict, window: Int64, at: Date) {
        state.withLock { s in
            guard s.written[verdict.key] != window, s.pending[verdict.key] == nil else { return }
            s.pending[verdict.key] = Pause(verdict: verdict, window: window, at: at)
        }
    }

    func take() -> [Pause] {
        state.withLock { s in
            defer { s.pending.removeAll() }
            return s.pending.values.sorted { $0.verdict.key < $1.verdict.key }
        }
    }

    func emitted(_ key: String, window: Int64) {
        state.withLock { s in
            // Keys of older windows are forgotten, so the log stays as small as the paused keys.
            if s.written.count > 1000 { s.written = s.written.filter { $0.value >= window } }
            s.written[key] = window
        }
    }
}
