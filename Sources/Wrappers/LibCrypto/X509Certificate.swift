import Encoding
import Foundation
internal import COpenSSL

/// A parsed X.509 certificate (DER), enough to check an attestation chain: its extensions by
/// OID, its public key, and verification of a chain to a trusted root at a chosen time.
///
/// The instance owns one `X509` and frees it in `deinit`. `@unchecked Sendable` is safe: the
/// `X509` is never modified after the initializer, and every verification builds its own store
/// and context.
public final class X509Certificate: @unchecked Sendable {
    /// The owned `X509 *`.
    let x509: OpaquePointer
    /// The certificate as given.
    public let der: [UInt8]

    /// The largest certificate accepted (real ones are a few KiB).
    public static let maxDERLength = 64 * 1024

    /// Parses one DER certificate; trailing bytes are refused.
    /// - Throws: ``CryptoError/invalidCertificate(_:)``.
    public init(der: [UInt8]) throws {
        guard !der.isEmpty, der.count <= Self.maxDERLength else {
            throw CryptoError.invalidCertificate("certificate of \(der.count) bytes")
        }
        let parsed = der.withUnsafeBufferPointer { shim_d2i_X509($0.baseAddress, $0.count) }
        guard let parsed else {
            OpenSSL.clearErrors()
            throw CryptoError.invalidCertificate("not a DER X.509 certificate")
        }
        self.x509 = parsed
        self.der = der
    }

    /// Parses the first "CERTIFICATE" block of PEM text.
    public convenience init(pem: String) throws {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(of: "-----BEGIN CERTIFICATE-----"),
            let end = lines[begin...].firstIndex(of: "-----END CERTIFICATE-----"),
            let der = Base64.decode(lines[(begin + 1)..<end].joined())
        else { throw CryptoError.invalidCertificate("not a PEM certificate") }
        try self.init(der: der)
    }

    deinit {
        X509_free(x509)
    }

    /// The DER content of the extension `oid` (dotted form, e.g. "1.2.840.113635.100.8.2"):
    /// the bytes inside its `extnValue` OCTET STRING; nil when the certificate has none.
    public func extensionValue(oid: String) throws -> [UInt8]? {
        guard let object = OBJ_txt2obj(oid, 1) else {
            OpenSSL.clearErrors()
            throw CryptoError.invalidArgument("not a dotted OID: \(oid.prefix(64))")
        }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(x509, object, -1)
        guard index >= 0, let ext = X509_get_ext(x509, index), let data = X509_EXTENSION_get_data(ext) else { return nil }
        let length = Int(ASN1_STRING_length(data))
        guard length > 0, let bytes = ASN1_STRING_get0_data(data) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    /// The subject public key (Ed25519, P-256 or RSA).
    public func publicKey() throws -> VerifyingKey {
        guard let pkey = X509_get_pubkey(x509) else { throw OpenSSL.error("X509_get_pubkey") }
        let algorithm: SigningAlgorithm
        do {
            algorithm = try PKey.algorithm(of: pkey)
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        return VerifyingKey(owning: pkey, algorithm: algorithm)
    }

    /// Verifies that `leaf` chains through `intermediates` to `root` (the only trust anchor) at
    /// `time`: signatures, validity periods, CA constraints and path length, as OpenSSL's
    /// `X509_verify_cert` checks them. No system roots, CRLs or network.
    /// - Throws: ``CryptoError/invalidCertificate(_:)`` with OpenSSL's reason.
    public static func verifyChain(leaf: X509Certificate, intermediates: [X509Certificate], root: X509Certificate, at time: Date) throws {
        let seconds = time.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 1e15 else { throw CryptoError.invalidArgument("verification time out of range") }
        guard let store = X509_STORE_new() else { throw OpenSSL.error("X509_STORE_new") }
        defer { X509_STORE_free(store) }
        try OpenSSL.check(X509_STORE_add_cert(store, root.x509), "X509_STORE_add_cert")
        guard let untrusted = shim_sk_X509_new_null() else { throw OpenSSL.error("sk_X509_new_null") }
        defer { shim_sk_X509_free(untrusted) }
        for certificate in intermediates where shim_sk_X509_push(untrusted, certificate.x509) <= 0 {
            throw OpenSSL.error("sk_X509_push")
        }
        guard let context = X509_STORE_CTX_new() else { throw OpenSSL.error("X509_STORE_CTX_new") }
        defer { X509_STORE_CTX_free(context) }
        try OpenSSL.check(X509_STORE_CTX_init(context, store, leaf.x509, untrusted), "X509_STORE_CTX_init")
        guard let parameters = X509_STORE_CTX_get0_param(context) else { throw OpenSSL.error("X509_STORE_CTX_get0_param") }
        X509_VERIFY_PARAM_set_time(parameters, time_t(seconds))
        // Only a verified result counts: 0 is a refusal, a negative value an internal error.
        let result = X509_verify_cert(context)
        let code = X509_STORE_CTX_get_error(context)
        OpenSSL.clearErrors()
        guard result == 1 else {
            let reason = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            throw CryptoError.invalidCertificate(reason)
        }
    }
}
