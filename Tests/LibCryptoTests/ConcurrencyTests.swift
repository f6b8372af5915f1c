import LibCrypto
import Testing

@Suite("Concurrent use")
struct ConcurrencyTests {
    /// One shared key per algorithm, signed with and verified from 16 tasks at
    /// once (at least as many threads as the cooperative pool has cores).
    @Test(arguments: SigningAlgorithm.allCases)
    func signingFromManyThreads(_ algorithm: SigningAlgorithm) async throws {
        let key = try SigningKey.generate(algorithm)
        let verifier = try key.verifyingKey()
        let iterations = algorithm == .rs256 ? 10 : 50
        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0..<16 {
                group.addTask {
                    var failed = 0
                    for index in 0..<iterations {
                        let message = utf8("task \(task) message \(index)")
                        guard let signature = try? key.sign(message),
                              verifier.verify(signature: signature, message: message),
                              !verifier.verify(signature: signature, message: message + [0])
                        else { failed += 1; continue }
                    }
                    return failed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    @Test func symmetricPrimitivesFromManyThreads() async throws {
        let key = SecureRandom.bytes(32)
        let expectedMAC = HMAC.sha256(key: key, data: utf8("data"))
        let prepared = HMACKey(sha256Key: key)
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var failed = 0
                    for index in 0..<200 {
                        let plaintext = utf8("message \(index)")
                        let opened = try? AESGCM.open(AESGCM.seal(plaintext, key: key), key: key)
                        if opened != plaintext { failed += 1 }
                        if HMAC.sha256(key: key, data: utf8("data")) != expectedMAC { failed += 1 }
                        if prepared.mac(utf8("data")) != expectedMAC { failed += 1 }
                        if (try? HKDF.sha256(secret: key, salt: [], info: [1], length: 32))?.count != 32 { failed += 1 }
                    }
                    return failed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
