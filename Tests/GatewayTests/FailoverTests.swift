import Foundation
import Gateways
import Telemetry
import Testing
import VerifyCore
import VerifyTesting

@Suite struct FailoverTests {
    @Test func triesGatewaysInOrderUntilOneAccepts() {
        let first = RecordingGateway(name: "a", script: [.retryable(reason: "a down", retryAfter: nil)])
        let second = RecordingGateway(name: "b")
        let chain = FailoverGateway([first, second], clock: ManualClock(), logger: .disabled)
        guard case .sent(let via, _, _) = chain.send(sms) else { Issue.record("must be sent"); return }
        #expect(via == "b")
        #expect(first.sent.count == 1 && second.sent.count == 1)
    }

    @Test func aRefusedDestinationDoesNotFailOver() {
        let first = RecordingGateway(name: "a", script: [.permanent(reason: "invalid number")])
        let second = RecordingGateway(name: "b")
        let chain = FailoverGateway([first, second], clock: ManualClock(), logger: .disabled)
        #expect(chain.send(sms) == .permanent(reason: "invalid number"))
        #expect(second.sent.isEmpty)
    }

    @Test func allFailingIsRetryableWithTheSmallestRetryAfter() {
        let chain = FailoverGateway(
            [RecordingGateway(name: "a", script: [.retryable(reason: "x", retryAfter: 9)]),
             RecordingGateway(name: "b", script: [.retryable(reason: "y", retryAfter: 4)])],
            clock: ManualClock(), logger: .disabled)
        guard case .retryable(let reason, 4) = chain.send(sms) else { Issue.record("must be retryable after 4"); return }
        #expect(reason == "x; y")
    }

    @Test func circuitOpensAfterConsecutiveFailuresThenHalfOpens() {
        let clock = ManualClock()
        let flaky = RecordingGateway(name: "a", script: Array(repeating: .retryable(reason: "down", retryAfter: nil), count: 4))
        let backup = RecordingGateway(name: "b")
        let chain = FailoverGateway([flaky, backup], clock: clock, logger: .disabled, threshold: 3, cooldown: 30)
        for _ in 0..<3 { _ = chain.send(sms) }
        #expect(chain.circuitStates().first?.state == .open)
        for _ in 0..<5 { _ = chain.send(sms) }
        #expect(flaky.sent.count == 3)  // skipped while open
        #expect(backup.sent.count == 8)
        clock.advance(30)
        #expect(chain.circuitStates().first?.state == .halfOpen)
        _ = chain.send(sms)  // the trial fails (4th scripted failure): open again
        #expect(flaky.sent.count == 4)
        #expect(chain.circuitStates().first?.state == .open)
        clock.advance(30)
        guard case .sent(let via, _, _) = chain.send(sms) else { Issue.record("trial must send"); return }
        #expect(via == "a")
        #expect(chain.circuitStates().first?.state == .closed)
    }

    /// With every circuit open nothing is called: the message comes back when the first circuit
    /// lets a trial through, instead of spending its attempts on backoffs shorter than the cooldown.
    @Test func everyCircuitOpenRetriesWhenTheFirstTrialIsAllowed() {
        let clock = ManualClock()
        let down = RecordingGateway(name: "a", script: Array(repeating: .retryable(reason: "down", retryAfter: nil), count: 3))
        let chain = FailoverGateway([down], clock: clock, logger: .disabled, threshold: 3, cooldown: 30)
        for _ in 0..<3 { _ = chain.send(sms) }
        clock.advance(12)
        guard case .retryable(let reason, let after) = chain.send(sms) else { Issue.record("must be retryable"); return }
        #expect(reason == "a: circuit open")
        #expect(after == 18)
        #expect(down.sent.count == 3)
    }

    /// A gateway that cannot reach one destination (Twilio 21408: the region is not enabled for the
    /// account) works for others: the next gateway is tried, and its circuit stays closed however
    /// many such destinations come by.
    @Test func anUnroutableDestinationFailsOverWithoutOpeningTheCircuit() {
        let clock = ManualClock()
        let twilio = RecordingGateway(name: "a", script: Array(repeating: .unroutable(reason: "a: 21408"), count: 10))
        let backup = RecordingGateway(name: "b")
        let chain = FailoverGateway([twilio, backup], clock: clock, logger: .disabled, threshold: 3, cooldown: 30)
        for _ in 0..<6 {
            guard case .sent(let via, _, _) = chain.send(sms) else { Issue.record("the backup must send"); return }
            #expect(via == "b")
        }
        #expect(chain.circuitStates().allSatisfy { $0.state == .closed })
        // When no gateway can reach it, the message ends: retrying would not help.
        let alone = FailoverGateway([RecordingGateway(name: "a", script: [.unroutable(reason: "a: 21610")])], clock: clock, logger: .disabled)
        #expect(alone.send(sms) == .permanent(reason: "a: 21610"))
    }
}
