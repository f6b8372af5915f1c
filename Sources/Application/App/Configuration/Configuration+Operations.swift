extension Configuration {
    /// Proxies, CORS, HTTP capacity, logging and retention (`Settings+Operations.swift`).
    mutating func readOperations(_ reader: inout SettingReader) {
        trustedProxies = reader(Settings.trustedProxies) ?? trustedProxies
        corsOrigins = reader(Settings.corsOrigins) ?? corsOrigins
        httpThreads = reader(Settings.httpThreads) ?? httpThreads
        maxConnections = reader(Settings.maxConnections) ?? maxConnections
        logLevel = reader(Settings.logLevel) ?? logLevel
        retention = reader(Settings.retention) ?? retention
        console = reader(Settings.console) ?? console
        consoleIdleTimeout = reader(Settings.consoleIdleTimeout) ?? consoleIdleTimeout
        consoleSecureCookie = reader(Settings.consoleSecureCookie) ?? consoleSecureCookie
    }
}
