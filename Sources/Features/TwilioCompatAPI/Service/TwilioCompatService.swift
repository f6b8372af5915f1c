import Foundation
import VerifyCore

/// A verification as the Twilio-compatible API shows it: the verification, its service link and
/// its sends.
public struct TwilioCompatVerificationView: Sendable, Equatable {
    public let verification: Verification
    public let link: TwilioCompatVerificationLink
    /// One per send, oldest first (test numbers, which send nothing, have none).
    public let messages: [OutboxMessage]
    public let status: VerificationStatus
    /// When the answer was made, for `date_updated` of a change.
    public let updatedAt: Date

    public init(verification: Verification, link: TwilioCompatVerificationLink, messages: [OutboxMessage], status: VerificationStatus, updatedAt: Date) {
        self.verification = verification
        self.link = link
        self.messages = messages
        self.status = status
        self.updatedAt = updatedAt
    }
}

/// What a Twilio-compatible start asks for, beyond the service's settings.
public struct TwilioCompatSendRequest: Sendable {
    public var to: String
    /// `sms`, `whatsapp` or `call` (the API layer refuses Twilio's other channels).
    public var channel: String
    public var locale: String?
    public var customFriendlyName: String?
    public var customCode: String?
    public var appHash: String?
    public var clientIP: String

    public init(
        to: String, channel: String = "sms", locale: String? = nil, customFriendlyName: String? = nil, customCode: String? = nil,
        appHash: String? = nil, clientIP: String = ""
    ) {
        self.to = to
        self.channel = channel
        self.locale = locale
        self.customFriendlyName = customFriendlyName
        self.customCode = customCode
        self.appHash = appHash
        self.clientIP = clientIP
    }
}

/// The outcome of a Twilio-compatible check: the verification and whether the code was right.
public struct TwilioCompatCheckResult: Sendable, Equatable {
    public let view: TwilioCompatVerificationView
    public let valid: Bool
}

/// Twilio Verify v2 semantics over PhoneVerify's own lifecycle: services owned by accounts,
/// one pending verification per number and service (a repeat start sends that verification's
/// next code at once), and finished verifications that are no longer found. Everything else —
/// limits, fraud guard, outbox, gateways, metrics — is the `VerificationService`'s.
///
/// Refusals are `VerifyError`s; `invalid_request` ones name the Twilio parameter in
/// `details.field`, and the API layer turns them into Twilio's error codes.
public struct TwilioCompatService: Sendable {
    public let verifications: VerificationService
    let store: any TwilioCompatStore
    /// Accounts the operator allows custom codes (`PHONE_VERIFY_TWILIO_COMPAT_CUSTOM_CODE_ACCOUNTS`).
    let customCodeAccounts: Set<String>

    public init(verifications: VerificationService, store: any TwilioCompatStore, customCodeAccounts: Set<String> = []) {
        self.verifications = verifications
        self.store = store
        self.customCodeAccounts = customCodeAccounts
    }

    var clock: any Clock { verifications.clock }

    // MARK: Verifications

    /// Starts a verification of `request.to` by `request.channel`, or — when the service already
    /// has a pending one for that number — sends it a new code at once by that channel (it may
    /// switch: Twilio's repeat start names its channel each time; no resend cooldown; the previous
    /// code stops working; the sixth send is refused with `max_sends_reached`).
    public func send(_ request: TwilioCompatSendRequest, service: TwilioCompatServiceRecord) throws -> TwilioCompatVerificationView {
        let options = try sendOptions(request, service: service)
        try vetRefusedLineTypes(request.to, options: options)
        let to = normalized(request.to)
        // The account is the lockout's requester (its checks name no device), and a device it
        // names counts against that account's per-device quota, never a native client's of the
        // same address (found by an attack review: DeviceIp spent native clients' quotas).
        let requester = AbuseProtection.serverCaller(account: service.accountSID)
        let client = AbuseProtection.isServerCaller(request.clientIP) ? request.clientIP : service.accountSID + "/" + request.clientIP
        for _ in 0..<3 {
            if let id = try store.twilioCompatRead({ try $0.twilioCompatLatestVerificationID(serviceSID: service.sid, to: to) }) {
                do {
                    let outcome = try verifications.resend(
                        id: id, clientIP: client, purposes: Self.purposes, options: options, ignoringCooldown: true, requester: requester,
                        channel: request.channel)
                    return try view(id: outcome.verification.id, service: service)
                } catch let error as VerifyError where [.expired, .alreadyUsed, .maxAttemptsReached, .notFound].contains(error.code) {
                    // That verification is over: start a new one.
                }
            }
            do {
                return try startLinked(request, service: service, client: client, requester: requester, options: options)
            } catch is Raced {
                continue
            }
        }
        throw VerifyError(.unavailable, "too many concurrent requests for this number; try again")
    }

