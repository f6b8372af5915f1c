import Foundation
import VerifyCore

extension InMemoryStore: TwilioCompatStore {}

extension InMemoryStore.Transaction: TwilioCompatTransaction {
    func compatService(sid: String) throws -> CompatService? { state.compatServices[sid] }

    func compatServices(accountSID: String, offset: Int, limit: Int) throws -> [CompatService] {
        let sorted = state.compatServices.values.filter { $0.accountSID == accountSID }
            .sorted { ($0.createdAt, $0.sid) < ($1.createdAt, $1.sid) }
        return Array(sorted.dropFirst(offset).prefix(limit))
    }

    func compatLink(verificationID: String) throws -> CompatVerificationLink? {
        state.compatLinks.first { $0.verificationID == verificationID }
    }

    func compatLatestVerificationID(serviceSID: String, to: String) throws -> String? {
        state.compatLinks.filter { $0.serviceSID == serviceSID && $0.to == to }
            .max { ($0.createdAt, $0.verificationID) < ($1.createdAt, $1.verificationID) }?.verificationID
    }

    func compatPendingVerificationIDs(serviceSID: String) throws -> [String] {
        state.compatLinks.filter { $0.serviceSID == serviceSID && state.verifications[$0.verificationID]?.storedStatus == .pending }
            .map(\.verificationID)
    }

    func compatMessages(verificationID: String) throws -> [OutboxMessage] {
        state.messages.filter { $0.verificationID == verificationID }
    }

    func saveCompatService(_ service: CompatService) throws { state.compatServices[service.sid] = service }

    func deleteCompatService(sid: String) throws { state.compatServices[sid] = nil }

    func linkCompatVerification(_ link: CompatVerificationLink) throws {
        guard !state.compatLinks.contains(where: { $0.verificationID == link.verificationID }) else { throw InMemoryStore.Duplicate() }
        state.compatLinks.append(link)
    }
}
