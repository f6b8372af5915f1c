import Gateways

/// Meta's WhatsApp Cloud API sender, template and webhook secrets (`PHONE_VERIFY_META_WA_*`,
/// read by its vendor's `read` from its entries).
public struct MetaSettings: Sendable {
    public var baseURL, apiVersion, phoneNumberID, accessToken, template: String
    public var language: WhatsAppLanguage
    public var appSecret, verifyToken: String?

    public init(
        baseURL: String, apiVersion: String, phoneNumberID: String, accessToken: String, template: String, language: WhatsAppLanguage,
        appSecret: String?, verifyToken: String?
    ) {
        self.baseURL = baseURL
        self.apiVersion = apiVersion
        self.phoneNumberID = phoneNumberID
        self.accessToken = accessToken
        self.template = template
        self.language = language
        self.appSecret = appSecret
        self.verifyToken = verifyToken
    }
}
