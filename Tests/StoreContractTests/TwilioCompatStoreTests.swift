import Foundation
import SQLiteStore
import Testing
import VerifyCore
import VerifyTesting

/// The Twilio-compatible records, on every store that keeps them (`TwilioCompatStore`).
@Suite struct TwilioCompatStoreTests {
    static let compatKinds: [StoreKind] = [.memory, .sqlite, .postgres]

    func make(_ kind: StoreKind) throws -> any TwilioCompatStore & OutboxStore {
        try #require(try kind.make() as? any TwilioCompatStore & OutboxStore)
    }

    func service(_ sid: String, account: String = "AC1", at offset: TimeInterval = 0, name: String = "Acme") -> TwilioCompatServiceRecord {
        var settings = TwilioCompatServiceSettings(friendlyName: name, codeLength: 6)
        settings.customCodeEnabled = true
        return TwilioCompatServiceRecord(sid: sid, accountSID: account, settings: settings, createdAt: t0.addingTimeInterval(offset), updatedAt: t0.addingTimeInterval(offset))
    }

    @Test(arguments: compatKinds) func servicesRoundTripListAndDelete(_ kind: StoreKind) throws {
        let store = try make(kind)
        try store.twilioCompatWrite { tx in
            try tx.saveTwilioCompatService(service("VA2", at: 2))
            try tx.saveTwilioCompatService(service("VA1", at: 1))
            try tx.saveTwilioCompatService(service("VA3", at: 3))
            try tx.saveTwilioCompatService(service("VA9", account: "AC2", at: 0))
        }
        #expect(try store.twilioCompatRead { try $0.twilioCompatService(sid: "VA1") } == service("VA1", at: 1))
        #expect(try store.twilioCompatRead { try $0.twilioCompatServices(accountSID: "AC1", offset: 0, limit: 10) }.map(\.sid) == ["VA1", "VA2", "VA3"])
        #expect(try store.twilioCompatRead { try $0.twilioCompatServices(accountSID: "AC1", offset: 1, limit: 1) }.map(\.sid) == ["VA2"])
        #expect(try store.twilioCompatRead { try $0.twilioCompatServices(accountSID: "AC2", offset: 0, limit: 10) }.map(\.sid) == ["VA9"])

        var changed = service("VA1", at: 1, name: "Renamed")
        changed.updatedAt = t0.addingTimeInterval(50)
        let renamed = changed
        try store.twilioCompatWrite { tx in try tx.saveTwilioCompatService(renamed) }
        let read = try #require(try store.twilioCompatRead { try $0.twilioCompatService(sid: "VA1") })
        #expect(read.settings.friendlyName == "Renamed")
        #expect(read.createdAt == t0.addingTimeInterval(1) && read.updatedAt == t0.addingTimeInterval(50))

        try store.twilioCompatWrite { tx in try tx.deleteTwilioCompatService(sid: "VA1") }
        #expect(try store.twilioCompatRead { try $0.twilioCompatService(sid: "VA1") } == nil)
    }

    @Test(arguments: compatKinds) func linksFindTheNewestVerificationOfANumber(_ kind: StoreKind) throws {
        let store = try make(kind)
        try store.twilioCompatWrite { tx in
            for (i, id) in ["ver_a", "ver_b", "ver_c"].enumerated() {
                try tx.insert(sample(id))
                try tx.linkTwilioCompatVerification(TwilioCompatVerificationLink(
                    verificationID: id, serviceSID: id == "ver_c" ? "VA2" : "VA1", accountSID: "AC1", to: "+15555550123",
                    createdAt: t0.addingTimeInterval(Double(i))))
            }
            var done = sample("ver_a")
            done.storedStatus = .approved
            try tx.update(done)
            try tx.enqueue(message("msg_2", for: "ver_b", at: t0.addingTimeInterval(2)))
            try tx.enqueue(message("msg_1", for: "ver_b", at: t0.addingTimeInterval(1)))
        }
        #expect(try store.twilioCompatRead { try $0.twilioCompatLatestVerificationID(serviceSID: "VA1", to: "+15555550123") } == "ver_b")
        #expect(try store.twilioCompatRead { try $0.twilioCompatLatestVerificationID(serviceSID: "VA1", to: "+15555550199") } == nil)
        #expect(try store.twilioCompatRead { try $0.twilioCompatPendingVerificationIDs(serviceSID: "VA1") } == ["ver_b"])
        #expect(try store.twilioCompatRead { try $0.twilioCompatLink(verificationID: "ver_c") }?.serviceSID == "VA2")
        let messages = try store.twilioCompatRead { try $0.twilioCompatMessages(verificationID: "ver_b") }
        #expect(Set(messages.map(\.id)) == ["msg_1", "msg_2"])
    }