    /// The send's options from the request and the service's settings; refuses a custom code the
    /// operator or the service does not allow, or that is not 4 to 10 digits.
    private func sendOptions(_ request: TwilioCompatSendRequest, service: TwilioCompatServiceRecord) throws -> SendOptions {
        let settings = service.settings
        if request.customCode != nil { try requireCustomCodes(accountSID: service.accountSID, parameter: "CustomCode") }
        if request.customCode != nil && !settings.customCodeEnabled {
            throw Self.invalid("CustomCode", "custom codes are not enabled for this service (CustomCodeEnabled)")
        }
        if let code = request.customCode, !SendOptions.isCode(code) {
            throw Self.invalid("CustomCode", "must be 4 to 10 digits")
        }
        return SendOptions(
            codeLength: request.customCode == nil ? settings.codeLength : nil, customCode: request.customCode,
            appName: request.customFriendlyName ?? settings.friendlyName, appHash: request.appHash,
            // `SkipSmsToLandlines` is about SMS: a call reaches a landline whatever it says.
            refusedLineTypes: settings.skipSmsToLandlines && request.channel == Channel.sms.rawValue ? [.fixedLine] : [])
    }

    /// A start vets the refused line types itself; a repeat start does not, and may switch a
    /// landline's verification from a call to SMS, so they are vetted here for both.
    private func vetRefusedLineTypes(_ to: String, options: SendOptions) throws {
        guard !options.refusedLineTypes.isEmpty, verifications.protection.testNumbers.match(to) == nil else { return }
        let number = try verifications.vet(to, defaultRegion: nil, lineTypes: false)
        do { _ = try options.vet(number) } catch let refusal as VerifyError {
            // As the channel plan's refusal does: the enabled channels that would reach it.
            let policy = verifications.policy
            let reaching = Channel.allCases.filter {
                $0 != .sms && policy.channels.enabled.contains($0)
                    && policy.channels.lineTypes(of: $0, textLineTypes: policy.allowedLineTypes).contains(number.lineType)
            }
            var details = refusal.details
            details["channels"] = .array(reaching.map { .string($0.rawValue) })
            throw VerifyError(refusal.code, refusal.message, details: details)
        }
    }

    /// Starts a verification linked to the service; throws `Raced` when another request started
    /// one for the number meanwhile (the caller then sends through that one).
    private func startLinked(
        _ request: TwilioCompatSendRequest, service: TwilioCompatServiceRecord, client: String, requester: String, options: SendOptions
    ) throws -> TwilioCompatVerificationView {
        let serviceSID = service.sid
        let accountSID = service.accountSID
        let now = clock.now()
        let outcome = try verifications.start(
            StartRequest(
                phoneNumber: request.to, channel: request.channel, locale: request.locale,
                purpose: request.customCode == nil ? .delegated : .delegatedCustomCode, clientIP: client,
                requester: requester, options: options)
        ) { verification, tx in
            let compat = try Self.twilioCompatTransaction(tx)
            if let other = try compat.twilioCompatLatestVerificationID(serviceSID: serviceSID, to: verification.phoneNumber),
                let existing = try compat.verification(id: other), Self.purposes.contains(existing.purpose),
                Self.isUsable(existing, now: now)
            {
                throw Raced()
            }
            try compat.linkTwilioCompatVerification(TwilioCompatVerificationLink(
                verificationID: verification.id, serviceSID: serviceSID, accountSID: accountSID,
                to: verification.phoneNumber, createdAt: now))
        }
        return try view(id: outcome.verification.id, service: service)
    }

    /// A pending verification of the service by id; finished ones (approved, canceled, expired,
    /// max attempts) are not found, as at Twilio.
    public func verification(id: String, service: TwilioCompatServiceRecord) throws -> TwilioCompatVerificationView {
        let view = try view(id: id, service: service)
        guard view.status == .pending, view.verification.attempts < view.verification.maxAttempts else {
            throw Self.verificationNotFound
        }
        return view
    }

    /// The service's pending verification of a number.
    public func verification(to: String, service: TwilioCompatServiceRecord) throws -> TwilioCompatVerificationView {
        guard let id = try latestID(to: to, service: service) else { throw Self.verificationNotFound }
        return try verification(id: id, service: service)
    }

    /// The id of the service's newest verification of `to`, if any.
    public func latestID(to: String, service: TwilioCompatServiceRecord) throws -> String? {
        let number = normalized(to)
        return try store.twilioCompatRead { try $0.twilioCompatLatestVerificationID(serviceSID: service.sid, to: number) }
    }

