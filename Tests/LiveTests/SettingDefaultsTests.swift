import App
import Foundation
import Testing
import VerifyCore

/// A setting left unset means what its table entry says (docs/CONFIGURATION.md, `--help`).
@Suite struct SettingDefaultsTests {
    static let events = [
        "PHONE_VERIFY_EVENTS_URL": "http://127.0.0.1:9000/events",
        "PHONE_VERIFY_EVENTS_SECRET": "whsec_" + Data("events-key-0123456789abcdef-0123".utf8).base64EncodedString(),
    ]

    @Test func unsetEventsSettingsTakeTheDocumentedDefaults() throws {
        let events = try #require(try Configuration.load(environment: Self.events).events)
        #expect(events.timeout == 5 && events.maxAge == 86_400 && events.threads == 2)
        // The table (and docs/EVENTS.md) say 120; the reader once fell back to 24 of its own.
        #expect(events.maxAttempts == 120)
        #expect(Settings.eventsMaxAttempts.defaultValue == "120")
    }

    /// The domain's types keep initialiser defaults of their own (for its tests and other
    /// callers); the table's typed defaults must say the same, or an unset setting would mean
    /// one thing in the docs and another in a test.
    @Test func theTablesDefaultsAgreeWithTheDomainsOwn() throws {
        let c = try Configuration.load(environment: [:])
        var policy = VerificationPolicy()
        policy.channels = c.policy.channels
        #expect(c.policy == policy)
        #expect(c.policy.channels.fallbackAfter == ChannelPolicy().fallbackAfter)
        #expect(c.policy.channels.callLineTypes == ChannelPolicy().callLineTypes)
        #expect(c.fraud == FraudPolicy())
        #expect(c.mfa == MFAPolicy())
    }

    /// Settings read from nothing equal a `Configuration()` built in code: one default each.
    @Test func aConfigurationReadFromNothingEqualsTheInitialisersDefaults() throws {
        let read = try Configuration.load(environment: [:]), built = Configuration()
        #expect(read.mode == built.mode && read.devExpose == built.devExpose && read.dataDirectory == built.dataDirectory)
        #expect(read.sqliteSynchronous == built.sqliteSynchronous && read.postgresPoolSize == built.postgresPoolSize)
        #expect(read.audience == built.audience && read.credentialTTL == built.credentialTTL)
        #expect(read.keyRefreshSeconds == built.keyRefreshSeconds && read.signingAlgorithm == built.signingAlgorithm)
        #expect(read.gateways == built.gateways && read.appName == built.appName)
        #expect(read.gatewayTimeout == built.gatewayTimeout && read.gatewayConnectTimeout == built.gatewayConnectTimeout)
        #expect(read.circuitFailures == built.circuitFailures && read.circuitCooldown == built.circuitCooldown)
        #expect(read.deliveryThreads == built.deliveryThreads && read.deliveryMaxAttempts == built.deliveryMaxAttempts)
        #expect(read.httpThreads == built.httpThreads && read.maxConnections == built.maxConnections)
        #expect(read.logLevel == built.logLevel && read.retention == built.retention && read.console == built.console)
        #expect(read.consoleIdleTimeout == built.consoleIdleTimeout && read.consoleSecureCookie == built.consoleSecureCookie)
        #expect(read.authCore.leeway == built.authCore.leeway && read.authCore.jwksMinRefresh == built.authCore.jwksMinRefresh)
        #expect(read.corsOrigins == built.corsOrigins && read.trustedProxies.isEmpty && built.trustedProxies.isEmpty)
    }
}