    /// A write body reads its own compat writes (PostgreSQL buffers them until COMMIT).
    @Test(arguments: compatKinds) func aBodyReadsItsOwnCompatWrites(_ kind: StoreKind) throws {
        let store = try make(kind)
        try store.twilioCompatWrite { tx in
            try tx.insert(sample("ver_old"))
            try tx.linkTwilioCompatVerification(TwilioCompatVerificationLink(
                verificationID: "ver_old", serviceSID: "VA1", accountSID: "AC1", to: "+15555550123", createdAt: t0))
        }
        let first = try store.twilioCompatWrite { tx -> [String] in
            try tx.saveTwilioCompatService(service("VA1"))
            try tx.insert(sample("ver_new"))
            try tx.linkTwilioCompatVerification(TwilioCompatVerificationLink(
                verificationID: "ver_new", serviceSID: "VA1", accountSID: "AC1", to: "+15555550123",
                createdAt: t0.addingTimeInterval(5)))
            return [
                try tx.twilioCompatService(sid: "VA1")?.sid ?? "-",
                try tx.twilioCompatServices(accountSID: "AC1", offset: 0, limit: 10).map(\.sid).joined(separator: ","),
                try tx.twilioCompatLatestVerificationID(serviceSID: "VA1", to: "+15555550123") ?? "-",
                try tx.twilioCompatLink(verificationID: "ver_new")?.serviceSID ?? "-",
                try tx.twilioCompatPendingVerificationIDs(serviceSID: "VA1").sorted().joined(separator: ","),
            ]
        }
        #expect(first == ["VA1", "VA1", "ver_new", "VA1", "ver_new,ver_old"])
        let second = try store.twilioCompatWrite { tx -> [String] in
            var canceled = sample("ver_old")
            canceled.storedStatus = .canceled
            try tx.update(canceled)
            try tx.deleteTwilioCompatService(sid: "VA1")
            return [
                try tx.twilioCompatService(sid: "VA1")?.sid ?? "-",
                try tx.twilioCompatServices(accountSID: "AC1", offset: 0, limit: 10).map(\.sid).joined(separator: ","),
                try tx.twilioCompatPendingVerificationIDs(serviceSID: "VA1").joined(separator: ","),
            ]
        }
        #expect(second == ["-", "", "ver_new"])
    }

    @Test(arguments: compatKinds) func aThrowingBodyLeavesNothing(_ kind: StoreKind) throws {
        let store = try make(kind)
        #expect(throws: Boom.self) {
            try store.twilioCompatWrite { tx in
                try tx.saveTwilioCompatService(service("VA1"))
                throw Boom()
            }
        }
        #expect(try store.twilioCompatRead { try $0.twilioCompatService(sid: "VA1") } == nil)
    }

    /// A resend may change the code length (a custom code of another length): the store keeps it.
    @Test(arguments: compatKinds) func updateKeepsTheCodeLength(_ kind: StoreKind) throws {
        let store = try make(kind)
        try store.write { tx in try tx.insert(sample("ver_1")) }
        var changed = sample("ver_1")
        changed.codeLength = 9
        let updated = changed
        try store.write { tx in try tx.update(updated) }
        #expect(try store.read { try $0.verification(id: "ver_1") }?.codeLength == 9)
    }

    @Test(arguments: compatKinds) func purgeDropsLinksOfPurgedVerifications(_ kind: StoreKind) throws {
        let store = try make(kind)
        try store.twilioCompatWrite { tx in
            try tx.insert(sample("ver_old", expires: 10))
            try tx.linkTwilioCompatVerification(TwilioCompatVerificationLink(
                verificationID: "ver_old", serviceSID: "VA1", accountSID: "AC1", to: "+15555550123", createdAt: t0))
        }
        _ = try store.purge(endedBefore: t0.addingTimeInterval(3600))
        #expect(try store.twilioCompatRead { try $0.twilioCompatLink(verificationID: "ver_old") } == nil)
    }
}
