import Gateways
import SettingsTable
import Vendors

extension Configuration {
    /// The SMS gateway chain and delivery (`Settings+Gateways.swift`); the vendors' settings are
    /// read with the channels' lists (`readChannels`).
    mutating func readGateways(_ reader: inout SettingReader) {
        gateways = reader.value(Settings.gateways)
        publicURL = reader(Settings.publicURL)
        gatewayTimeout = Double(reader.value(Settings.gatewayTimeout))
        gatewayConnectTimeout = Double(reader.value(Settings.gatewayConnectTimeout))
        circuitFailures = reader.value(Settings.circuitFailures)
        circuitCooldown = reader.value(Settings.circuitCooldown)
        deliveryThreads = reader.value(Settings.deliveryThreads)
        deliveryMaxAttempts = reader.value(Settings.deliveryMaxAttempts)
    }

}
