import Foundation
import VerifyCore

extension InMemoryStore: ChallengeLedger {
    public func consumeOnce(key: String, expiresAt: Date, now: Date) throws -> Bool {
        withState { state in
            if let held = state.challengeReplays[key], held >= now { return false }
            state.challengeReplays[key] = expiresAt
            return true
        }
    }

    public func attestedKey(id: String) throws -> AttestedKey? { withState { $0.attestedKeys[id] } }

    public func insertAttestedKey(_ key: AttestedKey) throws -> Bool {
        withState { state in
            guard state.attestedKeys[key.keyID] == nil else { return false }
            state.attestedKeys[key.keyID] = key
            return true
        }
    }

    public func advanceAttestedKeyCounter(id: String, to counter: Int64) throws -> Bool {
        withState { state in
            guard let key = state.attestedKeys[id], key.counter < counter else { return false }
            state.attestedKeys[id] = AttestedKey(
                keyID: key.keyID, appID: key.appID, publicKey: key.publicKey, counter: counter, environment: key.environment,
                createdAt: key.createdAt)
            return true
        }
    }
}
