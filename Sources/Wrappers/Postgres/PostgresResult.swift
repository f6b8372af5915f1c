import CPostgres

/// Reads a `PGresult`: checks its status, turns failures into
/// ``PostgresError``s and decodes rows. The caller owns the result and clears
/// it (with `defer`); nothing here keeps a pointer into it.
enum PostgresResult {
    /// Throws when `result` is missing or failed; `result` stays owned by the caller.
    static func check(_ result: OpaquePointer?, connection: OpaquePointer, sql: String?) throws {
        guard let result else { throw error(nil, connection: connection, sql: sql) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_SINGLE_TUPLE:
            return
        case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
            abandonCopy(connection, PQresultStatus(result))
            throw PostgresError(kind: .usage, message: "COPY is not supported by this wrapper", sql: sql)
        default:
            throw error(result, connection: connection, sql: sql)
        }
    }

    /// The error a failed (or missing) result describes.
    static func error(_ result: OpaquePointer?, connection: OpaquePointer, sql: String?) -> PostgresError {
        let broken = PQstatus(connection) == CONNECTION_BAD
        guard let result else {
            return PostgresError(kind: broken ? .connection : .usage, message: connectionMessage(connection), sql: sql)
        }
        let sqlState = field(result, CPostgresDiagSQLState)
        let message = field(result, CPostgresDiagMessagePrimary)
            ?? trimmed(String(cString: PQresultErrorMessage(result)))
        let kind: PostgresError.Kind = broken ? .connection : (sqlState == nil ? .usage : .server)
        return PostgresError(kind: kind, sqlState: sqlState, message: message.isEmpty ? connectionMessage(connection) : message,
                             detail: field(result, CPostgresDiagMessageDetail), sql: sql,
                             constraint: field(result, diagConstraintName))
    }

    /// `PG_DIAG_CONSTRAINT_NAME` ('n'), a character-literal macro Swift cannot import.
    static let diagConstraintName = Int32(UInt8(ascii: "n"))

    /// `PQerrorMessage` without its trailing newline (libpq's last error on the connection).
    static func connectionMessage(_ connection: OpaquePointer) -> String {
        let message = trimmed(String(cString: PQerrorMessage(connection)))
        return message.isEmpty ? "unknown libpq error" : message
    }

    /// The number `PQcmdTuples` reports (rows inserted, updated, deleted, selected …), 0 when none.
    static func affectedRows(_ result: OpaquePointer) -> Int {
        Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Decodes every row of a text-format result by column type.
    static func rows(_ result: OpaquePointer) -> [PostgresRow] {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        guard rowCount > 0 else { return [] }
        let columns = PostgresColumns((0..<columnCount).map { String(cString: PQfname(result, $0)) })
        let decodings = (0..<columnCount).map { PostgresType.decoding(for: PQftype(result, $0)) }
        var rows: [PostgresRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [PostgresValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                values.append(value(result, row, column, decodings[Int(column)]))
            }
            rows.append(PostgresRow(columns: columns, values: values))
        }
        return rows
    }

    private static func value(_ result: OpaquePointer, _ row: Int32, _ column: Int32,
                              _ decoding: PostgresType.Decoding) -> PostgresValue {
        if PQgetisnull(result, row, column) != 0 { return .null }
        let length = Int(PQgetlength(result, row, column))
        let bytes = UnsafeRawPointer(PQgetvalue(result, row, column)!).assumingMemoryBound(to: UInt8.self)
        let buffer = UnsafeBufferPointer(start: bytes, count: length)
        if decoding == .bytes { return .bytes(decodeBytea(buffer)) }
        if decoding == .bool { return .bool(length == 1 && buffer[0] == UInt8(ascii: "t")) }
        let text = String(decoding: buffer, as: UTF8.self)
        switch decoding {
        // The server's own output always parses; fall back to text rather than trap if it ever does not.
        case .int: return Int64(text).map { .int($0) } ?? .text(text)
        case .double: return Double(text).map { .double($0) } ?? .text(text)
        default: return .text(text)
        }
    }

    /// `bytea` text output: hex (`\x00ff`, the default) decoded here; the old
    /// escape format through `PQunescapeBytea`.
    static func decodeBytea(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        if text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 {
            var bytes: [UInt8] = []
            bytes.reserveCapacity((text.count - 2) / 2)
            var index = 2
            while index < text.count {
                guard let high = hex(text[index]), let low = hex(text[index + 1]) else { return unescape(text) }
                bytes.append(high << 4 | low)
                index += 2
            }
            return bytes
        }
        return unescape(text)
    }

    private static func unescape(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        // PQunescapeBytea needs a NUL-terminated string.
        let terminated = Array(text) + [0]
        var length = 0
        guard let decoded = PQunescapeBytea(terminated, &length) else { return [] }
        defer { PQfreemem(decoded) }
        return Array(UnsafeBufferPointer(start: decoded, count: length))
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func field(_ result: OpaquePointer, _ code: Int32) -> String? {
        guard let value = PQresultErrorField(result, code) else { return nil }
        return String(cString: value)
    }

    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }

    /// Ends a COPY that a statement started, so the connection is usable again:
    /// refuses COPY FROM STDIN, discards COPY TO STDOUT, then drains the results.
    private static func abandonCopy(_ connection: OpaquePointer, _ status: ExecStatusType) {
        var status = status
        // Bounded: a script cannot hold more COPY statements than this in practice.
        for _ in 0..<1000 {
            if status == PGRES_COPY_IN {
                guard PQputCopyEnd(connection, "COPY is not supported by this wrapper") == 1 else { return }
            } else if status == PGRES_COPY_OUT {
                var buffer: UnsafeMutablePointer<CChar>?
                while PQgetCopyData(connection, &buffer, 0) > 0 { PQfreemem(buffer) }
            } else if status == PGRES_COPY_BOTH {
                return  // replication only; the connection is left to be discarded
            }
            guard let next = PQgetResult(connection) else { return }
            status = PQresultStatus(next)
            PQclear(next)
        }
    }
}
