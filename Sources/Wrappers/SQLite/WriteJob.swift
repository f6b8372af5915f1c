import Dispatch

/// One `write` call waiting for, or being run by, the leading caller (``Writer``).
///
/// The caller sleeps on its own semaphore, so finishing a batch wakes exactly the callers in
/// it, and none of them then queues on the writer's lock (they are woken after it is released).
final class WriteJob: @unchecked Sendable {
    // @unchecked: `outcome` is written by the leading caller before `done` is signalled and
    // read by the caller only after `done` was waited on (the semaphore orders the two).
    let work: @Sendable (Connection) throws -> any Sendable
    let done = DispatchSemaphore(value: 0)
    var outcome: Result<any Sendable, any Error>?

    init(_ work: @escaping @Sendable (Connection) throws -> any Sendable) {
        self.work = work
    }
}
