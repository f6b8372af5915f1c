import API
import Foundation
import HTTPMessages
import Telemetry
import VerifyCore
import Encoding

/// `/v2/Services…`: Twilio Verify v2's wire protocol (form-encoded PascalCase parameters, JSON
/// snake_case responses, HTTP Basic auth, Twilio's error body), over PhoneVerify's own lifecycle.
/// docs/TWILIO_COMPAT.md is the migration guide.
struct TwilioCompatRoutes: RouteCollection {
    let dependencies: TwilioCompatDependencies
    let logger: Logger

    /// The `Channel`s this API sends by (Twilio's names, any case); whether each is enabled is the
    /// server's `PHONE_VERIFY_CHANNELS` (60223 when not). Twilio's others — `email`, `sna`,
    /// `auto`, `rcs`, and `voice`, which Twilio itself does not take — are 60200.
    static let channels: Set<String> = [Channel.sms.rawValue, Channel.whatsapp.rawValue, Channel.call.rawValue]

    func register(in router: inout Router) {
        router.add("POST", "/v2/Services") { request, context in
            handle(request, context, .other) { account, compat in try createService(request, account, compat) }
        }
        router.add("GET", "/v2/Services") { request, context in
            handle(request, context, .other) { account, compat in try listServices(request, account, compat) }
        }
        router.add("GET", "/v2/Services/{Sid}") { request, context in
            handle(request, context, .other) { account, compat in
                let service = try Self.service(context, "Sid", account, compat)
                return JSONResponse.make(200, TwilioCompatJSON.service(service, base: dependencies.baseURL))
            }
        }
        router.add("POST", "/v2/Services/{Sid}") { request, context in
            handle(request, context, .other) { account, compat in try updateService(request, context, account, compat) }
        }
        router.add("DELETE", "/v2/Services/{Sid}") { request, context in
            handle(request, context, .other) { account, compat in
                let service = try Self.service(context, "Sid", account, compat)
                try compat.deleteService(sid: service.sid, accountSID: account)
                return HTTPResponse(status: 204, headers: HTTPHeaders(), body: [])
            }
        }
        router.add("POST", "/v2/Services/{ServiceSid}/Verifications") { request, context in
            handle(request, context, .send) { account, compat in try startVerification(request, context, account, compat) }
        }
        router.add("GET", "/v2/Services/{ServiceSid}/Verifications/{Sid}") { request, context in
            handle(request, context, .other) { account, compat in
                let service = try Self.service(context, "ServiceSid", account, compat)
                let view = try Self.verification(context, service, compat)
                return JSONResponse.make(200, TwilioCompatJSON.verification(view, base: dependencies.baseURL), headers: ["Cache-Control": "no-store"])
            }
        }
        router.add("POST", "/v2/Services/{ServiceSid}/Verifications/{Sid}") { request, context in
            handle(request, context, .other) { account, compat in try updateVerification(request, context, account, compat) }
        }
        router.add("POST", "/v2/Services/{ServiceSid}/VerificationCheck") { request, context in
            handle(request, context, .check) { account, compat in try check(request, context, account, compat) }
        }
    }

    /// Authenticates, runs `body`, and turns every refusal into Twilio's error body.
    func handle(
        _ request: HTTPRequest, _ context: RouteContext, _ operation: TwilioCompatError.Operation,
        _ body: (String, TwilioCompatService) throws -> HTTPResponse
    ) -> HTTPResponse {
        guard let account = dependencies.credentials.authenticate(request.headers["Authorization"]) else {
            return TwilioCompatError.unauthenticated.response
        }
        guard let compat = dependencies.service else {
            return TwilioCompatError(
                501, 20501,
                "The Twilio-compatible API is not available with this store (PostgreSQL); use the SQLite store or the native /v1 API"
            ).response
        }
        do {
            return try body(account, compat)
        } catch let error as TwilioCompatError {
            return error.response
        } catch let error as VerifyError {
            return TwilioCompatError.from(error, path: request.path, operation: operation).response
        } catch {
            logger.unhandled(error, requestID: context.requestID, route: context.route)
            return TwilioCompatError(500, 20500, "Internal server error; see the server log for request \(context.requestID)").response
        }
    }

    // MARK: Services

    func createService(_ request: HTTPRequest, _ account: String, _ compat: TwilioCompatService) throws -> HTTPResponse {
        let form = try Form(request)
        guard let name = try form.friendlyName("FriendlyName") else { throw TwilioCompatError.missing("FriendlyName") }
        try Self.requireCustomCodeConsent(form, account, compat)
        var settings = compat.defaultSettings(friendlyName: name)
        try Self.apply(form, to: &settings)
        let service = try compat.createService(accountSID: account, settings: settings)
        return JSONResponse.make(201, TwilioCompatJSON.service(service, base: dependencies.baseURL))
    }

