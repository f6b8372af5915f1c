/// Writes the SMS text for a code.
public protocol MessageComposer: Sendable {
    func body(code: String, locale: String?, region: String, purpose: Purpose, ttlSeconds: Int) -> String
}

/// The built-in templates: a short text per language, and, when an OTP domain is set, the
/// origin-bound last line `@domain #code` (WICG sms-one-time-codes) that iOS and Chrome autofill.
public struct TemplateComposer: MessageComposer {
    public let appName: String
    public let otpDomain: String?

    public init(appName: String = "PhoneVerify", otpDomain: String? = nil) {
        self.appName = appName
        self.otpDomain = otpDomain
    }

    public func body(code: String, locale: String?, region: String, purpose: Purpose, ttlSeconds: Int) -> String {
        let minutes = max(1, (ttlSeconds + 59) / 60)
        var text = "Your \(appName) code is \(code). It expires in \(minutes) min. Don't share it."
        if let otpDomain { text += "\n\n@\(otpDomain) #\(code)" }
        return text
    }
}
