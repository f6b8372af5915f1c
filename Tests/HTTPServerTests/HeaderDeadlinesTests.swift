import Glibc
@testable import HTTPServer
import Testing

/// The duplicate descriptors behind the header timeout never outlive their connection, also
/// when libmicrohttpd drops a connection without a notice (before it started, or at a stop).
@Suite struct HeaderDeadlinesTests {
    /// A connected pair: the server side and the client's.
    static func pair() -> (server: Int32, client: Int32) {
        var fds: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    /// Whether the client sees end-of-stream (every descriptor of the server side closed).
    static func clientSeesEOF(_ client: Int32) -> Bool {
        var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 1000) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(client, &byte, 1, 0) == 0
    }

    /// libmicrohttpd closed a connection before it started, with no notice, and the kernel
    /// handed its number to the next accept: the first duplicate must go, or it would keep the
    /// first client's socket open for ever. (The same open socket stands in for the reused number:
    /// tests run in parallel, so real descriptor numbers cannot be arranged.)
    @Test func aDescriptorNumberAcceptedAgainReleasesTheStaleDuplicate() {
        let deadlines = HeaderDeadlines(timeoutSeconds: 10)
        let pair = Self.pair()
        #expect(deadlines.accepted(socket: pair.server))
        #expect(deadlines.accepted(socket: pair.server))
        #expect(deadlines.count == 1)
        _ = close(pair.server)
        deadlines.closeAll()
        #expect(Self.clientSeesEOF(pair.client))  // no duplicate left anywhere
        _ = close(pair.client)
    }

    /// Past ten header timeouts without a start notice, libmicrohttpd dropped the connection.
    /// Before that, a connection waiting for a busy worker is left alone: its duplicate must be
    /// there when the worker starts it, or it would get no header deadline at all.
    @Test func aSweepClosesDuplicatesOfConnectionsThatNeverStarted() {
        let deadlines = HeaderDeadlines(timeoutSeconds: 0.05)
        let pair = Self.pair()
        #expect(deadlines.accepted(socket: pair.server))
        _ = close(pair.server)
        usleep(100_000)  // past the header timeout, within the start grace
        #expect(deadlines.sweep() == 0)
        #expect(deadlines.count == 1)
        usleep(500_000)  // past ten header timeouts
        #expect(deadlines.sweep() == 1)
        #expect(deadlines.count == 0)
        #expect(Self.clientSeesEOF(pair.client))
        _ = close(pair.client)
    }

    @Test func closeAllAndNotAddedLeaveNothingOpen() {
        let deadlines = HeaderDeadlines(timeoutSeconds: 10)
        let kept = Self.pair()
        let refused = Self.pair()
        #expect(deadlines.accepted(socket: kept.server))
        #expect(deadlines.accepted(socket: refused.server))
        _ = close(refused.server)  // MHD_add_connection refused it (and closed it)
        deadlines.notAdded(socket: refused.server)
        #expect(Self.clientSeesEOF(refused.client))
        _ = close(kept.server)  // dropped at a daemon stop, no notice
        deadlines.closeAll()
        #expect(deadlines.count == 0)
        #expect(Self.clientSeesEOF(kept.client))
        _ = close(kept.client)
        _ = close(refused.client)
    }
}
