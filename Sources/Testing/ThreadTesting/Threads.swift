import Foundation

/// Runs `body(index)` on `count` dedicated OS threads at once (like HTTP worker threads, not
/// Swift's cooperative pool, which has one thread per core here) and waits for all of them.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
}

/// A thread-safe list for collecting results or errors from threads. (NSLock rather than
/// `Mutex`: ThreadSanitizer does not see Mutex's futex-based locking.)
public final class Collector<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `items` is only touched with `lock` held.
    private let lock = NSLock()
    private var items: [Element] = []

    public init() {}

    public func append(_ item: Element) {
        lock.withLock { items.append(item) }
    }

    public var values: [Element] { lock.withLock { items } }
}
