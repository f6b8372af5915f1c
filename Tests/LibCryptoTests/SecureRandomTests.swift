import LibCrypto
import Testing

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test(arguments: [0, 1, 16, 32, 1000])
    func bytesHaveRequestedLength(_ count: Int) {
        #expect(SecureRandom.bytes(count).count == count)
    }

    @Test func bytesAreNotConstantAndDifferBetweenCalls() {
        let first = SecureRandom.bytes(64)
        #expect(Set(first).count > 1)
        #expect(first != SecureRandom.bytes(64))
    }

    @Test(arguments: [1, 2, 3, 7, 10, 1_000_000, UInt64.max / 2 + 2, UInt64.max] as [UInt64])
    func uniformStaysInRange(_ bound: UInt64) {
        for _ in 0..<2_000 {
            #expect(SecureRandom.uniform(below: bound) < bound)
        }
    }

    @Test func uniformBelowOneIsZero() {
        #expect(SecureRandom.uniform(below: 1) == 0)
    }

    /// Chi-square goodness of fit over 10 buckets × 10,000 expected draws each.
    /// df = 9: the 99.99th percentile is about 33.7, so 45 almost never fails
    /// for a fair generator while any real bias of a percent or more would.
    @Test func uniformIsRoughlyUniform() {
        let buckets = 10
        let expected = 10_000.0
        var counts = [Int](repeating: 0, count: buckets)
        for _ in 0..<(buckets * Int(expected)) {
            counts[Int(SecureRandom.uniform(below: UInt64(buckets)))] += 1
        }
        let chiSquare = counts.reduce(0.0) { sum, observed in
            let difference = Double(observed) - expected
            return sum + difference * difference / expected
        }
        #expect(chiSquare < 45, "counts \(counts), chi-square \(chiSquare)")
    }
}
