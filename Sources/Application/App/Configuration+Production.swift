import Foundation

extension Configuration {
    /// What production mode requires on top of a valid configuration.
    func checkProduction(_ reader: inout SettingReader) {
        if signingKeyFile == nil { reader.problem("PHONE_VERIFY_SIGNING_KEY_FILE", "is required in production mode") }
        if codeSecret == nil { reader.problem("PHONE_VERIFY_CODE_SECRET", "is required in production mode") }
        // Otherwise `iss` and `jwks_uri` are derived from the listen address (http://0.0.0.0:8080
        // in the image), which no verifier can use.
        if issuer == nil { reader.problem("PHONE_VERIFY_ISSUER", "is required in production mode (the URL verifiers know this service by)") }
        if gateways.contains("console") { reader.problem("PHONE_VERIFY_GATEWAYS", "the console sink is refused in production mode") }
        // Codes, the Twilio token and the Vonage secret travel in these requests.
        // Standard Webhooks: keys of 24 to 64 bytes; a short one can be guessed offline from one signature.
        if let secret = webhook?.secret {
            let key = secret.hasPrefix("whsec_") ? Data(base64Encoded: String(secret.dropFirst(6))).map(Array.init) ?? [] : Array(secret.utf8)
            if key.count < 24 { reader.problem("PHONE_VERIFY_WEBHOOK_SECRET", "must hold a key of at least 24 bytes in production mode") }
        }
        // The JWKS of the main auth server decides which session tokens are genuine.
        for (name, url) in [("PHONE_VERIFY_TWILIO_BASE_URL", twilio?.baseURL), ("PHONE_VERIFY_VONAGE_BASE_URL", vonage?.baseURL),
                            ("PHONE_VERIFY_WEBHOOK_URL", webhook?.url), ("PHONE_VERIFY_AUTH_CORE_JWKS_URL", authCore.jwksURL)] {
            if let url, !SettingReader.isHTTPSOrLoopback(url) {
                reader.problem(name, "must be https in production mode (plain http only to a loopback address)")
            }
        }
        if authCore.isConfigured && authCore.issuer == nil {
            reader.problem("PHONE_VERIFY_AUTH_CORE_ISSUER", "is required in production mode when MFA is configured")
        }
        // docs/MFA.md: session tokens are checked for `aud` too. Without it, any token of the main
        // auth server (an ID token minted for a third-party client) would pass as a session.
        if authCore.isConfigured && authCore.audience == nil {
            reader.problem("PHONE_VERIFY_AUTH_CORE_AUDIENCE", "is required in production mode when MFA is configured")
        }
        if !testNumbers.isEmpty && testNumbers.expiresAt == nil {
            reader.problem("PHONE_VERIFY_TEST_NUMBERS_EXPIRE_AT", "is required in production mode when PHONE_VERIFY_TEST_NUMBERS is set")
        }
    }
}
