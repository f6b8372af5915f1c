import App
import Foundation
import Testing

/// Production refuses API keys a guesser could find: short, few characters, a repeated piece,
/// under 128 bits; development takes them (with the 16-character minimum).
@Suite struct APIKeyStrengthTests {
    static let strong = "9f86d081884c7d659a2feaa0c55ad015"  // openssl rand -hex 16
    static let strongBase64 = "q2Xv8LrT0mWb5ZkP1yNc4HdJ7sFgAeUi"

    @Test(arguments: [
        ("PHONE_VERIFY_ADMIN_API_KEYS", "admin-key-0123456789abcdef"),
        ("PHONE_VERIFY_ADMIN_API_KEYS", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
        ("PHONE_VERIFY_INTROSPECTION_API_KEYS", "abcdabcdabcdabcdabcdabcdabcdabcdabcd"),
        ("PHONE_VERIFY_INTROSPECTION_API_KEYS", "12345678901234567890123456789012345678"),
        ("PHONE_VERIFY_SCOPED_API_KEYS", "read=passwordpasswordpassword1234"),
        ("PHONE_VERIFY_ADMIN_API_KEYS", "83920174659203847561029384756102"),  // 32 decimal digits: 106 bits
    ])
    func weakKeysAreRefusedInProduction(name: String, key: String) {
        let found = problems(["PHONE_VERIFY_MODE": "production", name: key])
        #expect(found.contains { $0.hasPrefix(name + " has keys too weak for production mode (entry 1: ") }, "\(found)")
        #expect(!found.joined().contains(key.split(separator: "=").last.map(String.init) ?? key))
        #expect(!problems([name: key]).contains { $0.contains("too weak") })
    }

    @Test func randomKeysPass() {
        let found = problems([
            "PHONE_VERIFY_MODE": "production", "PHONE_VERIFY_ADMIN_API_KEYS": Self.strong + "," + Self.strongBase64,
            "PHONE_VERIFY_SCOPED_API_KEYS": "read=" + Self.strongBase64,
        ])
        #expect(!found.contains { $0.contains("too weak") }, "\(found)")
    }
}
