import Foundation
import VerifyCore

/// The `template` object that sends a WhatsApp **authentication template with a copy-code
/// button** (Cloud API "Sending authentication templates"): the code is the body's only parameter
/// and the URL button's (index 0) only parameter. The template's text is fixed by WhatsApp and
/// approved with the vendor: only the code and the language vary, never the SMS body.
/// Used as is by the Meta Cloud API and inside Vonage's `custom` WhatsApp message.
public enum WhatsAppAuthenticationTemplate {
    /// `{"name", "language": {"code"[, "policy"]}, "components": [body, button]}`.
    public static func template(name: String, language: String, code: String, deterministicPolicy: Bool = false) -> JSONValue {
        var languageObject: [JSONMember] = []
        if deterministicPolicy { languageObject.append(JSONMember("policy", "deterministic")) }
        languageObject.append(JSONMember("code", .string(language)))
        let parameter: JSONValue = ["type": "text", "text": .string(code)]
        return [
            "name": .string(name),
            "language": .object(languageObject),
            "components": [
                ["type": "body", "parameters": [parameter]],
                ["type": "button", "sub_type": "url", "index": "0", "parameters": [parameter]],
            ],
        ]
    }

    /// `+14155552671` → `14155552671` (WhatsApp APIs take the number without the plus).
    public static func digits(_ e164: String) -> String {
        e164.hasPrefix("+") ? String(e164.dropFirst()) : e164
    }
}
