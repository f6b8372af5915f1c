import Foundation
import VerifyCore

/// Services (`VA…`): settings owned by one account, which drive its verifications.
extension TwilioCompatService {
    /// Settings of a new service: the policy's code length until told otherwise.
    public func defaultSettings(friendlyName: String) -> TwilioCompatServiceSettings {
        TwilioCompatServiceSettings(friendlyName: friendlyName, codeLength: verifications.policy.codeLength)
    }

    public func createService(accountSID: String, settings: TwilioCompatServiceSettings) throws -> TwilioCompatServiceRecord {
        try Self.validate(settings)
        if settings.customCodeEnabled { try requireCustomCodes(accountSID: accountSID, parameter: "CustomCodeEnabled") }
        let now = clock.now()
        let service = TwilioCompatServiceRecord(
            sid: verifications.random.identifier(prefix: "VA"), accountSID: accountSID, settings: settings, createdAt: now,
            updatedAt: now)
        try store.twilioCompatWrite { tx in try tx.saveTwilioCompatService(service) }
        return service
    }

    /// The account's service, or `not_found` (another account's services do not exist for it).
    public func service(sid: String, accountSID: String) throws -> TwilioCompatServiceRecord {
        let found = try store.twilioCompatRead { try $0.twilioCompatService(sid: sid) }
        guard let found, found.accountSID == accountSID else { throw Self.serviceNotFound }
        return found
    }

    /// One page of the account's services, and whether another page follows.
    public func services(accountSID: String, page: Int, pageSize: Int) throws -> (services: [TwilioCompatServiceRecord], more: Bool) {
        let (offset, overflow) = page.multipliedReportingOverflow(by: pageSize)
        guard !overflow else { return ([], false) }
        let rows = try store.twilioCompatRead { try $0.twilioCompatServices(accountSID: accountSID, offset: offset, limit: pageSize + 1) }
        return (Array(rows.prefix(pageSize)), rows.count > pageSize)
    }

    public func updateService(
        sid: String, accountSID: String, _ change: @escaping @Sendable (inout TwilioCompatServiceSettings) throws -> Void
    ) throws -> TwilioCompatServiceRecord {
        let now = clock.now()
        return try store.twilioCompatWrite { tx -> TwilioCompatServiceRecord in
            guard var service = try tx.twilioCompatService(sid: sid), service.accountSID == accountSID else { throw Self.serviceNotFound }
            let before = service.settings
            try change(&service.settings)
            try Self.validate(service.settings)
            // Turning custom codes on needs the operator's consent; a service that has them on from
            // before keeps its other settings changeable (its custom codes are refused at start).
            if service.settings.customCodeEnabled && !before.customCodeEnabled {
                try requireCustomCodes(accountSID: accountSID, parameter: "CustomCodeEnabled")
            }
            service.updatedAt = now
            try tx.saveTwilioCompatService(service)
            return service
        }
    }

    /// Deletes a service; its pending verifications are canceled (their codes stop working).
    public func deleteService(sid: String, accountSID: String) throws {
        let now = clock.now()
        let recorder = verifications.eventRecorder
        let canceled = try store.twilioCompatWrite { tx -> [String] in
            guard let service = try tx.twilioCompatService(sid: sid), service.accountSID == accountSID else { throw Self.serviceNotFound }
            var canceled: [String] = []
            for id in try tx.twilioCompatPendingVerificationIDs(serviceSID: sid) {
                guard var v = try tx.verification(id: id), Self.purposes.contains(v.purpose), v.storedStatus == .pending else { continue }
                v.storedStatus = .canceled
                try tx.update(v)
                try recorder?.canceled(v, at: now, in: tx)
                try tx.supersedeQueuedMessages(verificationID: id, reason: "verification service deleted", now: now)
                canceled.append(id)
            }
            try tx.deleteTwilioCompatService(sid: sid)
            return canceled
        }
        for id in canceled { verifications.notifier.messagesSuperseded(verificationID: id) }
    }

    /// Whether the operator allows this account custom codes.
    public func allowsCustomCodes(accountSID: String) -> Bool { customCodeAccounts.contains(accountSID) }

    /// A custom code lets the caller choose the code for any number: only accounts the operator
    /// lists may use them, whatever a service says.
    public func requireCustomCodes(accountSID: String, parameter: String) throws {
        guard allowsCustomCodes(accountSID: accountSID) else {
            throw Self.invalid(
                parameter, "custom codes are not enabled for this account (the operator's PHONE_VERIFY_TWILIO_COMPAT_CUSTOM_CODE_ACCOUNTS)")
        }
    }

    static func validate(_ settings: TwilioCompatServiceSettings) throws {
        guard CodeGenerator.allowedLengths.contains(settings.codeLength) else {
            throw invalid("CodeLength", "must be an integer from 4 to 10")
        }
    }
}
