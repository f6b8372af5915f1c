import Glibc
import HTTPMessages
import Synchronization

/// A body stream for tests: hands out `chunks` in order, sleeping `delay` before each, then
/// ends; or (when `endless`) keeps returning empty chunks until closed; or (when `repeating`)
/// starts over.
final class TestStream: HTTPBodyStream {
    private let chunks: [[UInt8]]
    private let delayMicroseconds: UInt32
    private let endless: Bool
    private let repeating: Bool
    private let position = Atomic<Int>(0)
    private let closeCount = Atomic<Int>(0)

    init(_ chunks: [[UInt8]], delayMilliseconds: UInt32 = 0, endless: Bool = false, repeating: Bool = false) {
        self.chunks = chunks
        self.delayMicroseconds = delayMilliseconds * 1000
        self.endless = endless
        self.repeating = repeating
    }

    var closes: Int { closeCount.load(ordering: .acquiring) }

    func next() -> [UInt8]? {
        if delayMicroseconds > 0 { usleep(delayMicroseconds) }
        if closes > 0 { return nil }
        let index = position.add(1, ordering: .relaxed).oldValue
        if index < chunks.count { return chunks[index] }
        if repeating { return chunks[index % chunks.count] }
        return endless ? [] : nil
    }

    func close() { closeCount.add(1, ordering: .releasing) }

    /// Polls until `close()` was called or `milliseconds` passed.
    func waitForClose(milliseconds: Int = 2000) -> Int {
        for _ in 0..<(milliseconds / 10) where closes == 0 { usleep(10_000) }
        return closes
    }
}
