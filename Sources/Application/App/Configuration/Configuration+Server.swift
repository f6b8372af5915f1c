extension Configuration {
    /// Mode, listen address and store (`Settings+Server.swift`).
    mutating func readServer(_ reader: inout SettingReader) {
        mode = reader(Settings.mode) ?? .development
        devExpose = reader(Settings.devExpose) ?? false
        if let listen = reader(Settings.listen) { (listenHost, listenPort) = listen }
        dataDirectory = reader(Settings.dataDirectory) ?? "./data"
        sqlitePath = dataDirectory + "/phone-verify.db"
        if let database = reader(Settings.databaseURL) {
            sqlitePath = database.sqlitePath ?? sqlitePath
            postgresURL = database.postgresURL
        }
        sqliteSynchronous = reader(Settings.sqliteSynchronous) ?? "NORMAL"
        postgresPoolSize = reader(Settings.postgresPoolSize) ?? postgresPoolSize
    }

    /// The credentials this service signs (`Settings+Credentials.swift`).
    mutating func readCredentials(_ reader: inout SettingReader) {
        issuer = reader(Settings.issuer)
        audience = reader(Settings.audience) ?? audience
        credentialTTL = reader(Settings.credentialTTL) ?? credentialTTL
        signingKeyFile = reader(Settings.signingKeyFile)
        keyRefreshSeconds = reader(Settings.keyRefresh) ?? keyRefreshSeconds
        signingAlgorithm = reader(Settings.signingAlgorithm) ?? signingAlgorithm
    }
}
