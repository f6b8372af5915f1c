import SettingsTable

extension Configuration {
    /// Mode, listen address and store (`Settings+Server.swift`).
    mutating func readServer(_ reader: inout SettingReader) {
        mode = reader.value(Settings.mode)
        devExpose = reader.value(Settings.devExpose)
        (listenHost, listenPort) = reader.value(Settings.listen)
        dataDirectory = reader.value(Settings.dataDirectory)
        sqlitePath = dataDirectory + "/phone-verify.db"
        if let database = reader(Settings.databaseURL) {
            sqlitePath = database.sqlitePath ?? sqlitePath
            postgresURL = database.postgresURL
        }
        sqliteSynchronous = reader.value(Settings.sqliteSynchronous)
        postgresPoolSize = reader.value(Settings.postgresPoolSize)
    }

    /// The credentials this service signs (`Settings+Credentials.swift`).
    mutating func readCredentials(_ reader: inout SettingReader) {
        issuer = reader(Settings.issuer)
        audience = reader.value(Settings.audience)
        credentialTTL = reader.value(Settings.credentialTTL)
        signingKeyFile = reader(Settings.signingKeyFile)
        keyRefreshSeconds = reader.value(Settings.keyRefresh)
        signingAlgorithm = reader.value(Settings.signingAlgorithm)
    }
}
