/// Byte equality whose time depends on the lengths only, never on where the bytes differ.
enum ConstantTime {
    static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference: UInt8 = a.count == b.count ? 0 : 1
        for i in a.indices { difference |= a[i] ^ (i < b.count ? b[i] : 0) }
        return difference == 0
    }
}
