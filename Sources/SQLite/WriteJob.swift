/// One `write` call waiting for, or being run by, the writer thread.
///
/// `outcome` and `isDone` are only touched with the writer's lock held; the
/// caller sleeps on its own `done` condition, so finishing a batch wakes exactly
/// the callers in it.
final class WriteJob: @unchecked Sendable {
    // @unchecked: mutable state is guarded by Writer.lock (see above).
    let work: @Sendable (Connection) throws -> any Sendable
    let done = Condition()
    var isDone = false
    var outcome: Result<any Sendable, any Error>?

    init(_ work: @escaping @Sendable (Connection) throws -> any Sendable) {
        self.work = work
    }
}
