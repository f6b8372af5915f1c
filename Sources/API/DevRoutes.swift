import HTTPTypes
import VerifyCore

/// Development-only endpoints: never registered in production mode.
struct DevRoutes: Sendable {
    let messages: any DevMessageLog
    let service: VerificationService

    func register(in router: inout Router) {
        let messages = self.messages
        router.add("GET", "/dev/messages") { request, _ in
            var phone = request.query["phone_number"]
            // A literal "+" in a query string may arrive as a space.
            if let p = phone, p.hasPrefix(" ") { phone = "+" + p.dropFirst() }
            if let p = phone, !p.hasPrefix("+") {
                throw VerifyError(
                    .invalidRequest, "phone_number must be E.164, URL-encoded (%2B for +)", details: ["field": "phone_number"])
            }
            let limit = request.query["limit"].flatMap { Int($0) }.map { min(max($0, 1), 500) } ?? 50
            let list = messages.messages(to: phone, limit: limit).map { m -> JSONValue in
                [
                    "to": .string(m.to), "body": .string(m.body), "code": .string(m.code),
                    "verification_id": .string(m.verificationID), "purpose": .string(m.purpose.rawValue),
                    "gateway": .string(m.gateway), "sent_at": .string(RFC3339.format(m.sentAt)),
                ]
            }
            return JSONResponse.make(200, ["messages": .array(list)], headers: ["Cache-Control": "no-store"])
        }
    }
}
