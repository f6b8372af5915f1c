import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starts dedicated OS threads for blocking work that must stay off Swift's
/// cooperative pool (the SQLite writer).
enum DetachedThread {
    /// Starts a detached thread named `name` (at most 15 bytes are kept) that
    /// runs `body` once. Throws when the thread cannot be created.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws {
        let payload = Unmanaged.passRetained(ThreadPayload(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let code = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            let payload = Unmanaged<ThreadPayload>.fromOpaque(raw).takeRetainedValue()
            csqlite_set_thread_name(payload.name)  // the kernel keeps 15 bytes
            payload.body()
            return nil
        }, payload)
        if code != 0 {
            Unmanaged<ThreadPayload>.fromOpaque(payload).release()
            throw SQLiteError.misuse("cannot start thread \(name): pthread_create returned \(code)")
        }
    }
}

/// What a new thread runs, passed through pthread's `void *` argument.
private final class ThreadPayload {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
