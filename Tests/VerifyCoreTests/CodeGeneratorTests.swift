import Foundation
import Testing
import VerifyCore
import VerifyTesting

@Suite struct CodeGeneratorTests {
    @Test(arguments: [4, 6, 8, 10])
    func codesHaveTheConfiguredLength(length: Int) {
        let generator = CodeGenerator(length: length, random: SeededRandom(seed: UInt64(length)))
        for _ in 0..<1000 {
            let code = generator.next()
            #expect(code.count == length && code.allSatisfy(\.isNumber))
        }
    }

    /// Each digit position is uniform: chi-square over 10 buckets, 9 degrees of freedom;
    /// 27.88 is the 0.1 % critical value.
    @Test func digitsAreUniform() {
        let generator = CodeGenerator(length: 6, random: SeededRandom(seed: 99))
        var counts = Array(repeating: Array(repeating: 0, count: 10), count: 6)
        let n = 20_000
        for _ in 0..<n {
            for (position, digit) in generator.next().enumerated() { counts[position][digit.wholeNumberValue!] += 1 }
        }
        let expected = Double(n) / 10
        for position in 0..<6 {
            let chi = counts[position].reduce(0.0) { $0 + pow(Double($1) - expected, 2) / expected }
            #expect(chi < 27.88, "position \(position): chi-square \(chi)")
        }
    }

    @Test func leadingZerosArePadded() {
        struct Zero: RandomSource {
            func bytes(_ count: Int) -> [UInt8] { Array(repeating: 0, count: count) }
            func uniform(below bound: UInt64) -> UInt64 { 42 }
        }
        #expect(CodeGenerator(length: 6, random: Zero()).next() == "000042")
    }
}
