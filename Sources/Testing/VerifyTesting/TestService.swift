import Foundation
import VerifyCore

/// A `VerificationService` on fakes, with handles on each fake.
public struct TestService {
    public let service: VerificationService
    public let store: InMemoryStore
    public let clock: ManualClock
    public let random: SeededRandom
    public let notifier: CountingNotifier
    public let events: RecordingEvents

    /// `challenges`: the mode and providers of a challenge gate whose ledger is the store.
    public init(
        policy: VerificationPolicy = VerificationPolicy(), protection: AbuseProtection = AbuseProtection(), seed: UInt64 = 7,
        challenges: (mode: ChallengeMode, verifiers: [any ChallengeVerifier])? = nil, challengePolicy: ChallengePolicy = ChallengePolicy(),
        eventTypes: Set<EventType>? = nil
    ) {
        store = InMemoryStore()
        clock = ManualClock()
        random = SeededRandom(seed: seed)
        notifier = CountingNotifier()
        events = RecordingEvents()
        service = VerificationService(
            store: store, parser: FakePhoneParser(), hasher: FakeHasher(), sealer: FakeSealer(), random: random,
            clock: clock, policy: policy, composer: TemplateComposer(), notifier: notifier,
            issuer: CredentialIssuer(issuer: "http://issuer.test", audience: "main-auth", keys: FakeSigner(), random: random),
            protection: protection, events: events,
            challenges: challenges.map { [store, events] in ChallengeGate(mode: $0.mode, verifiers: $0.verifiers, ledger: store, events: events) } ?? .off,
            challengePolicy: challengePolicy,
            eventRecorder: eventTypes.map { [random] in EventRecorder(types: $0, random: random, fraudWindow: protection.fraud.policy.window) })
    }

    /// The code inside the newest queued message of a verification (tests read it like a phone would).
    public func lastCode(for verificationID: String) throws -> String {
        guard let message = store.messages.last(where: { $0.verificationID == verificationID }) else {
            throw NoMessage()
        }
        let payload = try JSONDecoder().decode(MessagePayload.self, from: Data(try FakeSealer().open(message.sealedPayload)))
        return payload.code
    }

    struct NoMessage: Error {}
}
