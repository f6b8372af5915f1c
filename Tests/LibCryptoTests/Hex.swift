/// Hex helpers for test vectors.
extension Array where Element == UInt8 {
    /// Bytes from a hex string; whitespace is ignored. Traps on bad input.
    init(hex: String) {
        let digits = hex.filter { !$0.isWhitespace }.map { $0.hexDigitValue! }
        precondition(digits.count % 2 == 0, "odd hex length")
        self = stride(from: 0, to: digits.count, by: 2).map { UInt8(digits[$0] << 4 | digits[$0 + 1]) }
    }

    /// Lower-case hex.
    var hex: String {
        let digits = [Character]("0123456789abcdef")
        return String(flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}

/// Bytes from a string's UTF-8.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
