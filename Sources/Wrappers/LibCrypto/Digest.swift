internal import COpenSSL

/// Message digests.
public enum Digest {
    /// The 32-byte SHA-256 digest of `data`.
    public static func sha256(_ data: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { output, initialized in
            var length: UInt32 = 0
            let result = data.withUnsafeBytes { input in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length,
                           FetchedAlgorithm.sha256.handle, nil)
            }
            // SHA-256 over memory cannot fail short of memory exhaustion or a
            // broken OpenSSL; neither is recoverable for a non-throwing digest.
            guard result == 1, length == 32 else {
                fatalError("Digest.sha256: \(OpenSSL.error("EVP_Digest"))")
            }
            initialized = 32
        }
    }
}
