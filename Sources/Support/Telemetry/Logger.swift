import Foundation

/// A log record: message plus flat string fields (never codes, secrets or full phone numbers).
public struct LogRecord: Sendable {
    public let time: Date
    public let level: LogLevel
    public let message: String
    public let fields: [(String, String)]

    public init(time: Date, level: LogLevel, message: String, fields: [(String, String)]) {
        self.time = time
        self.level = level
        self.message = message
        self.fields = fields
    }
}

/// Where log records go (JSON lines on stderr in production, a capture in tests).
public protocol LogHandler: Sendable {
    func write(_ record: LogRecord)
}

/// The API callers use: a level threshold, fixed context fields, and a handler.
public struct Logger: Sendable {
    public let handler: any LogHandler
    public let minimumLevel: LogLevel
    public let context: [(String, String)]

    public init(handler: any LogHandler, minimumLevel: LogLevel = .info, context: [(String, String)] = []) {
        self.handler = handler
        self.minimumLevel = minimumLevel
        self.context = context
    }

    /// A logger that drops everything.
    public static let disabled = Logger(handler: NullLogHandler(), minimumLevel: .error)

    /// A copy with more context fields.
    public func with(_ fields: [(String, String)]) -> Logger {
        Logger(handler: handler, minimumLevel: minimumLevel, context: context + fields)
    }

    public func isEnabled(_ level: LogLevel) -> Bool { level >= minimumLevel }

    /// The message and the fields are built only when `level` is enabled: a line below the
    /// minimum level costs its caller no allocation (masked numbers, joined strings).
    public func log(
        _ level: LogLevel, _ message: @autoclosure () -> String, _ fields: @autoclosure () -> [(String, String)] = []
    ) {
        guard level >= minimumLevel else { return }
        handler.write(LogRecord(time: Date(), level: level, message: message(), fields: context + fields()))
    }

    public func debug(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> [(String, String)] = []) {
        log(.debug, message(), fields())
    }
    public func info(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> [(String, String)] = []) {
        log(.info, message(), fields())
    }
    public func warning(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> [(String, String)] = []) {
        log(.warning, message(), fields())
    }
    public func error(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> [(String, String)] = []) {
        log(.error, message(), fields())
    }
}

/// Drops every record.
public struct NullLogHandler: LogHandler {
    public init() {}
    public func write(_ record: LogRecord) {}
}
