import API
import Foundation
import HTTPMessages
import VerifyCore

/// The console's operations JSON, scope `read` (or a console session):
/// - `GET /v1/admin/delivery`: ``ConsoleDeliveryReport`` (gateways and channels over the last hour
///   and day, circuits, the outboxes, conversion);
/// - `GET /v1/admin/settings`: the signing keys (`kid`, algorithm, status, as `phone-verify keys
///   list`) and the effective settings with secrets masked (as `phone-verify config check`).
struct ConsoleOperationsRoutes: RouteCollection {
    let operations: ConsoleOperations
    let clock: any Clock
    let cache = ConsoleCache()

    func register(in router: inout Router) {
        let route = self
        router.add("GET", "/v1/admin/delivery") { _, _ in
            JSONResponse.make(200, try route.delivery(), headers: ["Cache-Control": "no-store"])
        }
        router.add("GET", "/v1/admin/settings") { _, _ in
            JSONResponse.make(200, try route.settings(), headers: ["Cache-Control": "no-store"])
        }
    }

    func delivery() throws -> JSONValue {
        try ConsoleDeliveryReport(operations: operations, now: clock.now(), cache: cache).json()
    }

    func settings() throws -> JSONValue {
        let keys = try operations.signingKeys?.signingKeys() ?? [], now = clock.now()
        return [
            "signing_keys": .array(keys.map { SigningKeyJSON.make($0, now: now) }),
            "settings": .array(operations.settings.map { ["name": .string($0.name), "value": .string($0.value)] }),
        ]
    }
}
