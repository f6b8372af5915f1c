import Foundation

/// Thread-safe success counter for concurrent tests.
final class ResultBox: @unchecked Sendable {
    // @unchecked: the counts are only touched with `lock` held.
    private let lock = NSLock()
    private var ok = 0
    private var failed = 0

    func record(_ success: Bool) {
        lock.lock()
        if success { ok += 1 } else { failed += 1 }
        lock.unlock()
    }

    var successes: Int {
        lock.lock()
        defer { lock.unlock() }
        return ok
    }

    var failures: Int {
        lock.lock()
        defer { lock.unlock() }
        return failed
    }
}
