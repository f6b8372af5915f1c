import CPostgres
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One libpq connection with a prepared-statement cache.
///
/// Not `Sendable`: a `PGconn` must be used by one thread at a time. Own it in
/// one place, or borrow it from a ``PostgresPool`` inside `withConnection`.
/// All calls block the calling thread (libpq is synchronous), so call them
/// from your own threads, not from Swift's cooperative pool. The connection is
/// closed (`PQfinish`) by ``close()`` or when the object is released.
public final class PostgresConnection {
    /// The `PGconn`; `nil` once closed.
    var handle: OpaquePointer?
    /// What this connection was opened with.
    public let url: PostgresURL
    /// Prepared statements by SQL text and declared parameter types; values are server-side names.
    var statements: [StatementKey: String] = [:]
    /// Numbers the statement names `s1`, `s2`, …
    var statementCounter = 0
    /// How many ``transaction(isolation:_:)`` calls are open (inner ones use savepoints).
    var transactionDepth = 0
    /// Counts statements and round trips when a test asked for it (set by the pool).
    public var counter: QueryCounter?

    /// Beyond this many cached statements, new SQL runs unprepared (`PQexecParams`),
    /// which bounds server memory when callers build SQL dynamically.
    static let statementCacheLimit = 512

    /// Connects to the server `url` names (`postgres://user:pass@host:port/db?sslmode=…`).
    public convenience init(url: String) throws {
        try self.init(PostgresURL(url))
    }

    /// Connects with `PQconnectdbParams` from the URL's separate keyword/value pairs.
    public init(_ url: PostgresURL) throws {
        self.url = url
        handle = try Self.connect(url)
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    private static func connect(_ url: PostgresURL) throws -> OpaquePointer {
        let pairs = url.connectionParameters
        // expand_dbname = 0: the database name is a name, never a connection string.
        let connection = withCStringArray(pairs.map(\.keyword)) { keywords in
            withCStringArray(pairs.map(\.value)) { values in
                PQconnectdbParams(keywords, values, 0)
            }
        }
        guard let connection else {
            throw PostgresError(kind: .connection, message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = PostgresResult.connectionMessage(connection)
            PQfinish(connection)
            throw PostgresError(kind: .connection, message: message)
        }
        silenceNotices(connection)
        return connection
    }

    /// Drops NOTICE/WARNING messages (libpq would print them to stderr).
    private static func silenceNotices(_ connection: OpaquePointer) {
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    /// The open handle, or a `.usage` error after ``close()``.
    func openHandle() throws -> OpaquePointer {
        guard let handle else { throw PostgresError.closed }
        return handle
    }

    /// Whether the connection is usable (`PQstatus` is `CONNECTION_OK`).
    ///
    /// An idle connection has nothing to read, so before asking `PQstatus` this
    /// reads whatever already arrived without blocking: a backend the server
    /// terminated (`pg_terminate_backend`, restart) shows up here as a closed
    /// socket instead of failing the next query. No round trip is made.
    public var isHealthy: Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { return false }
        let socket = PQsocket(handle)
        guard socket >= 0 else { return false }
        for _ in 0..<8 {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { break }
            if PQconsumeInput(handle) == 0 { return false }
        }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// The server this connection reached: with several hosts (`h1:5432,h2:5432`) the one libpq
    /// settled on, with `service` the one the service file names. `nil` when closed.
    public var server: (host: String, port: String, database: String)? {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { return nil }
        func text(_ value: UnsafeMutablePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
        return (text(PQhost(handle)), text(PQport(handle)), text(PQdb(handle)))
    }

    /// The value libpq used for a connection parameter (`passfile`, `sslmode`, …), defaults and
    /// service-file entries included; `nil` when unset, when closed, and always for a secret one
    /// (the password, `sslpassword`).
    public func effectiveOption(_ keyword: String) -> String? {
        guard let handle, let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword {
                if let display = option.pointee.dispchar, String(cString: display).contains("*") { return nil }
                return option.pointee.val.map { String(cString: $0) }
            }
            option += 1
        }
        return nil
    }

    /// Whether a transaction is open (including a failed one awaiting ROLLBACK).
    public var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// The server process serving this connection (`pg_backend_pid()`), 0 when closed.
    public var processID: Int32 {
        handle.map { PQbackendPID($0) } ?? 0
    }

    /// Reconnects with the same parameters (`PQreset`) and empties the
    /// statement cache, since the new session has no prepared statements.
    public func reset() throws {
        let handle = try openHandle()
        statements.removeAll()
        transactionDepth = 0
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(kind: .connection, message: PostgresResult.connectionMessage(handle))
        }
        Self.silenceNotices(handle)
    }

    /// Closes the connection now; later calls throw. Released connections close by themselves.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        statements.removeAll()
    }
}

/// A connection belongs to one thread at a time; the pool hands it across
/// threads only between uses, under its lock.
@available(*, unavailable)
extension PostgresConnection: Sendable {}
