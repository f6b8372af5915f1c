import Foundation
import SettingsTable
import SQLiteStore
import Telemetry
import VerifyCore

/// `phone-verify` sub-commands. Returns the process exit code.
public enum CommandLineTool {
    public static let version = "0.1.0"

    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let args = Array(arguments.dropFirst())
        switch args.first {
        case "--help", "-h", "help":
            print(Settings.helpText)
            return 0
        case "--version":
            print("phone-verify \(version)")
            return 0
        case nil, "serve":
            return serve(environment: environment)
        case "migrate":
            return withConfiguration(environment) { c in
                let opened = try StoreFactory.open(c)
                opened.close()
                print("{\"database\":\"\(opened.description)\",\"schema_version\":\(opened.schemaVersion)}")
                return 0
            }
        case "phone":
            return PhoneCommand.run(Array(args.dropFirst()), environment: environment)
        case "keys":
            return withConfiguration(environment) { c in try KeysCommand.run(Array(args.dropFirst()), c) }
        case "config":
            guard args.dropFirst().first == "check" else {
                FileHandle.standardError.write(Data("usage: phone-verify config check\n".utf8))
                return 64
            }
            return ConfigCheckCommand.run(environment: environment)
        case "ceiling":
            return CeilingCommand.run(Array(args.dropFirst()), environment: environment)
        case "fraud":
            return fraud(Array(args.dropFirst()), environment: environment)
        case "lockout":
            return withConfiguration(environment) { c in try LockoutCommand.run(Array(args.dropFirst()), c) }
        case "limits":
            return withConfiguration(environment) { c in try LimitsCommand.run(Array(args.dropFirst()), c) }
        case "backup":
            return backup(args, environment: environment)
        default:
            FileHandle.standardError.write(Data("phone-verify: unknown command \(args[0]); see --help\n".utf8))
            return 64
        }
    }

    /// `backup FILE`: a consistent copy of the SQLite database in a new file.
    static func backup(_ args: [String], environment: [String: String]) -> Int32 {
        guard args.count == 2 else {
            FileHandle.standardError.write(Data("usage: phone-verify backup FILE (a new file: a consistent copy of the SQLite database)\n".utf8))
            return 64
        }
        return withConfiguration(environment) { c in
            guard c.postgresURL == nil else {
                FileHandle.standardError.write(Data("phone-verify: the store is PostgreSQL: back it up with pg_dump or your provider's snapshots\n".utf8))
                return 64
            }
            guard !FileManager.default.fileExists(atPath: args[1]) else {
                FileHandle.standardError.write(Data("phone-verify: \(args[1]) exists; backups go to a new file\n".utf8))
                return 73
            }
            let opened = try StoreFactory.openExisting(c)
            defer { opened.close() }
            guard let store = opened.store as? SQLiteStore else { return 70 }
            try store.backup(to: args[1])
            print("{\"backup\":\"\(args[1])\",\"schema_version\":\(opened.schemaVersion)}")
            return 0
        }
    }

    static func withConfiguration(_ environment: [String: String], _ body: (Configuration) throws -> Int32) -> Int32 {
        do {
            return try body(try Configuration.load(environment: environment))
        } catch {
            FileHandle.standardError.write(Data("phone-verify: \(error)\n".utf8))
            return 78
        }
    }

    /// `fraud list | allow KEY | block KEY | clear KEY` on the configured store (keys:
    /// `prefix:+1415555` or `country:US`).
    static func fraud(_ args: [String], environment: [String: String]) -> Int32 {
        withConfiguration(environment) { c in
            let opened = try StoreFactory.openExisting(c)
            defer { opened.close() }
            let admin = FraudAdmin(store: opened.store, clock: SystemClock(), policy: c.fraud)
            switch (args.first, args.count) {
            case ("list", 1):
                for (stat, verdict) in try admin.verdicts() {
                    let conversion = stat.conversion.map { String(Int(($0 * 100).rounded())) + "%" } ?? "-"
                    let why = verdict.reason.isEmpty ? "" : "\t" + verdict.reason
                    print("\(stat.key)\tsent=\(stat.sent)\tapproved=\(stat.approved)\tconversion=\(conversion)\toverride=\(stat.action?.rawValue ?? "-")\tstate=\(verdict.state.rawValue)\trefused=\(FraudAdmin.isRefused(verdict))\(why)")
                }
                return 0
            case ("allow", 2), ("block", 2), ("clear", 2):
                let action = args[0] == "clear" ? nil : FraudAction(rawValue: args[0])
                do { try admin.setOverride(key: args[1], action: action) } catch let error as VerifyError {
                    FileHandle.standardError.write(Data("phone-verify: \(error.message)\n".utf8))
                    return 64
                }
                print("\(args[1]): \(action?.rawValue ?? "cleared")")
                return 0
            default:
                FileHandle.standardError.write(Data("usage: phone-verify fraud list | allow KEY | block KEY | clear KEY (KEY: prefix:+1415555 or country:US)\n".utf8))
                return 64
            }
        }
    }

    static func serve(environment: [String: String]) -> Int32 {
        withConfiguration(environment) { c in
            let logger = Logger(handler: JSONLogHandler(), minimumLevel: c.logLevel, context: [])
            let app = Application(configuration: c, logger: logger)
            let signals = SignalWaiter(signals: [SIGTERM, SIGINT])
            do {
                try app.start()
            } catch {
                logger.error("start-up failed", [("error", String(describing: error))])
                FileHandle.standardError.write(Data("phone-verify: start-up failed: \(error)\n".utf8))
                // A key file that cannot be used is configuration (78: restarting will not help).
                return error is KeyMaterial.Failure || error is KeyActivation.RetiredKey ? 78 : 1
            }
            let listen = "http://\(Application.urlHost(c.listenHost)):\(app.port)"
            FileHandle.standardOutput.write(Data("phone-verify listening on \(listen) (issuer \(app.issuer), \(c.mode.rawValue) mode)\n".utf8))
            let signal = signals.wait()
            logger.info("shutting down", [("signal", String(signal))])
            app.shutdown()
            return 0
        }
    }
}
