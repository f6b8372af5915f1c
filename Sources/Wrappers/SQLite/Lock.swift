#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A plain pthread mutex: blocks in the kernel instead of spinning.
///
/// Used for the short critical sections around the write queue and the reader
/// pool; it is never held across SQLite I/O. (Swift's `Mutex` spins before
/// sleeping on Linux, which burns CPU when waits are long.)
final class Lock: @unchecked Sendable {
    // @unchecked: the mutex lives at a stable heap address and pthread makes
    // concurrent use of it safe.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let code = pthread_mutex_init(mutex, nil)
        precondition(code == 0, "pthread_mutex_init failed: \(code)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() {
        pthread_mutex_lock(mutex)
    }

    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` with the lock held.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Atomically releases the lock and waits for `condition`; the lock is held
    /// again on return. Wake-ups may be spurious: wait in a loop.
    func wait(_ condition: Condition) {
        pthread_cond_wait(condition.handle, mutex)
    }

    /// Like ``wait(_:)`` but gives up at `deadline` (CLOCK_MONOTONIC).
    /// Returns `false` when the deadline passed.
    func wait(_ condition: Condition, until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition.handle, mutex, &deadline) != ETIMEDOUT
    }

    /// The CLOCK_MONOTONIC time `micros` microseconds from now.
    static func deadline(afterMicros micros: Int) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanos = Int(now.tv_nsec) + (micros % 1_000_000) * 1_000
        now.tv_sec += micros / 1_000_000 + nanos / 1_000_000_000
        now.tv_nsec = nanos % 1_000_000_000
        return now
    }
}
