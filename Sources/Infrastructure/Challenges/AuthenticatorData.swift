/// WebAuthn authenticator data as App Attest uses it (Apple, "Validating apps that connect to
/// your server"): RP ID hash (32) ‖ flags (1) ‖ counter (4, big-endian) ‖ when the AT flag is set,
/// aaguid (16) ‖ credential id length (2) ‖ credential id ‖ credential public key (COSE).
struct AuthenticatorData: Sendable {
    let rpIDHash: [UInt8]
    let flags: UInt8
    let counter: UInt32
    /// Present when the attested-credential-data flag (0x40) is set.
    let aaguid: [UInt8]?
    let credentialID: [UInt8]?

    static let attestedCredentialFlag: UInt8 = 0x40

    /// nil when `bytes` is too short. `withCredential`: an attestation's, whose attested
    /// credential data must be there; an assertion's has none, although Apple's devices set the
    /// AT flag in it too (seen in real assertions), so only its first 37 bytes are read.
    init?(_ bytes: [UInt8], withCredential: Bool) {
        guard bytes.count >= 37 else { return nil }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        counter = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard withCredential, flags & Self.attestedCredentialFlag != 0 else {
            aaguid = nil
            credentialID = nil
            return
        }
        guard bytes.count >= 55 else { return nil }
        aaguid = Array(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        guard length <= bytes.count - 55 else { return nil }
        credentialID = Array(bytes[55..<55 + length])
    }
}
