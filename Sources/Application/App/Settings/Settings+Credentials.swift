import SettingsTable

/// The credentials section of the settings table (read by `Configuration.readCredentials`).
extension Settings {
    public static let issuer = Setting<String>(
        "PHONE_VERIFY_ISSUER", .credentials, .text, default: "http://<listen>",
        "credential iss, and the base of the discovery document's URLs",
        production: .required(reason: " (the URL verifiers know this service by)"))

    public static let audience = Setting<String>(
        "PHONE_VERIFY_AUDIENCE", .credentials, .text, defaultsTo: "main-auth",
        "credential aud")

    public static let credentialTTL = Setting<Int>(
        "PHONE_VERIFY_CREDENTIAL_TTL", .credentials, .int(30...86_400), defaultsTo: 300,
        "credential lifetime, seconds")

    public static let signingKeyFile = Setting<String>(
        "PHONE_VERIFY_SIGNING_KEY_FILE", .credentials, .text, default: "generated in dev (<data dir>/signing-key.pem)",
        "PEM private key (Ed25519, P-256 or RSA); required in production",
        production: .required())

    public static let keyRefresh = Setting<Int>(
        "PHONE_VERIFY_KEY_REFRESH", .credentials, .int(1...3600), defaultsTo: 30,
        "seconds between rereads of the published keys; a key activated by `phone-verify keys rotate` is published by every replica within this time and signed with one interval later (in production, once the replica's key file holds it)")

    public static let signingAlgorithm = Setting<String>(
        "PHONE_VERIFY_SIGNING_ALGORITHM", .credentials, .oneOf(["EdDSA", "ES256", "RS256"]), defaultsTo: "ES256",
        "algorithm of a generated key (development, and `keys rotate` without a key file): ES256 (verified by every JWT library), EdDSA or RS256; an existing key keeps its algorithm until rotated")

    static let credentialsSection: [any SettingEntry] = [issuer, audience, credentialTTL, signingKeyFile, keyRefresh, signingAlgorithm]
}
