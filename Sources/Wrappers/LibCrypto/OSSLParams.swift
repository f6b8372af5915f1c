internal import COpenSSL

/// Builds temporary `OSSL_PARAM` arrays for OpenSSL calls.
///
/// `OSSL_PARAM` stores pointers to its key, string and byte buffers without
/// copying them, so every buffer is copied into memory owned here that stays
/// valid for the duration of the closure. Byte buffers may hold secrets
/// (HKDF input keying material) and are cleansed before being released.
enum OSSLParams {
    /// One parameter.
    enum Value {
        /// A UTF-8 string parameter such as a digest name.
        case utf8(String, String)
        /// An octet-string parameter such as a key or salt.
        case octets(String, [UInt8])
    }

    /// Calls `body` with an `OSSL_PARAM_END`-terminated array for `values`.
    static func withParameters<R>(
        _ values: [Value], _ body: (UnsafePointer<OSSL_PARAM>) throws -> R
    ) rethrows -> R {
        var cStrings: [UnsafeMutablePointer<CChar>] = []
        var byteBuffers: [(UnsafeMutablePointer<UInt8>, Int)] = []
        defer {
            cStrings.forEach { $0.deallocate() }
            for (buffer, count) in byteBuffers {
                OPENSSL_cleanse(buffer, count)
                buffer.deallocate()
            }
        }
        func cString(_ string: String) -> UnsafeMutablePointer<CChar> {
            let utf8 = Array(string.utf8CString)
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
            pointer.initialize(from: utf8, count: utf8.count)
            cStrings.append(pointer)
            return pointer
        }
        var parameters: [OSSL_PARAM] = []
        for value in values {
            switch value {
            case .utf8(let key, let string):
                parameters.append(OSSL_PARAM_construct_utf8_string(cString(key), cString(string), 0))
            case .octets(let key, let bytes):
                // Never hand OpenSSL a null pointer, even for empty input.
                let capacity = max(bytes.count, 1)
                let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                buffer.initialize(repeating: 0, count: capacity)
                bytes.withUnsafeBufferPointer { source in
                    if let base = source.baseAddress { buffer.update(from: base, count: bytes.count) }
                }
                byteBuffers.append((buffer, capacity))
                parameters.append(OSSL_PARAM_construct_octet_string(cString(key), buffer, bytes.count))
            }
        }
        parameters.append(OSSL_PARAM_construct_end())
        return try parameters.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
