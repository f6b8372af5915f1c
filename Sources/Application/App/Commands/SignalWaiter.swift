import Dispatch
import Foundation

/// Turns SIGTERM / SIGINT into a blocking wait, so the main thread can shut down in order.
final class SignalWaiter: @unchecked Sendable {
    // @unchecked: `sources` and `received` are only touched with `lock` held; the semaphore is thread-safe.
    private let semaphore = DispatchSemaphore(value: 0)
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()
    private var received: Int32 = 0

    init(signals: [Int32]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                lock.lock()
                if received == 0 { received = number }
                lock.unlock()
                semaphore.signal()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Blocks until one of the signals arrives; returns its number.
    func wait() -> Int32 {
        semaphore.wait()
        lock.lock()
        defer { lock.unlock() }
        return received
    }
}
