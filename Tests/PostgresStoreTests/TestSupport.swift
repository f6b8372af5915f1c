import Foundation
import Postgres
import PostgresStore
import Testing
import VerifyCore
import VerifyTesting

/// The PostgreSQL server the tests run against (`scripts/postgres start`). Every test works in
/// its own schema, so tests run in parallel and runs never see each other's rows.
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["PHONE_VERIFY_TEST_POSTGRES_URL"]
        ?? "postgres://postgres@127.0.0.1:55432/phone_verify_test"

    /// A schema name no other test or run uses (its creation time first, for cleanup).
    static func freshSchema() -> String {
        _ = cleanedUp
        return "pv_test_\(Int(Date().timeIntervalSince1970))_\(UInt32.random(in: 0...UInt32.max))"
    }

    /// A store in `schema`: one "replica". Two stores on one schema are two replicas (two pools).
    static func store(schema: String, poolSize: Int = 8) throws -> PostgresStore {
        do {
            return try PostgresStore(url: url, poolSize: poolSize, schema: schema)
        } catch let error as PostgresStoreError {
            guard case .unreachable = error else { throw error }
            throw ServerUnreachable(reason: "\(error)")
        }
    }

    /// A plain connection whose `search_path` is `schema` (when given).
    static func connect(schema: String? = nil) throws -> PostgresConnection {
        var target = url
        if let schema {
            target += (target.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(schema)"
        }
        do {
            return try PostgresConnection(url: target)
        } catch let error as PostgresError where error.isConnectionFailure {
            throw ServerUnreachable(reason: error.message)
        }
    }

    /// Drops test schemas (this suite's and the contract suite's) older than an hour, once per run.
    static let cleanedUp: Void = {
        guard let connection = try? PostgresConnection(url: url) else { return }
        let cutoff = Int(Date().timeIntervalSince1970) - 3600
        let schemas = (try? connection.query(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pv\\_test\\_%' OR nspname LIKE 'pv\\_contract\\_%'")) ?? []
        for row in schemas {
            guard let name = row.text("nspname") else { continue }
            let parts = name.split(separator: "_")
            guard parts.count == 4, let created = Int(parts[2]), created < cutoff else { continue }
            try? connection.execute("DROP SCHEMA IF EXISTS \(name) CASCADE")
        }
    }()
}

/// The database is down: fail with instructions, never skip.
struct ServerUnreachable: Error, CustomStringConvertible {
    let reason: String
    var description: String {
        "PostgreSQL test server unreachable (\(reason)); start it with `scripts/postgres start` "
            + "or set PHONE_VERIFY_TEST_POSTGRES_URL"
    }
}



/// How a service call ended, for counting outcomes of parallel calls.
enum Outcome: Hashable, Sendable, CustomStringConvertible {
    case ok
    case refused(ErrorCode)
    case failed(String)

    init(_ body: () throws -> Void) {
        do {
            try body()
            self = .ok
        } catch let error as VerifyError {
            self = .refused(error.code)
        } catch {
            self = .failed("\(error)")
        }
    }

    var description: String {
        switch self {
        case .ok: return "ok"
        case .refused(let code): return code.rawValue
        case .failed(let message): return "failed: \(message)"
        }
    }
}

extension Array where Element == Outcome {
    func count(_ outcome: Outcome) -> Int { filter { $0 == outcome }.count }
    var failures: [String] { compactMap { if case .failed(let m) = $0 { return m } else { return nil } } }
}

/// A `VerificationService` on `store` with the fakes of VerifyTesting: one replica's service.
func makeService(
    _ store: any VerificationStore, clock: ManualClock, protection: AbuseProtection = AbuseProtection(),
    policy: VerificationPolicy = VerificationPolicy()
) -> VerificationService {
    let random = SeededRandom(seed: UInt64.random(in: 0...UInt64.max))
    return VerificationService(
        store: store, parser: FakePhoneParser(), hasher: FakeHasher(), sealer: FakeSealer(), random: random, clock: clock,
        policy: policy, composer: TemplateComposer(), notifier: CountingNotifier(),
        issuer: CredentialIssuer(issuer: "http://issuer.test", audience: "main-auth", keys: FakeSigner(), random: random),
        protection: protection)
}

/// The code a phone would receive: the newest message of the verification, opened.
func lastCode(_ store: any VerificationStore, _ verificationID: String) throws -> String {
    let message = try #require(try store.read { try $0.latestMessage(verificationID: verificationID) })
    let payload = try JSONDecoder().decode(MessagePayload.self, from: Data(try FakeSealer().open(message.sealedPayload)))
    return payload.code
}

/// A code that is not `code` (same length, digits only).
func wrong(_ code: String) -> String {
    String(code.map { $0 == "9" ? "0" : Character(String(($0.wholeNumberValue ?? 0) + 1)) })
}
