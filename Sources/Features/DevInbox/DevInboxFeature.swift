import API
import VerifyCore

/// The development endpoints as one route group: `/dev/messages` (``DevRoutes``), the live inbox page
/// and its event stream (``DevInboxRoutes``), and the loopback-only access check. The application
/// adds it in development mode only, so production has no `/dev` routes at all.
public struct DevInboxFeature: Sendable {
    let messages: any DevMessageLog
    let service: VerificationService
    let random: any RandomSource
    let access: DevAccess

    public init(messages: any DevMessageLog, service: VerificationService, random: any RandomSource, access: DevAccess = DevAccess()) {
        self.messages = messages
        self.service = service
        self.random = random
        self.access = access
    }

    /// The `/dev` group for ``APIDependencies/groups``: its access check runs for every path
    /// under `/dev`, routed or not.
    public var group: RouteGroup {
        RouteGroup(
            "/dev", middleware: [DevAccessMiddleware(access: access)],
            routes: [DevRoutes(messages: messages, service: service), DevInboxRoutes(messages: messages, service: service, random: random)])
    }
}
