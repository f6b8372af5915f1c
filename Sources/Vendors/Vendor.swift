import API
import Foundation
import HTTPMessages
import Gateways
import SettingsTable
import VerifyCore

/// A messaging vendor: everything PhoneVerify knows of it lives in its folder
/// (`Sources/Vendors/<Vendor>`): its gateways, the status callbacks it posts, how its statuses
/// map to delivery statuses, and the settings values it is built from. The application lists
/// each vendor once (`VendorRegistry`); gateway chains and callback routes are built from that
/// list, so adding a vendor is its folder and one line of wiring (docs/CONTRIBUTING.md).
public protocol Vendor: Sendable {
    /// Its name in the gateway lists (`PHONE_VERIFY_GATEWAYS`, `…_WHATSAPP_GATEWAYS`,
    /// `…_VOICE_GATEWAYS`).
    static var name: String { get }
    /// The channels whose gateway lists may name it.
    static var channels: [Channel] { get }
    /// Its entries in the settings table, in table order; each names its section.
    static var settings: [any SettingEntry] { get }
    /// Itself, from its settings: each part only when `lists` names it for that channel (its
    /// settings are then required, problems recorded in `reader`).
    static func read(_ reader: inout SettingReader, lists: GatewayLists) -> Self
    /// Its gateway for `channel`; nil when it offers none for that channel or is not configured.
    func gateway(for channel: Channel, _ context: VendorContext) -> (any MessageGateway)?
    /// Its status callbacks under `publicURL`, each route authenticated, feeding `receipts`;
    /// none when nothing configured reports.
    func callbackRoutes(_ receipts: DeliveryReceipts, publicURL: String, clock: any Clock) -> [any RouteCollection]
}

extension Vendor {
    public var name: String { Self.name }
}

/// What the application lends every vendor: the one HTTP client with its timeouts, the public
/// base URL vendors call back, the clock, and the texts and timing of calls.
public struct VendorContext: Sendable {
    /// The public base URL vendors post status callbacks to (no trailing slash).
    public var publicURL: String
    public var http: GatewayHTTP
    public var clock: any Clock
    /// The app name spoken in calls.
    public var appName: String
    /// Seconds a verification call rings (`PHONE_VERIFY_VOICE_RING_TIMEOUT`); nil: the vendor's.
    public var ringTimeout: Int?
    /// What calls say, per language.
    public var voiceLines: [String: VoiceLines]

    public init(
        publicURL: String, http: GatewayHTTP, clock: any Clock, appName: String, ringTimeout: Int? = nil,
        voiceLines: [String: VoiceLines] = VoiceScriptComposer.builtIn
    ) {
        self.publicURL = publicURL
        self.http = http
        self.clock = clock
        self.appName = appName
        self.ringTimeout = ringTimeout
        self.voiceLines = voiceLines
    }
}

/// Limits shared by the vendors' webhooks.
enum CallbackBody {
    /// Larger bodies are refused before any check (Meta batches statuses; a few KiB each).
    static let maxBytes = 64 * 1024

    static func bounded(_ request: HTTPRequest) throws {
        guard request.body.count <= maxBytes else { throw VerifyError(.payloadTooLarge, "body too large") }
    }
}
