import Foundation
import VerifyCore

extension InMemoryStore: TwilioCompatStore {}

extension InMemoryStore.Transaction: TwilioCompatTransaction {
    func twilioCompatService(sid: String) throws -> TwilioCompatServiceRecord? { state.twilioCompatServices[sid] }

    func twilioCompatServices(accountSID: String, offset: Int, limit: Int) throws -> [TwilioCompatServiceRecord] {
        let sorted = state.twilioCompatServices.values.filter { $0.accountSID == accountSID }
            .sorted { ($0.createdAt, $0.sid) < ($1.createdAt, $1.sid) }
        return Array(sorted.dropFirst(offset).prefix(limit))
    }

    func twilioCompatLink(verificationID: String) throws -> TwilioCompatVerificationLink? {
        state.twilioCompatLinks.first { $0.verificationID == verificationID }
    }

    func twilioCompatLatestVerificationID(serviceSID: String, to: String) throws -> String? {
        state.twilioCompatLinks.filter { $0.serviceSID == serviceSID && $0.to == to }
            .max { ($0.createdAt, $0.verificationID) < ($1.createdAt, $1.verificationID) }?.verificationID
    }

    func twilioCompatPendingVerificationIDs(serviceSID: String) throws -> [String] {
        state.twilioCompatLinks.filter { $0.serviceSID == serviceSID && state.verifications[$0.verificationID]?.storedStatus == .pending }
            .map(\.verificationID)
    }

    func twilioCompatMessages(verificationID: String) throws -> [OutboxMessage] {
        state.messages.filter { $0.verificationID == verificationID }
    }

    func saveTwilioCompatService(_ service: TwilioCompatServiceRecord) throws { state.twilioCompatServices[service.sid] = service }

    func deleteTwilioCompatService(sid: String) throws { state.twilioCompatServices[sid] = nil }

    func linkTwilioCompatVerification(_ link: TwilioCompatVerificationLink) throws {
        guard !state.twilioCompatLinks.contains(where: { $0.verificationID == link.verificationID }) else { throw InMemoryStore.Duplicate() }
        state.twilioCompatLinks.append(link)
    }
}
