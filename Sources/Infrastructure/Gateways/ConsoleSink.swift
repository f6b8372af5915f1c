import Foundation
import VerifyCore

/// The development gateway of every channel: prints one plain-text line per message on stdout (never a JSON
/// log line) and always succeeds. The only place a code is ever printed.
public struct ConsoleSink: MessageGateway {
    public let name = "console"
    private let output: @Sendable (String) -> Void

    /// `output` receives each line without its newline; by default it goes to stdout.
    public init(output: (@Sendable (String) -> Void)? = nil) {
        self.output = output ?? { line in ConsoleSink.writeStdout(line + "\n") }
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        output("\(Self.label(message.channel)) to \(message.display) (\(message.verificationID), \(message.purpose.rawValue)): code \(message.code), expires \(Self.clockTime(message.expiresAt))")
        return .sent(via: name, providerMessageID: nil, status: .sent)
    }

    /// What the line starts with: "SMS", "WhatsApp" or "Call".
    static func label(_ channel: Channel) -> String {
        switch channel {
        case .sms: return "SMS"
        case .whatsapp: return "WhatsApp"
        case .call: return "Call"
        }
    }

    /// "12:05:00Z".
    static func clockTime(_ date: Date) -> String {
        let full = RFC3339.format(date)
        return String(full.dropFirst(11))
    }

    static func writeStdout(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(1, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
