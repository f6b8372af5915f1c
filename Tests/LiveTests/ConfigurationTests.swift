import App
import Foundation
import SettingsTable
import Testing
import VerifyCore

@Suite struct ConfigurationTests {
    @Test func defaults() throws {
        let c = try Configuration.load(environment: [:])
        #expect(c.mode == .development)
        #expect(c.listenHost == "127.0.0.1" && c.listenPort == 8080)
        #expect(c.sqlitePath == "./data/phone-verify.db")
        #expect(c.policy.codeLength == 6 && c.policy.codeTTL == 300 && c.policy.maxAttempts == 5)
        #expect(c.audience == "main-auth")
        #expect(c.gateways == ["console"])
        // Threads wait on commits: enough of them that concurrent writes can share one.
        #expect(c.httpThreads == 64)
        #expect(try Configuration.load(environment: ["PHONE_VERIFY_HTTP_THREADS": "8"]).httpThreads == 8)
    }

    @Test func shutdownGraceIsReadAndBounded() throws {
        #expect(try Configuration.load(environment: [:]).shutdownGrace == 10)
        #expect(try Configuration.load(environment: ["PHONE_VERIFY_SHUTDOWN_GRACE": "30"]).shutdownGrace == 30)
        for bad in ["0", "301", "soon"] {
            #expect(throws: ConfigurationError.self) { try Configuration.load(environment: ["PHONE_VERIFY_SHUTDOWN_GRACE": bad]) }
        }
    }

    @Test func thePublicURLIsABaseWithoutATrailingSlash() throws {
        let c = try Configuration.load(environment: ["PHONE_VERIFY_PUBLIC_URL": "https://verify.example.test//"])
        #expect(c.publicURL == "https://verify.example.test")
    }

    @Test func environmentOverridesTheConfigFile() throws {
        let path = NSTemporaryDirectory() + "pv-config-\(UUID().uuidString).env"
        try "# comment\nPHONE_VERIFY_CODE_LENGTH=8\nPHONE_VERIFY_AUDIENCE=\"from-file\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let c = try Configuration.load(environment: ["PHONE_VERIFY_CONFIG_FILE": path, "PHONE_VERIFY_AUDIENCE": "from-env"])
        #expect(c.policy.codeLength == 8)
        #expect(c.audience == "from-env")
    }

    @Test(arguments: [
        ("PHONE_VERIFY_CODE_LENGTH", "3"), ("PHONE_VERIFY_CODE_LENGTH", "11"), ("PHONE_VERIFY_CODE_TTL", "601"),
        ("PHONE_VERIFY_LISTEN", "nowhere"), ("PHONE_VERIFY_LISTEN", "127.0.0.1:70000"), ("PHONE_VERIFY_MODE", "staging"),
        ("PHONE_VERIFY_CODE_SECRET", "short"), ("PHONE_VERIFY_TRUSTED_PROXIES", "10.0.0.0/99"),
        ("PHONE_VERIFY_REGION_DENY_LIST", "USA"), ("PHONE_VERIFY_ALLOWED_LINE_TYPES", "mobile,banana"),
        ("PHONE_VERIFY_LOG_LEVEL", "loud"), ("PHONE_VERIFY_GATEWAYS", "carrier-pigeon"),
        ("PHONE_VERIFY_KEY_REFRESH", "0"), ("PHONE_VERIFY_KEY_REFRESH", "3601"),
        ("PHONE_VERIFY_CORS_ORIGINS", "https://app.example.com/path"),
    ])
    func invalidValuesAreReportedByName(name: String, value: String) {
        do {
            _ = try Configuration.load(environment: [name: value])
            Issue.record("\(name)=\(value) was accepted")
        } catch let error as ConfigurationError {
            #expect(error.problems.contains { $0.hasPrefix(name) })
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func helpListsEverySettingWithItsDefault() {
        let help = Settings.helpText
        for setting in Settings.all {
            #expect(help.contains(setting.name))
            #expect(help.contains("default: " + setting.defaultValue))
        }
    }

    @Test func unknownVariablesAreNoticed() throws {
        let c = try Configuration.load(environment: ["PHONE_VERIFY_CODE_LENGHT": "8"])
        #expect(c.unknownVariables == ["PHONE_VERIFY_CODE_LENGHT"])
    }
}

@Suite struct SettingsTableTests {
    @Test func everyNameIsDeclaredOnceWithThePrefix() {
        let names = Settings.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.hasPrefix(Settings.prefix) })
    }

    /// `--help` and the docs list settings by section, so each section's settings are together
    /// and the sections come in `SettingSection` order.
    @Test func settingsAreGroupedBySectionInSectionOrder() {
        var seen: [SettingSection] = []
        for setting in Settings.all where seen.last != setting.section {
            #expect(!seen.contains(setting.section), "\(setting.name) is away from its section")
            seen.append(setting.section)
        }
        #expect(seen == SettingSection.allCases)
    }
}

@Suite struct ConfigurationDocsTests {
    /// docs/CONFIGURATION.md must document every setting the code reads.
    @Test func everySettingIsDocumented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/CONFIGURATION.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for setting in Settings.all {
            #expect(text.contains("`\(setting.name)`"), "\(setting.name) is missing from docs/CONFIGURATION.md")
        }
    }

    /// The table in docs/CONFIGURATION.md is exactly what scripts/docs-settings generates from
    /// the settings table: a changed default or meaning fails here until the docs are regenerated.
    @Test func theSettingsTableIsTheGeneratedOne() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/CONFIGURATION.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let begin = try #require(text.range(of: "<!-- settings:begin -->\n"))
        let end = try #require(text.range(of: "<!-- settings:end -->"))
        let rows = Settings.all.map { setting in
            let meaning = setting.help.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: "|", with: "\\|")
            return "| `\(setting.name)` | `\(setting.defaultValue)` | \(meaning) |"
        }
        let expected = (["| variable | default | meaning |", "| --- | --- | --- |"] + rows).joined(separator: "\n") + "\n"
        #expect(String(text[begin.upperBound..<end.lowerBound]) == expected, "run scripts/docs-settings")
    }
}
