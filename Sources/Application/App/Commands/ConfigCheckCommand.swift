import Foundation
import SettingsTable
import VerifyCore

/// `phone-verify config check`: validates the configuration and prints the effective settings,
/// secrets redacted, as one JSON object.
enum ConfigCheckCommand {
    static func run(environment: [String: String]) -> Int32 {
        let values: [String: String]
        do { values = try Configuration.values(environment: environment) } catch {
            FileHandle.standardError.write(Data("phone-verify: \(error)\n".utf8))
            return 78
        }
        var problems: [String]
        var configuration: Configuration?
        do {
            configuration = try Configuration(values: values)
            problems = []
        } catch let error as ConfigurationError {
            problems = error.problems
        } catch {
            problems = ["\(error)"]
        }
        // The installed key file must be a usable key (start-up would refuse it); development's
        // generated key is not created here.
        if let c = configuration, c.signingKeyFile != nil {
            do { _ = try KeyMaterial.signingKey(c) } catch { problems.append("\(error)") }
        }
        let settings = masked(values).map { JSONMember($0.name, .string($0.value)) }
        var report: [JSONMember] = [
            JSONMember("valid", .bool(problems.isEmpty)),
            JSONMember("problems", .array(problems.map { .string($0) })),
            JSONMember("unknown_variables", .array((configuration?.unknownVariables ?? values.keys.filter { Settings.named($0) == nil }.sorted()).map { .string($0) })),
        ]
        if let c = configuration {
            report.append(JSONMember("effective", [
                "mode": .string(c.mode.rawValue), "listen": .string("\(c.listenHost):\(c.listenPort)"),
                "database": .string(SettingMask.urlCredentials.display(StoreFactory.describe(c))), "gateways": .array(c.gateways.map { .string($0) }),
                "channels": .array(c.policy.channels.enabledNames.map { .string($0) }),
                "whatsapp_gateways": .array(c.channelGateways.whatsApp.map { .string($0) }),
                "voice_gateways": .array(c.channelGateways.voice.map { .string($0) }),
                "limits": .object(LimitScope.allCases.map { JSONMember($0.rawValue, .string(c.limits.rules($0).map(\.description).joined(separator: ","))) }),
                "mfa": .bool(c.authCore.isConfigured), "fraud_guard": .bool(c.fraud.enabled),
                "test_numbers": .int(Int64(c.testNumbers.codes.count)),
            ]))
        }
        report.append(JSONMember("warnings", .array((configuration?.missingProof ?? []).map { .string($0) })))
        report.append(JSONMember("settings", .object(settings)))
        print(JSONValue.object(report).encodedString())
        return problems.isEmpty ? 0 : 78
    }

    /// Every setting as shown to operators: given values with secrets masked, or the default
    /// (here and on the console's settings page).
    static func masked(_ values: [String: String]) -> [(name: String, value: String)] {
        Settings.all.map { setting in
            (setting.name, values[setting.name].map { setting.mask.display($0) } ?? "default: " + setting.defaultValue)
        }
    }
}
