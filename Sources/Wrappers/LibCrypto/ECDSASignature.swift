internal import COpenSSL

/// Conversions between OpenSSL's DER `ECDSA-Sig-Value` and the fixed-size
/// raw `r || s` form that JWS ES256 uses (RFC 7518 §3.4). Public for protocols that carry DER
/// signatures (App Attest assertions) and for tests that build them.
public enum ECDSASignature {
    /// Byte length of each of `r` and `s` on P-256.
    static let scalarByteCount = 32

    /// DER → 64-byte `r || s`, each left-padded to 32 bytes.
    public static func raw(fromDER der: [UInt8]) throws -> [UInt8] {
        let signature = try der.withUnsafeBufferPointer { bytes in
            try OpenSSL.unwrap(shim_d2i_ECDSA_SIG(bytes.baseAddress, bytes.count), "d2i_ECDSA_SIG")
        }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var output = [UInt8](repeating: 0, count: 2 * scalarByteCount)
        let written = output.withUnsafeMutableBufferPointer { buffer -> (Int32, Int32) in
            let base = buffer.baseAddress!
            return (BN_bn2binpad(r, base, Int32(scalarByteCount)),
                    BN_bn2binpad(s, base + scalarByteCount, Int32(scalarByteCount)))
        }
        guard written == (Int32(scalarByteCount), Int32(scalarByteCount)) else {
            throw OpenSSL.error("BN_bn2binpad(ECDSA r/s)")
        }
        return output
    }

    /// 64-byte `r || s` → DER, or `nil` if `raw` is not 64 bytes or OpenSSL fails.
    public static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 2 * scalarByteCount, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = raw.withUnsafeBufferPointer { bytes in
            (BN_bin2bn(bytes.baseAddress, Int32(scalarByteCount), nil),
             BN_bin2bn(bytes.baseAddress! + scalarByteCount, Int32(scalarByteCount), nil))
        }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            // On failure ECDSA_SIG_set0 has not taken ownership.
            BN_free(r)
            BN_free(s)
            return nil
        }
        // A P-256 ECDSA-Sig-Value is at most 72 bytes of DER.
        var output = [UInt8](repeating: 0, count: 80)
        let length = shim_i2d_ECDSA_SIG(signature, &output, Int32(output.count))
        guard length > 0 else { return nil }
        return Array(output.prefix(Int(length)))
    }
}
