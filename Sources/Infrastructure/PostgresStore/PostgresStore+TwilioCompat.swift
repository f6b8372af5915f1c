import Foundation
import Postgres
import VerifyCore

/// The Twilio-compatible API's services and verification links (tables of migration 6), with
/// the same semantics as `SQLiteStore`'s.
///
/// These reads do not go through the transaction's cache: each is a query on the transaction's
/// connection (one round trip; in a write, inside its transaction, sending `BEGIN` if needed).
/// They are not on any request's hot path. A write body's own buffered changes are laid over what
/// the server returns (services saved or deleted, links inserted, verifications updated, messages
/// enqueued or superseded), so a body reads its writes as it would on SQLite; reruns of the body
/// simply query again. In a write, a service read locks its row (`FOR UPDATE`: an update or
/// delete of a service is a read-modify-write), and the latest-verification lookup takes a
/// transaction-scoped advisory lock on (service, number) first, so two concurrent starts for one
/// number serialise as SQLite's single writer does (they also share the number's rate-limit logs,
/// locked before the body runs).
extension PostgresStore: TwilioCompatStore {}

extension CachedTransaction: TwilioCompatTransaction {
    static let serviceColumns = "sid, account_sid, settings, created_at, updated_at"
    static let linkColumns = "verification_id, service_sid, account_sid, to_number, created_at"

    // MARK: TwilioCompatReader

    func twilioCompatService(sid: String) throws -> TwilioCompatServiceRecord? {
        if let change = changes.twilioCompatServices[sid] { return change }
        let rows = try direct([
            (
                "SELECT \(Self.serviceColumns) FROM twilio_services WHERE sid = $1" + (mode == .write ? " FOR UPDATE" : ""),
                [.text(sid)]
            )
        ])[0]
        return try rows.first.map(Self.twilioCompatService)
    }

    func twilioCompatServices(accountSID: String, offset: Int, limit: Int) throws -> [TwilioCompatServiceRecord] {
        guard offset >= 0, limit > 0 else { return [] }
        if changes.twilioCompatServices.isEmpty {
            return try direct([
                (
                    "SELECT \(Self.serviceColumns) FROM twilio_services WHERE account_sid = $1 ORDER BY created_at, sid LIMIT $2 OFFSET $3",
                    [.text(accountSID), .int(Int64(limit)), .int(Int64(offset))]
                )
            ])[0].map(Self.twilioCompatService)
        }
        // This run saved or deleted services: page through the account's services as they now are.
        var services: [String: TwilioCompatServiceRecord] = [:]
        for row in try direct([
            ("SELECT \(Self.serviceColumns) FROM twilio_services WHERE account_sid = $1", [.text(accountSID)])
        ])[0] {
            let service = try Self.twilioCompatService(row)
            services[service.sid] = service
        }
        for (sid, change) in changes.twilioCompatServices {
            guard let change else {
                services[sid] = nil
                continue
            }
            if let stored = services[sid] {
                // An upsert keeps the stored row's account and creation time.
                services[sid] = TwilioCompatServiceRecord(
                    sid: sid, accountSID: stored.accountSID, settings: change.settings, createdAt: stored.createdAt,
                    updatedAt: change.updatedAt)
            } else if change.accountSID == accountSID {
                services[sid] = change
            }
        }
        let ordered = services.values.sorted {
            (PostgresRows.ms($0.createdAt), $0.sid) < (PostgresRows.ms($1.createdAt), $1.sid)
        }
        return Array(ordered.dropFirst(offset).prefix(limit))
    }

    func twilioCompatLink(verificationID: String) throws -> TwilioCompatVerificationLink? {
        if let link = changes.twilioCompatLinks.first(where: { $0.verificationID == verificationID }) { return link }
        return try direct([
            ("SELECT \(Self.linkColumns) FROM twilio_verifications WHERE verification_id = $1", [.text(verificationID)])
        ])[0].first.map(Self.twilioCompatLink)
    }

    func twilioCompatLatestVerificationID(serviceSID: String, to: String) throws -> String? {
        var statements: [(sql: String, params: [PostgresValue])] = []
        if mode == .write {
            statements.append((
                "SELECT pg_advisory_xact_lock(hashtextextended('phone-verify twilio link|' || $1 || '|' || $2, 0))",
                [.text(serviceSID), .text(to)]
            ))
        }
        statements.append((
            """
            SELECT verification_id, created_at FROM twilio_verifications WHERE service_sid = $1 AND to_number = $2
            ORDER BY created_at DESC, verification_id DESC LIMIT 1
            """,
            [.text(serviceSID), .text(to)]
        ))
        var latest: (at: Int64, id: String)?
        if let row = try direct(statements).last?.first {
            latest = (try PostgresRows.int(row, "created_at"), try PostgresRows.string(row, "verification_id"))
        }
        for link in changes.twilioCompatLinks where link.serviceSID == serviceSID && link.to == to {
            let candidate = (at: PostgresRows.ms(link.createdAt), id: link.verificationID)
            if latest.map({ (candidate.at, candidate.id) > ($0.at, $0.id) }) ?? true { latest = candidate }
        }
        return latest?.id
    }

