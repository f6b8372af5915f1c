import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// The events of docs/EVENTS.md are written with the changes they report, never hold a code, are
/// filtered by type, and a failure or a pause is reported once.
@Suite struct EventRecorderTests {
    func service(_ types: Set<EventType>? = Set(EventType.allCases), fraud: FraudPolicy = FraudPolicy()) throws -> TestService {
        TestService(
            protection: AbuseProtection(
                limits: try RateLimits.defaults.overridden(by: "prefix_send=off;phone_send=off;ip_send=off;ip_check=off"), fraud: fraud),
            eventTypes: types)
    }

    func data(_ event: WebhookEvent) throws -> JSONValue {
        let body = try JSONValue.parse(Array(event.body.utf8))
        #expect(body["type"]?.stringValue == event.type.rawValue)
        #expect(body["timestamp"]?.stringValue == RFC3339.format(event.createdAt))
        return try #require(body["data"])
    }

    @Test func theLifecycleIsReportedWithoutCodes() throws {
        let t = try service()
        let approved = try t.service.start(StartRequest(phoneNumber: "+15555550123", subject: "user-1")).verification
        let code = try t.lastCode(for: approved.id)
        _ = try t.service.check(id: approved.id, code: code)
        let canceled = try t.service.start(StartRequest(phoneNumber: "+15555550124")).verification
        _ = try t.service.cancel(id: canceled.id)
        _ = try t.service.cancel(id: canceled.id)  // already canceled: nothing new
        let events = t.store.events
        #expect(events.map(\.type) == [.verificationStarted, .verificationApproved, .verificationStarted, .verificationCanceled])
        #expect(Set(events.map(\.id)).count == 4)
        let started = try data(events[0])
        #expect(started["verification_id"]?.stringValue == approved.id)
        #expect(started["phone_number"]?.stringValue == "+15555550123")
        #expect(started["subject"]?.stringValue == "user-1" && started["purpose"]?.stringValue == "sign_in")
        for event in events { #expect(!event.body.contains(code) && !event.body.contains("\"code\"")) }
    }

    @Test func aFailureIsReportedOnceWhetherByAttemptsOrExpiry() throws {
        let t = try service()
        let guessed = try t.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        let wrong = try t.lastCode(for: guessed.id) == "000000" ? "111111" : "000000"
        for _ in 0..<7 { _ = try? t.service.check(id: guessed.id, code: wrong) }
        let expired = try t.service.start(StartRequest(phoneNumber: "+15555550124")).verification
        t.clock.advance(3600)
        for _ in 0..<3 { _ = try? t.service.check(id: expired.id, code: wrong) }
        let failed = t.store.events.filter { $0.type == .verificationFailed }
        #expect(failed.count == 2)
        #expect(try data(failed[0])["reason"]?.stringValue == "max_attempts_reached")
        #expect(try data(failed[0])["verification_id"]?.stringValue == guessed.id)
        #expect(try data(failed[1])["reason"]?.stringValue == "expired")
        #expect(try data(failed[1])["verification_id"]?.stringValue == expired.id)
        // Canceling a verification that already ended reports no second terminal event.
        _ = try t.service.cancel(id: guessed.id)
        _ = try t.service.cancel(id: expired.id)
        #expect(!t.store.events.contains { $0.type == .verificationCanceled })
    }

    @Test func onlyTheListedTypesAreWrittenAndNoneWhenOff() throws {
        let some = try service([.verificationApproved])
        let v = try some.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        _ = try some.service.check(id: v.id, code: try some.lastCode(for: v.id))
        #expect(some.store.events.map(\.type) == [.verificationApproved])

        let off = try service(nil)
        let w = try off.service.start(StartRequest(phoneNumber: "+15555550123")).verification
        _ = try off.service.check(id: w.id, code: try off.lastCode(for: w.id))
        #expect(off.store.events.isEmpty)
    }

    @Test func aPausedBlockIsReportedOncePerWindow() throws {
        var fraud = FraudPolicy()
        fraud.minSends = 3
        fraud.watchSends = 100
        let t = try service(fraud: fraud)
        for n in 0..<3 { _ = try t.service.start(StartRequest(phoneNumber: "+1666555\(String(format: "%04d", n))")) }
        for n in 0..<4 {
            #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: "+1666555\(String(format: "%04d", 9000 + n))")) }
        }
        var paused = t.store.events.filter { $0.type == .fraudPaused }
        #expect(paused.count == 1)
        let pause = try data(try #require(paused.first))
        #expect(pause["scope"]?.stringValue == "prefix" && pause["key"]?.stringValue == "+1666555")
        #expect(pause["window_seconds"]?.intValue == 3600)
        // The next window, paused again (the sends are still counted): a new event.
        t.clock.advance(3600)
        for n in 0..<3 { _ = try? t.service.start(StartRequest(phoneNumber: "+1666555\(String(format: "%04d", 100 + n))")) }
        _ = try? t.service.start(StartRequest(phoneNumber: "+16665559999"))
        paused = t.store.events.filter { $0.type == .fraudPaused }
        #expect(paused.count == 2 && Set(paused.map(\.id)).count == 2)
    }

    @Test func factorsAreReported() throws {
        let t = try service()
        let mfa = MFAService(
            verifications: t.service, store: t.store, clock: t.clock, random: t.random,
            issuer: CredentialIssuer(issuer: "http://issuer.test", audience: "main-auth", keys: FakeSigner(), random: t.random))
        let alice = Principal(subject: "user-alice", sessionID: "s", authenticationMethods: ["pwd"])
        let enrollment = try mfa.enroll(alice, phoneNumber: "+15555550123", defaultRegion: nil, locale: nil, clientIP: "x").verification
        let factor = try mfa.confirm(alice, enrollmentID: enrollment.id, code: try t.lastCode(for: enrollment.id), clientIP: "x")
        _ = try mfa.deleteFactor(subject: "user-alice", id: factor.id)
        let events = t.store.events.filter { $0.type == .factorEnrolled || $0.type == .factorDeleted }
        #expect(events.map(\.type) == [.factorEnrolled, .factorDeleted])
        for event in events {
            let d = try data(event)
            #expect(d["factor_id"]?.stringValue == factor.id && d["subject"]?.stringValue == "user-alice")
            #expect(d["phone_number"]?.stringValue == "+15555550123")
        }
        #expect(try data(events[0])["imported"]?.boolValue == false)
    }

    @Test func anImportedFactorIsReportedAsImported() throws {
        let t = try service()
        let mfa = MFAService(
            verifications: t.service, store: t.store, clock: t.clock, random: t.random,
            issuer: CredentialIssuer(issuer: "http://issuer.test", audience: "main-auth", keys: FakeSigner(), random: t.random))
        let factor = try mfa.importFactor(subject: "user-alice", phoneNumber: "+15555550123", displayName: "Work phone")
        let event = try #require(t.store.events.first { $0.type == .factorEnrolled })
        let d = try data(event)
        #expect(d["factor_id"]?.stringValue == factor.id && d["imported"]?.boolValue == true)
        #expect(t.store.messages.isEmpty)  // no code was sent
    }

    @Test func aSendsOutcomeBecomesADeliveryEvent() throws {
        let recorder = EventRecorder(random: SeededRandom(seed: 3))
        var message = OutboxMessage(
            id: "msg_1", verificationID: "ver_1", to: "+15555550123", purpose: .signIn, sealedPayload: [], createdAt: .init(),
            updatedAt: .init(), nextAttemptAt: .init(), expiresAt: .init())
        message.channel = .call  // e.g. a voice fallback after SMS failed
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        func outcome(_ status: DeliveryStatus) -> OutboxOutcome {
            OutboxOutcome(messageID: "msg_1", status: status, gateway: "twilio", providerMessageID: "SM1", lastError: nil,
                          nextAttemptAt: nil, attempts: 1, at: at)
        }
        #expect(recorder.delivery(message, outcome: outcome(.queued)) == nil)  // a retry says nothing
        let event = try #require(recorder.delivery(message, outcome: outcome(.sent)))
        let d = try data(event)
        #expect(d["status"]?.stringValue == "sent" && d["gateway"]?.stringValue == "twilio")
        #expect(d["provider_message_id"]?.stringValue == "SM1" && d["message_id"]?.stringValue == "msg_1")
        #expect(d["channel"]?.stringValue == "call")
        #expect(!event.body.contains("+15555550123"))
    }
}
