import Foundation
import Gateways
import Testing
import VerifyCore

@Suite struct VoiceScriptTests {
    let composer = VoiceScriptComposer(appName: "Acme")

    @Test func englishSaysTheCodeDigitByDigitTwice() {
        let script = composer.script(code: "123456", locale: "en")
        #expect(script.language == "en")
        #expect(script.speechLocale == "en-US")
        #expect(script.parts == [
            "Your Acme verification code is: 1, 2, 3, 4, 5, 6.",
            "Once again, your code is: 1, 2, 3, 4, 5, 6.",
            "Do not share this code with anyone. Goodbye.",
        ])
        #expect(script.text.components(separatedBy: "1, 2, 3, 4, 5, 6.").count == 3)
    }

    @Test func eachBuiltInLanguageAndItsSpeechLocale() {
        let cases: [(String?, String, String, String)] = [
            ("es", "es", "es-ES", "Tu código de verificación de Acme es: 0, 4, 2, 7."),
            ("es-MX", "es", "es-MX", "Tu código de verificación de Acme es: 0, 4, 2, 7."),
            ("es-419", "es", "es-MX", "Tu código de verificación de Acme es: 0, 4, 2, 7."),
            ("es-AR", "es", "es-MX", "Tu código de verificación de Acme es: 0, 4, 2, 7."),
            ("fr-CA", "fr", "fr-CA", "Votre code de vérification Acme est : 0, 4, 2, 7."),
            ("fr-BE", "fr", "fr-FR", "Votre code de vérification Acme est : 0, 4, 2, 7."),
            ("de-AT", "de", "de-DE", "Ihr Bestätigungscode für Acme lautet: 0, 4, 2, 7."),
            ("pt_BR", "pt", "pt-BR", "Seu código de verificação de Acme é: 0, 4, 2, 7."),
            ("pt-PT", "pt", "pt-PT", "Seu código de verificação de Acme é: 0, 4, 2, 7."),
            ("en-GB,en;q=0.8", "en", "en-GB", "Your Acme verification code is: 0, 4, 2, 7."),
            // No lines for Japanese, nor for a missing locale: English, with the US voice.
            ("ja-JP", "en", "en-US", "Your Acme verification code is: 0, 4, 2, 7."),
            (nil, "en", "en-US", "Your Acme verification code is: 0, 4, 2, 7."),
            ("", "en", "en-US", "Your Acme verification code is: 0, 4, 2, 7."),
        ]
        for (locale, language, speech, intro) in cases {
            let script = composer.script(code: "0427", locale: locale)
            #expect(script.language == language, "\(locale ?? "nil")")
            #expect(script.speechLocale == speech, "\(locale ?? "nil")")
            #expect(script.parts.first == intro, "\(locale ?? "nil")")
            #expect(script.parts.count == 3)
            #expect(script.parts[1].hasSuffix(": 0, 4, 2, 7."))
        }
    }

    @Test func operatorLinesReplaceBuiltInOnesAndEnglishStaysTheFallback() {
        let custom = VoiceScriptComposer(appName: "Acme", lines: ["it": VoiceLines(intro: "Il codice {app} è:", again: "Ripeto:", closing: "Ciao.")])
        #expect(custom.script(code: "12", locale: "it-IT").parts == ["Il codice Acme è: 1, 2.", "Ripeto: 1, 2.", "Ciao."])
        #expect(custom.script(code: "12", locale: "it-IT").speechLocale == "it")
        #expect(custom.script(code: "12", locale: "fr").language == "en")
    }

    @Test func twimlEscapesTheAppNameAndPausesBetweenParts() {
        let script = VoiceScriptComposer(appName: #"Tom & Jerry's <"Shop">"#).script(code: "987", locale: "de-DE")
        let quote = "&quot;"
        let say = #"<Say language="de-DE" voice="Polly.Vicki">"#
        #expect(script.twiml(voice: "Polly.Vicki") == "<Response>"
            + say + "Ihr Bestätigungscode für Tom &amp; Jerry&apos;s &lt;\(quote)Shop\(quote)&gt; lautet: 9, 8, 7.</Say>"
            + #"<Pause length="1"/>"# + say + "Noch einmal, Ihr Code lautet: 9, 8, 7.</Say>"
            + #"<Pause length="1"/>"# + say + "Geben Sie diesen Code niemandem weiter. Auf Wiederhören.</Say></Response>")
        #expect(script.twiml(voice: nil).hasPrefix(#"<Response><Say language="de-DE">"#))
        // XML 1.0 cannot carry most control characters: they are dropped.
        #expect(VoiceScript.xmlEscaped("a\u{1}b\tc") == "ab\tc")
    }

    @Test func nccoHasOneTalkActionPerPart() throws {
        let script = composer.script(code: "55", locale: "pt-BR")
        let ncco = script.ncco(style: 2)
        let actions = try #require(ncco.arrayValue)
        #expect(actions.count == 3)
        #expect(actions[0] == .object([
            JSONMember("action", "talk"), JSONMember("text", "Seu código de verificação de Acme é: 5, 5."),
            JSONMember("language", "pt-BR"), JSONMember("style", 2),
        ]))
        #expect(actions.allSatisfy { $0["action"] == "talk" && $0["language"] == "pt-BR" })
    }

    @Test func lettersAndSpacesInCodesAreSpelledToo() {
        #expect(VoiceScript.spelled("AB 12") == "A, B, 1, 2")
    }
}