    func twilioCompatPendingVerificationIDs(serviceSID: String) throws -> [String] {
        // The server's pending ones, plus those whose status this run may have changed, plus the
        // verifications of links this run inserted; then this run's statuses decide.
        let changed = Array(changes.verifications.keys.sorted())
        let linked = changes.twilioCompatLinks.filter { $0.serviceSID == serviceSID }.map(\.verificationID)
        let rows = try direct([
            (
                """
                SELECT l.verification_id AS id, v.status AS status FROM twilio_verifications l
                JOIN verifications v ON v.id = l.verification_id
                WHERE l.service_sid = $1 AND (v.status = 'pending' OR l.verification_id = ANY($2::text[]))
                UNION
                SELECT id, status FROM verifications WHERE id = ANY($3::text[])
                """,
                [.text(serviceSID), PostgresRows.textArray(changed), PostgresRows.textArray(linked)]
            )
        ])[0]
        var stored: [String: String] = [:]
        var order: [String] = []
        for row in rows {
            let id = try PostgresRows.string(row, "id")
            if stored[id] == nil { order.append(id) }
            stored[id] = try PostgresRows.string(row, "status")
        }
        for id in linked where stored[id] == nil && !order.contains(id) { order.append(id) }
        return order.filter { id in
            if let change = changes.verifications[id] { return change.value.storedStatus == .pending }
            return stored[id] == VerificationStatus.pending.rawValue
        }
    }

    func twilioCompatMessages(verificationID: String) throws -> [OutboxMessage] {
        var messages = try direct([
            (
                "SELECT \(PostgresRows.outboxColumns) FROM outbox WHERE verification_id = $1 ORDER BY created_at, seq",
                [.text(verificationID)]
            )
        ])[0].map(PostgresRows.message)
        for change in changes.outbox[verificationID] ?? [] {
            switch change {
            case .enqueue(let message):
                // After every stored message created at or before it (ties: insertion order).
                let index = messages.lastIndex { PostgresRows.ms($0.createdAt) <= PostgresRows.ms(message.createdAt) }
                messages.insert(message, at: index.map { $0 + 1 } ?? 0)
            case .supersede(let reason, let at):
                for index in messages.indices where messages[index].status == .queued {
                    messages[index].status = .failed
                    messages[index].lastError = reason
                    messages[index].sealedPayload = []
                    messages[index].updatedAt = at
                }
            }
        }
        return messages
    }

    // MARK: TwilioCompatTransaction

    func saveTwilioCompatService(_ service: TwilioCompatServiceRecord) throws {
        let settings = String(decoding: try JSONEncoder().encode(service.settings), as: UTF8.self)
        try write(
            """
            INSERT INTO twilio_services (sid, account_sid, settings, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (sid) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
            """,
            [
                .text(service.sid), .text(service.accountSID), .text(settings), PostgresRows.millis(service.createdAt),
                PostgresRows.millis(service.updatedAt),
            ])
        var saved = TwilioCompatServiceRecord(
            sid: service.sid, accountSID: service.accountSID, settings: service.settings,
            createdAt: PostgresRows.stored(service.createdAt), updatedAt: PostgresRows.stored(service.updatedAt))
        if case .some(.some(let previous)) = changes.twilioCompatServices[service.sid] {
            // An upsert keeps the row's account and creation time.
            saved = TwilioCompatServiceRecord(
                sid: service.sid, accountSID: previous.accountSID, settings: saved.settings, createdAt: previous.createdAt,
                updatedAt: saved.updatedAt)
        }
        changes.twilioCompatServices[service.sid] = .some(saved)
    }

    func deleteTwilioCompatService(sid: String) throws {
        try write("DELETE FROM twilio_services WHERE sid = $1", [.text(sid)])
        changes.twilioCompatServices.updateValue(nil, forKey: sid)
    }

    func linkTwilioCompatVerification(_ link: TwilioCompatVerificationLink) throws {
        try write(
            "INSERT INTO twilio_verifications (\(Self.linkColumns)) VALUES ($1, $2, $3, $4, $5)",
            [
                .text(link.verificationID), .text(link.serviceSID), .text(link.accountSID), .text(link.to),
                PostgresRows.millis(link.createdAt),
            ])
        changes.twilioCompatLinks.append(TwilioCompatVerificationLink(
            verificationID: link.verificationID, serviceSID: link.serviceSID, accountSID: link.accountSID, to: link.to,
            createdAt: PostgresRows.stored(link.createdAt)))
    }


    // MARK: Rows

    static func twilioCompatService(_ row: PostgresRow) throws -> TwilioCompatServiceRecord {
        let settings = try JSONDecoder().decode(
            TwilioCompatServiceSettings.self, from: Data(try PostgresRows.string(row, "settings").utf8))
        return TwilioCompatServiceRecord(
            sid: try PostgresRows.string(row, "sid"), accountSID: try PostgresRows.string(row, "account_sid"), settings: settings,
            createdAt: PostgresRows.date(try PostgresRows.int(row, "created_at")),
            updatedAt: PostgresRows.date(try PostgresRows.int(row, "updated_at")))
    }

    static func twilioCompatLink(_ row: PostgresRow) throws -> TwilioCompatVerificationLink {
        TwilioCompatVerificationLink(
            verificationID: try PostgresRows.string(row, "verification_id"), serviceSID: try PostgresRows.string(row, "service_sid"),
            accountSID: try PostgresRows.string(row, "account_sid"), to: try PostgresRows.string(row, "to_number"),
            createdAt: PostgresRows.date(try PostgresRows.int(row, "created_at")))
    }
}