    /// `Status=canceled` or `approved` on a pending verification.
    public func setStatus(id: String, approved: Bool, service: TwilioCompatServiceRecord) throws -> TwilioCompatVerificationView {
        _ = try verification(id: id, service: service)
        do {
            let v = approved
                ? try verifications.approve(id: id, purposes: Self.purposes) : try verifications.cancel(id: id, purposes: Self.purposes)
            return try view(id: v.id, service: service, updatedAt: clock.now())
        } catch let error as VerifyError where [.expired, .alreadyUsed, .notFound].contains(error.code) {
            throw Self.verificationNotFound
        }
    }

    /// Checks a code. A wrong code is `valid: false` with the verification still pending;
    /// a check on a verification whose checks are used up is `max_attempts_reached`; finished
    /// or unknown verifications are not found.
    public func check(id: String, code: String, clientIP: String, service: TwilioCompatServiceRecord) throws -> TwilioCompatCheckResult {
        let before = try view(id: id, service: service)
        switch before.status {
        case .approved, .canceled, .expired: throw Self.verificationNotFound
        case .pending, .maxAttemptsReached: break
        }
        do {
            let checked = try verifications.check(
                id: id, code: code, clientIP: clientIP, purposes: Self.purposes,
                requester: AbuseProtection.serverCaller(account: service.accountSID))
            return TwilioCompatCheckResult(view: try view(id: checked.verification.id, service: service), valid: true)
        } catch let error as VerifyError {
            switch error.code {
            case .incorrectCode:
                return TwilioCompatCheckResult(view: try view(id: id, service: service, status: .pending), valid: false)
            case .invalidRequest where error.details["field"] == "code":
                // A code of another length can never match: an incorrect code, not counted.
                return TwilioCompatCheckResult(view: before, valid: false)
            case .expired, .alreadyUsed, .notFound: throw Self.verificationNotFound
            default: throw error
            }
        }
    }

    /// The view of a verification linked to `service` (any status), or not found.
    func view(id: String, service: TwilioCompatServiceRecord, status: VerificationStatus? = nil, updatedAt: Date? = nil) throws
        -> TwilioCompatVerificationView
    {
        let now = clock.now()
        let serviceSID = service.sid
        let found = try store.twilioCompatRead { reader -> TwilioCompatVerificationView? in
            guard let link = try reader.twilioCompatLink(verificationID: id), link.serviceSID == serviceSID,
                let v = try reader.verification(id: id), Self.purposes.contains(v.purpose)
            else { return nil }
            let updated = max(v.lastSentAt, v.approvedAt ?? v.createdAt)
            return TwilioCompatVerificationView(
                verification: v, link: link, messages: try reader.twilioCompatMessages(verificationID: id),
                status: status ?? v.status(at: now), updatedAt: updatedAt ?? updated)
        }
        guard let found else { throw Self.verificationNotFound }
        return found
    }

    /// `to` as E.164 when it parses (or is a test number), else as given (the start refuses it).
    func normalized(_ to: String) -> String {
        if let test = verifications.protection.testNumbers.match(to) { return test }
        if case .success(let number) = verifications.parser.parse(to, defaultRegion: nil) { return number.e164 }
        return to.trimmingCharacters(in: .whitespaces)
    }

    static func isUsable(_ v: Verification, now: Date) -> Bool {
        v.status(at: now) == .pending && v.attempts < v.maxAttempts
    }

    static func twilioCompatTransaction(_ tx: any StoreTransaction) throws -> any StoreTransaction & TwilioCompatTransaction {
        guard let compat = tx as? any StoreTransaction & TwilioCompatTransaction else {
            throw VerifyError(.unavailable, "this store does not keep the Twilio-compatible API's records")
        }
        return compat
    }

    struct Raced: Error {}

    /// The only verifications this API starts and reaches: never native (`sign_in`) or MFA ones,
    /// and the native routes never reach these (docs/TWILIO_COMPAT.md).
    static let purposes: Set<Purpose> = [.delegated, .delegatedCustomCode]

    /// `invalid_request` naming a Twilio parameter.
    public static func invalid(_ parameter: String, _ reason: String) -> VerifyError {
        VerifyError(.invalidRequest, "Invalid parameter `\(parameter)`: \(reason)", details: ["field": .string(parameter)])
    }

    static var serviceNotFound: VerifyError { VerifyError(.notFound, "service not found", details: ["resource": "service"]) }
    static var verificationNotFound: VerifyError {
        VerifyError(.notFound, "verification not found", details: ["resource": "verification"])
    }
}
