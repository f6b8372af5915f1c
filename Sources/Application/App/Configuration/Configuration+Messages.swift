import Gateways
import SettingsTable
import VerifyCore

extension Configuration {
    /// The SMS text: app name, origin-bound line, app hash and templates (`Settings+Messages.swift`).
    mutating func readMessages(_ reader: inout SettingReader) {
        appName = reader.value(Settings.appName)
        otpDomain = reader(Settings.otpDomain)
        androidAppHash = reader(Settings.androidAppHash)
        templateOverrides = reader(Settings.templatesFile) ?? templateOverrides
        voiceLines = VoiceScriptComposer.builtIn.merging(reader(Settings.voiceTemplatesFile) ?? [:]) { _, given in given }
        for problem in TemplateComposer.validate(overrides: templateOverrides, otpDomain: otpDomain, androidAppHash: androidAppHash) {
            reader.problem(Settings.templatesFile, "(or the OTP domain / app hash): \(problem)")
        }
    }
}
