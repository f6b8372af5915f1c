import API
import VerifyCore

/// The development endpoints as one feature: `/dev/messages` (``DevRoutes``), the live inbox page
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

    /// The routes and middleware for ``APIDependencies/features``.
    public var api: APIFeature {
        APIFeature(
            routes: [DevRoutes(messages: messages, service: service), DevInboxRoutes(messages: messages, service: service, random: random)],
            middleware: [DevAccessMiddleware(access: access)])
    }
}