    func updateService(_ request: HTTPRequest, _ context: RouteContext, _ account: String, _ compat: TwilioCompatService) throws -> HTTPResponse {
        let form = try Form(request)
        let existing = try Self.service(context, "Sid", account, compat)
        try Self.requireCustomCodeConsent(form, account, compat)
        // The form's fields change the settings read in the update's own transaction (rather than
        // overwriting them with this request's copy), so concurrent updates of different fields
        // all land. Applied once here first, so a bad field is refused before anything is written.
        let change: @Sendable (inout TwilioCompatServiceSettings) throws -> Void = { settings in
            if let name = try form.friendlyName("FriendlyName") { settings.friendlyName = name }
            try Self.apply(form, to: &settings)
        }
        var scratch = existing.settings
        try change(&scratch)
        let service = try compat.updateService(sid: existing.sid, accountSID: account, change)
        return JSONResponse.make(200, TwilioCompatJSON.service(service, base: dependencies.baseURL))
    }

    /// `CustomCodeEnabled=true` is refused for an account the operator has not allowed custom
    /// codes (even on a service that has them on from before), so the tenant learns it at once
    /// rather than at its first start.
    static func requireCustomCodeConsent(_ form: Form, _ account: String, _ compat: TwilioCompatService) throws {
        if try form.bool("CustomCodeEnabled") == true { try compat.requireCustomCodes(accountSID: account, parameter: "CustomCodeEnabled") }
    }

    /// The optional settings of a create or update.
    static func apply(_ form: Form, to settings: inout TwilioCompatServiceSettings) throws {
        if let length = try form.int("CodeLength") {
            guard CodeGenerator.allowedLengths.contains(length) else { throw TwilioCompatError.invalid("CodeLength", "must be an integer from 4 to 10") }
            settings.codeLength = length
        }
        if let value = try form.bool("LookupEnabled") { settings.lookupEnabled = value }
        if let value = try form.bool("SkipSmsToLandlines") { settings.skipSmsToLandlines = value }
        if let value = try form.bool("DoNotShareWarningEnabled") { settings.doNotShareWarningEnabled = value }
        if let value = try form.bool("CustomCodeEnabled") { settings.customCodeEnabled = value }
        if let value = try form.bool("Psd2Enabled") { settings.psd2Enabled = value }
        if let value = try form.bool("DtmfInputRequired") { settings.dtmfInputRequired = value }
        if let value = try form.bool("VerifyEventSubscriptionEnabled") { settings.verifyEventSubscriptionEnabled = value }
        if let value = try form.string("TtsName", maxLength: 64) { settings.ttsName = value }
        if let value = try form.string("DefaultTemplateSid", maxLength: 34) {
            guard TwilioCompatCredentials.isSID(value, prefix: "HJ") else { throw TwilioCompatError.invalid("DefaultTemplateSid", "must be HJ + 32 hex digits") }
            settings.defaultTemplateSid = value
        }
    }

    func listServices(_ request: HTTPRequest, _ account: String, _ compat: TwilioCompatService) throws -> HTTPResponse {
        let pageSize = try Self.queryInt(request, "PageSize", 1...1000) ?? 50
        let page = try Self.queryInt(request, "Page", 0...1_000_000) ?? 0
        let (services, more) = try compat.services(accountSID: account, page: page, pageSize: pageSize)
        let base = dependencies.baseURL + "/v2/Services"
        func pageURL(_ number: Int) -> JSONValue { .string("\(base)?PageSize=\(pageSize)&Page=\(number)") }
        let meta: JSONValue = .object([
            JSONMember("page", .int(Int64(page))),
            JSONMember("page_size", .int(Int64(pageSize))),
            JSONMember("first_page_url", pageURL(0)),
            JSONMember("previous_page_url", page > 0 ? pageURL(page - 1) : .null),
            JSONMember("url", pageURL(page)),
            JSONMember("next_page_url", more ? pageURL(page + 1) : .null),
            JSONMember("key", "services"),
        ])
        let list = services.map { TwilioCompatJSON.service($0, base: dependencies.baseURL) }
        return JSONResponse.make(200, ["services": .array(list), "meta": meta])
    }

