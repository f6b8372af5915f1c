import SettingsTable

extension Configuration {
    /// Proxies, CORS, HTTP capacity, logging and retention (`Settings+Operations.swift`).
    mutating func readOperations(_ reader: inout SettingReader) {
        trustedProxies = reader.value(Settings.trustedProxies)
        corsOrigins = reader.value(Settings.corsOrigins)
        httpThreads = reader.value(Settings.httpThreads)
        maxConnections = reader.value(Settings.maxConnections)
        logLevel = reader.value(Settings.logLevel)
        retention = reader.value(Settings.retention)
        console = reader.value(Settings.console)
        consoleIdleTimeout = reader.value(Settings.consoleIdleTimeout)
        consoleSecureCookie = reader.value(Settings.consoleSecureCookie)
        shutdownGrace = reader.value(Settings.shutdownGrace)
    }
}
