import LibCrypto
import Testing

@Suite struct HMACSHA1Tests {
    /// RFC 2202 test cases 1 and 2.
    @Test func rfc2202Vectors() {
        let one = HMAC.sha1(key: [UInt8](repeating: 0x0B, count: 20), data: Array("Hi There".utf8))
        #expect(one == [UInt8](hex: "b617318655057264e28bc0b6fb378c8ef146be00"))
        let two = HMAC.sha1(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8))
        #expect(two == [UInt8](hex: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"))
    }
}