    static func queryInt(_ request: HTTPRequest, _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
        guard let text = request.query[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw TwilioCompatError.invalid(name, "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The account's service named by path parameter `name`, or 404.
    static func service(_ context: RouteContext, _ name: String, _ account: String, _ compat: TwilioCompatService) throws -> TwilioCompatServiceRecord {
        guard let sid = context.parameters[name], TwilioCompatCredentials.isSID(sid, prefix: "VA") else {
            throw VerifyError(.notFound, "service not found")
        }
        return try compat.service(sid: sid, accountSID: account)
    }

    // MARK: Verifications

    func startVerification(_ request: HTTPRequest, _ context: RouteContext, _ account: String, _ compat: TwilioCompatService) throws -> HTTPResponse {
        let form = try Form(request)
        let service = try Self.service(context, "ServiceSid", account, compat)
        guard let to = try form.string("To", maxLength: 64) else { throw TwilioCompatError.missing("To") }
        let channel = try Self.channel(form)
        let locale = try form.string("Locale", maxLength: 35)
        if let locale, !locale.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == "-" || $0 == "_" }) {
            throw TwilioCompatError.invalid("Locale", "must be a language tag such as en or pt-BR")
        }
        let friendlyName = try form.friendlyName("CustomFriendlyName")
        let customCode = try form.string("CustomCode", maxLength: 10)
        if let customCode, !SendOptions.isCode(customCode) { throw TwilioCompatError.invalid("CustomCode", "must be 4 to 10 digits") }
        let appHash = try form.string("AppHash", maxLength: 11)
        if let appHash, !(appHash.count == 11 && appHash.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == "+" || $0 == "/" })) {
            throw TwilioCompatError.invalid("AppHash", "must be 11 characters of A–Z, a–z, 0–9, + or /")
        }
        var clientIP = AbuseProtection.serverCaller(account: account)
        if let device = try form.string("DeviceIp", maxLength: 45) {
            guard CIDR.parseAddress(device) != nil else { throw TwilioCompatError.invalid("DeviceIp", "must be an IPv4 or IPv6 address") }
            clientIP = ClientIPResolver.limitKey(device)
        }
        let view: TwilioCompatVerificationView
        do {
            view = try compat.send(
                TwilioCompatSendRequest(
                    to: to, channel: channel, locale: locale, customFriendlyName: friendlyName, customCode: customCode, appHash: appHash,
                    clientIP: clientIP),
                service: service)
        } catch let error as VerifyError where error.code == .unsupportedLineType {
            throw TwilioCompatError.unsupportedLineType(error, channel: channel)
        }
        return JSONResponse.make(201, TwilioCompatJSON.verification(view, base: dependencies.baseURL), headers: ["Cache-Control": "no-store"])
    }

    /// The start's `Channel`, lowercased: `sms`, `whatsapp` or `call`, else 60200.
    static func channel(_ form: Form) throws -> String {
        guard let channel = try form.string("Channel", maxLength: 32)?.lowercased() else { throw TwilioCompatError.missing("Channel") }
        guard channels.contains(channel) else {
            let hint = channel == "voice" ? "; Twilio's voice channel is call" : ""
            throw TwilioCompatError.invalid(
                "Channel", "channel not supported: \"\(channel.prefix(32))\" (this API sends by sms, whatsapp or call\(hint))")
        }
        return channel
    }

    func updateVerification(_ request: HTTPRequest, _ context: RouteContext, _ account: String, _ compat: TwilioCompatService) throws -> HTTPResponse {
        let form = try Form(request)
        let service = try Self.service(context, "ServiceSid", account, compat)
        guard let status = try form.string("Status", maxLength: 16) else { throw TwilioCompatError.missing("Status") }
        guard status == "canceled" || status == "approved" else {
            throw TwilioCompatError.invalid("Status", "must be canceled or approved")
        }
        let id = try Self.verification(context, service, compat).verification.id
        let view = try compat.setStatus(id: id, approved: status == "approved", service: service)
        return JSONResponse.make(200, TwilioCompatJSON.verification(view, base: dependencies.baseURL), headers: ["Cache-Control": "no-store"])
    }

    /// The pending verification named by the `Sid` path parameter: a `VE…` SID or the `To` number.
    static func verification(_ context: RouteContext, _ service: TwilioCompatServiceRecord, _ compat: TwilioCompatService) throws -> TwilioCompatVerificationView {
        let sid = context.parameters["Sid"] ?? ""
        if let id = TwilioCompatJSON.verificationID(sid) { return try compat.verification(id: id, service: service) }
        guard sid.hasPrefix("+"), sid.utf8.count <= 32 else { throw VerifyError(.notFound, "verification not found") }
        return try compat.verification(to: sid, service: service)
    }

    func check(_ request: HTTPRequest, _ context: RouteContext, _ account: String, _ compat: TwilioCompatService) throws -> HTTPResponse {
        let form = try Form(request)
        let service = try Self.service(context, "ServiceSid", account, compat)
        guard let code = try form.string("Code", maxLength: 32) else { throw TwilioCompatError.missing("Code") }
        guard SendOptions.isCode(code) else { throw TwilioCompatError.invalid("Code", "must be 4 to 10 digits") }
        let id: String
        if let sid = try form.string("VerificationSid", maxLength: 34) {
            guard let parsed = TwilioCompatJSON.verificationID(sid) else {
                throw TwilioCompatError.invalid("VerificationSid", "must be VE + 32 hex digits")
            }
            id = parsed
        } else if let to = try form.string("To", maxLength: 64) {
            guard let latest = try compat.latestID(to: to, service: service) else { throw VerifyError(.notFound, "verification not found") }
            id = latest
        } else {
            throw TwilioCompatError.invalid("To", "either To or VerificationSid is required")
        }
        let result = try compat.check(id: id, code: code, clientIP: AbuseProtection.serverCaller(account: account), service: service)
        return JSONResponse.make(200, TwilioCompatJSON.check(result.view, valid: result.valid), headers: ["Cache-Control": "no-store"])
    }
}
