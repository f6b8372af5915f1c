import CurlClient
import Telemetry
import VerifyCore

/// Builds the enabled challenge providers (`PHONE_VERIFY_CHALLENGE_PROVIDERS`, in that order)
/// and the gate that asks for them.
enum ChallengeFactory {
    struct Parts {
        let configuration: Configuration
        let ledger: any ChallengeLedger
        let clock: any Clock
        let random: any RandomSource
        /// A secret of this deployment for server nonces (derived from the code secret).
        let nonceKey: [UInt8]
        let logger: Logger
    }

    static func gate(_ parts: Parts, events: any EventSink) throws -> ChallengeGate {
        let c = parts.configuration
        guard !c.challenges.providers.isEmpty else { return .off }
        // Each provider's URL setting already requires https in production, except on loopback
        // (a local verifier or sidecar), so the client itself allows both.
        let http = HTTPClient(configuration: HTTPClientConfiguration(connectTimeout: 3, totalTimeout: 5, allowedSchemes: ["https", "http"]))
        var verifiers: [any ChallengeVerifier] = []
        for name in c.challenges.providers {
            switch name {
            case "turnstile", "hcaptcha", "recaptcha": verifiers += try siteVerifyVerifiers(name, parts, http: http)
            case "app_attest": verifiers += try appAttestVerifiers(parts)
            case "play_integrity": verifiers += try playIntegrityVerifiers(parts, http: http)
            case "grant": verifiers += try grantVerifiers(parts, http: http)
            default: break
            }
        }
        return ChallengeGate(mode: c.challenges.effectiveMode, verifiers: verifiers, ledger: parts.ledger, events: events)
    }
}
