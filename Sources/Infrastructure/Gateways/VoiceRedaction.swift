import Foundation

/// Keeps codes out of vendor error texts before they reach logs and delivery rows.
enum VoiceRedaction {
    /// At most 300 characters of `text`, with the code (plain or spelled out) and any quoted
    /// TwiML replaced by "[redacted]".
    static func redact(_ text: String, code: String) -> String {
        var out = String(text.prefix(300))
        if out.contains("<Say") || out.contains("<Response") { return "[redacted TwiML]" }
        for needle in [code, VoiceScript.spelled(code)] where !needle.isEmpty {
            out = out.replacingOccurrences(of: needle, with: "[redacted]")
        }
        return out
    }
}
