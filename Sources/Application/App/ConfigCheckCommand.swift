import Foundation
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
        var settings: [JSONMember] = []
        for setting in Settings.all {
            let value: JSONValue
            if let given = values[setting.name] {
                value = .string(setting.mask.display(given))
            } else {
                value = .string("default: " + setting.defaultValue)
            }
            settings.append(JSONMember(setting.name, value))
        }
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
        report.append(JSONMember("settings", .object(settings)))
        print(JSONValue.object(report).encodedString())
        return problems.isEmpty ? 0 : 78
    }
}
