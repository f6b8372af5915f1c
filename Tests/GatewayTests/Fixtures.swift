import Foundation
import VerifyCore

/// The message the failover and circuit-breaker tests send.
let sms = OutboundMessage(
    messageID: "msg_1", to: "+14155552671", display: "+1 415-555-2671", body: "Your code is 123456", code: "123456",
    verificationID: "ver_1", purpose: .signIn, locale: "en", expiresAt: Date().addingTimeInterval(300))
