/// Makes one-time codes: `length` decimal digits, uniform over all 10^length values.
public struct CodeGenerator: Sendable {
    public let length: Int
    private let random: any RandomSource

    public static let allowedLengths = 4...10

    public init(length: Int, random: any RandomSource) {
        precondition(Self.allowedLengths.contains(length), "code length must be 4...10")
        self.length = length
        self.random = random
    }

    /// A fresh code, zero-padded to `length` digits.
    public func next() -> String {
        var bound: UInt64 = 1
        for _ in 0..<length { bound *= 10 }
        let value = random.uniform(below: bound)
        let digits = String(value)
        return String(repeating: "0", count: length - digits.count) + digits
    }
}
