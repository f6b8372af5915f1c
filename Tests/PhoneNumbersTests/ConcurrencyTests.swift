import Dispatch
import Foundation
import PhoneNumbers
import Synchronization
import Testing

/// Inputs mixing valid and invalid numbers of several regions.
private let mixedInputs: [(String, String?)] = [
    ("+1 650-253-0000", nil), ("07400 123456", "GB"), ("030 123456", "DE"), ("06 12 34 56 78", "FR"),
    ("081234 56789", "IN"), ("(11) 96123-4567", "BR"), ("090-1234-5678", "JP"), ("0412 345 678", "AU"),
    ("0802 123 4567", "NG"), ("hello", "US"), ("+999 123 4567", nil), ("12", "US"), ("+1 123 456 7890", nil),
    ("", nil), ("+44 20 7031 3000 00", nil), ("1-800-FLOWERS", "US"),
]

/// Counts results that differ from the single-threaded reference.
private final class MismatchCounter: Sendable {
    let mismatches = Atomic<Int>(0)
    let parses = Atomic<Int>(0)
}

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("Many OS threads parsing at once agree with a serial run")
    func manyThreads() async {
        let utility = PhoneNumberUtility()
        let expected = mixedInputs.map { utility.parse($0.0, defaultRegion: $0.1) }
        let counter = MismatchCounter()
        let threadCount = 16, rounds = 1_000
        let group = DispatchGroup()
        for offset in 0..<threadCount {
            group.enter()
            let thread = Thread {
                let local = PhoneNumberUtility()
                for round in 0..<rounds {
                    let index = (round + offset) % mixedInputs.count
                    let (text, region) = mixedInputs[index]
                    if local.parse(text, defaultRegion: region) != expected[index] {
                        counter.mismatches.add(1, ordering: .relaxed)
                    }
                    counter.parses.add(1, ordering: .relaxed)
                }
                group.leave()
            }
            thread.start()
        }
        await withCheckedContinuation { continuation in
            group.notify(queue: .global()) { continuation.resume() }
        }
        #expect(counter.parses.load(ordering: .relaxed) == threadCount * rounds)
        #expect(counter.mismatches.load(ordering: .relaxed) == 0)
    }

    @Test("Concurrent tasks in a task group agree with a serial run")
    func taskGroup() async {
        let utility = PhoneNumberUtility()
        let expected = mixedInputs.map { utility.parse($0.0, defaultRegion: $0.1) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<400 {
                group.addTask {
                    let index = task % mixedInputs.count
                    let (text, region) = mixedInputs[index]
                    return utility.parse(text, defaultRegion: region) == expected[index] ? 0 : 1
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
