#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pthread condition variable, waited on through ``Lock/wait(_:)``.
///
/// Timed waits use CLOCK_MONOTONIC so wall-clock changes cannot stretch them.
final class Condition: @unchecked Sendable {
    // @unchecked: the condition lives at a stable heap address and is only
    // waited on with its lock held, as pthread requires.
    let handle: UnsafeMutablePointer<pthread_cond_t>

    init() {
        handle = .allocate(capacity: 1)
        handle.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, clockid_t(CLOCK_MONOTONIC))
        let code = pthread_cond_init(handle, &attributes)
        pthread_condattr_destroy(&attributes)
        precondition(code == 0, "pthread_cond_init failed: \(code)")
    }

    deinit {
        pthread_cond_destroy(handle)
        handle.deinitialize(count: 1)
        handle.deallocate()
    }

    /// Wakes one waiter.
    func signal() {
        pthread_cond_signal(handle)
    }

    /// Wakes every waiter.
    func broadcast() {
        pthread_cond_broadcast(handle)
    }
}
