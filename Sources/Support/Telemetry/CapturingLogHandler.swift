import Foundation

/// Keeps records in memory (tests, and tests proving nothing secret is logged).
public final class CapturingLogHandler: LogHandler, @unchecked Sendable {
    // @unchecked: the records are only touched with `lock` held.
    private let lock = NSLock()
    private var stored: [LogRecord] = []

    public init() {}

    public func write(_ record: LogRecord) {
        lock.lock()
        stored.append(record)
        lock.unlock()
    }

    public var records: [LogRecord] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// Every record as its JSON line.
    public var lines: [String] {
        records.map { String(decoding: JSONLogHandler.encode($0), as: UTF8.self) }
    }
}
