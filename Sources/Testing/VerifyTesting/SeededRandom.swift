import Foundation
import Synchronization
import VerifyCore

/// Deterministic randomness (SplitMix64) for reproducible tests. Never for production.
public final class SeededRandom: RandomSource, Sendable {
    private let state: Mutex<UInt64>

    public init(seed: UInt64 = 42) {
        state = Mutex(seed)
    }

    private func nextUInt64() -> UInt64 {
        var z = state.withLock { state in
            state &+= 0x9E37_79B9_7F4A_7C15
            return state
        }
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: nextUInt64()) }
    }

    public func uniform(below bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let value = nextUInt64()
            if value < limit { return value % bound }
        }
    }
}
