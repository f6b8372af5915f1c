import Foundation

/// The source of "now" for the domain; tests pass a manual clock.
public protocol Clock: Sendable {
    func now() -> Date
}

/// Wall-clock time.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}
