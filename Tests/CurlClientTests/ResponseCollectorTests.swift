@testable import CurlClient
import Testing

/// Header parsing keeps only the final response's fields; limits abort the transfer.
@Suite struct ResponseCollectorTests {
    private func feed(_ collector: ResponseCollector, _ lines: [String]) -> [Int] {
        lines.map { line in Array(line.utf8).withUnsafeBytes { collector.appendHeaderLine($0) } }
    }

    @Test func interimResponsesAreDropped() {
        let collector = ResponseCollector(maxBodyBytes: 10)
        let consumed = feed(collector, [
            "HTTP/1.1 100 Continue\r\n", "X-Interim: yes\r\n", "\r\n",
            "HTTP/1.1 200 OK\r\n", "Content-Type:  text/plain \r\n", "X-Folded: first\r\n", "\t second\r\n",
            "Empty:\r\n", "\r\n",
        ])
        #expect(consumed == [23, 16, 2, 17, 28, 17, 10, 8, 2])
        #expect(collector.headers.map { [$0.name, $0.value] } == [
            ["Content-Type", "text/plain"], ["X-Folded", "first second"], ["Empty", ""],
        ])
    }

    @Test func trailersAfterBodyAreIgnored() {
        let collector = ResponseCollector(maxBodyBytes: 10)
        _ = feed(collector, ["HTTP/1.1 200 OK\r\n", "A: 1\r\n", "\r\n"])
        _ = Array("body".utf8).withUnsafeBytes { collector.appendBody($0) }
        _ = feed(collector, ["Trailer-Field: x\r\n", "\r\n"])
        #expect(collector.headers.map(\.name) == ["A"])
        #expect(collector.body == Array("body".utf8))
    }

    @Test func bodyLimitAbortsAtTheFirstByteOver() {
        let collector = ResponseCollector(maxBodyBytes: 6)
        #expect(Array("abc".utf8).withUnsafeBytes { collector.appendBody($0) } == 3)
        #expect(Array("def".utf8).withUnsafeBytes { collector.appendBody($0) } == 3)
        #expect(!collector.limitExceeded)
        #expect(Array("g".utf8).withUnsafeBytes { collector.appendBody($0) } == 0)
        #expect(collector.limitExceeded)
        #expect(collector.body == Array("abcdef".utf8))
    }

    @Test func headerLimitAborts() {
        let collector = ResponseCollector(maxBodyBytes: 10)
        let big = "X-Big: " + String(repeating: "a", count: ResponseCollector.maxHeaderBytes) + "\r\n"
        #expect(feed(collector, ["HTTP/1.1 200 OK\r\n", big]) == [17, 0])
        #expect(collector.limitExceeded)
    }
}
