import Encoding

/// Per-send choices a caller may make on top of the server's policy (the Twilio-compatible API
/// passes a Verify service's settings through them). The defaults change nothing.
public struct SendOptions: Sendable, Equatable {
    /// Digits of a generated code (4–10); nil: the policy's length.
    public var codeLength: Int?
    /// A code chosen by the caller (4–10 digits) instead of a generated one.
    public var customCode: String?
    /// The name in the message text instead of the configured app name.
    public var appName: String?
    /// An Android SMS Retriever hash (11 characters) instead of the configured one.
    public var appHash: String?
    /// Line types refused on top of the policy's (e.g. fixed lines, for "skip SMS to landlines").
    public var refusedLineTypes: Set<LineType>

    public init(
        codeLength: Int? = nil, customCode: String? = nil, appName: String? = nil, appHash: String? = nil,
        refusedLineTypes: Set<LineType> = []
    ) {
        self.codeLength = codeLength
        self.customCode = customCode
        self.appName = appName
        self.appHash = appHash
        self.refusedLineTypes = refusedLineTypes
    }

    /// Throws `invalid_request` naming the first option that cannot be used.
    public func validate() throws {
        if let codeLength, !CodeGenerator.allowedLengths.contains(codeLength) {
            throw VerifyError(.invalidRequest, "code_length must be 4 to 10", details: ["field": "code_length"])
        }
        if let customCode, !Self.isCode(customCode) {
            throw VerifyError(.invalidRequest, "custom_code must be 4 to 10 digits", details: ["field": "custom_code"])
        }
        if let appHash, !TemplateComposer.isAppHash(appHash) {
            throw VerifyError(
                .invalidRequest, "app_hash must be 11 characters of A–Z, a–z, 0–9, + or /", details: ["field": "app_hash"])
        }
    }

    /// Whether `text` is 4 to 10 ASCII digits.
    public static func isCode(_ text: String) -> Bool {
        CodeGenerator.allowedLengths.contains(text.utf8.count) && text.utf8.allSatisfy(ASCII.isDigit)
    }

    /// `number`, unless its line type is refused by these options.
    package func vet(_ number: PhoneNumber) throws -> PhoneNumber {
        if refusedLineTypes.contains(number.lineType) {
            throw VerifyError(
                .unsupportedLineType, "\(number.lineType.rawValue) numbers cannot receive verification codes",
                details: ["line_type": .string(number.lineType.rawValue)])
        }
        return number
    }
}
