import SettingsTable
import VerifyCore

extension TelnyxVendor {
    public static let name = "telnyx"
    public static let channels: [Channel] = [.sms]

    /// Its key and sender when `telnyx` is in the SMS list.
    public static func read(_ reader: inout SettingReader, lists: GatewayLists) -> TelnyxVendor {
        guard lists.names(name, for: .sms) else { return TelnyxVendor(settings: nil) }
        let user = "the telnyx gateway"
        let key = reader.required(Table.apiKey, for: user) ?? ""
        let from = reader.required(Table.from, for: user) ?? ""
        return TelnyxVendor(settings: TelnyxSettings(
            baseURL: reader.value(Table.baseURL), apiKey: key, from: from, messagingProfileID: reader(Table.messagingProfileID)))
    }
}
