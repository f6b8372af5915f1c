import Synchronization

/// The stream responses in progress, so shutdown can end them and resume their connections
/// (MHD must not be stopped while a connection is suspended).
final class StreamRegistry: Sendable {
    private struct State {
        var closed = false
        var pumps: [ObjectIdentifier: StreamPump] = [:]
    }

    private let state = Mutex(State())

    /// Adds a pump; returns false once ``closeAndFinishAll()`` has run.
    func register(_ pump: StreamPump) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.pumps[ObjectIdentifier(pump)] = pump
            return true
        }
    }

    func unregister(_ pump: StreamPump) {
        _ = state.withLock { $0.pumps.removeValue(forKey: ObjectIdentifier(pump)) }
    }

    /// Refuses new pumps and finishes every registered one (ends it and resumes its connection).
    func closeAndFinishAll() {
        let pumps = state.withLock { state -> [StreamPump] in
            state.closed = true
            return Array(state.pumps.values)
        }
        for pump in pumps { pump.finish() }
    }
}
