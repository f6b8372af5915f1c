import API
import HTTPMessages
import Synchronization

/// A body produced once by a blocking call (run by the transport off its worker threads).
final class OneShotBody: HTTPBodyStream {
    private let produce: @Sendable () -> [UInt8]
    private let done = Atomic<Bool>(false)

    init(_ produce: @escaping @Sendable () -> [UInt8]) {
        self.produce = produce
    }

    func next() -> [UInt8]? {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        return produce()
    }

    func close() {}
}
