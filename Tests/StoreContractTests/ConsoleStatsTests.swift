import Foundation
import Testing
import VerifyCore

/// The console's delivery page aggregates: conversion per period, country and channel; the SMS
/// outbox without the `auto` fallbacks waiting their turn; the events outbox.
@Suite struct ConsoleStatsTests {
    @Test(arguments: StoreKind.allCases)
    func conversionOutboxAndEvents(kind: StoreKind) throws {
        let made = try kind.make()
        let stats = try #require(made as? any ConsoleStatsStore)
        let outbox = try #require(made as? any EventOutboxStore)
        try made.write { tx in
            for (i, (region, approved)) in [("US", true), ("US", false), ("NG", false), ("NG", false)].enumerated() {
                var v = VerificationLogTests.verification(i, region: region, status: approved ? .approved : .pending)
                v.createdAt = t0.addingTimeInterval(Double(i) * 10)
                try tx.insert(v)
            }
            var late = VerificationLogTests.verification(9)
            late.createdAt = t0.addingTimeInterval(3_600 + 5)
            try tx.insert(late)
            // One due message, one fallback waiting for its turn.
            try tx.enqueue(message("msg_due", for: "ver_0000", at: t0.addingTimeInterval(1)), lease: nil)
            var waiting = message("msg_fb", for: "ver_0000", at: t0)
            waiting.fallbackOf = "msg_due"
            waiting.nextAttemptAt = t0.addingTimeInterval(120)
            try tx.enqueue(waiting, lease: nil)
            for i in 1...3 {
                try tx.insertEvent(
                    WebhookEvent(id: "evt_\(i)", type: .verificationStarted, createdAt: t0.addingTimeInterval(Double(i)), body: "{}"))
            }
        }
        let points = try stats.conversion(since: t0, period: 3_600, limit: 100)
        #expect(Set(points.map { "\(Int($0.start.timeIntervalSince1970 - t0.timeIntervalSince1970))/\($0.region)/\($0.channel)=\($0.approved)/\($0.started)" })
            == ["0/US/sms=1/2", "0/NG/sms=0/2", "3600/US/sms=0/1"])
        #expect(try stats.conversion(since: t0, period: 3_600, limit: 1).count == 1)

        let backlog = try stats.outboxBacklog(now: t0.addingTimeInterval(30))
        #expect(backlog == OutboxBacklog(due: 1, oldestDue: t0.addingTimeInterval(1), scheduledFallbacks: 1))
        // Once its time has come, a fallback still queued is late like any other message.
        #expect(try stats.outboxBacklog(now: t0.addingTimeInterval(121)).due == 2)

        let claimed = try outbox.claimEvents(limit: 1, now: t0.addingTimeInterval(10), leaseUntil: t0.addingTimeInterval(40), owner: "A")
        try outbox.completeEvents(
            claimed.map { EventOutcome(eventID: $0.event.id, status: .failed, attempts: 1, nextAttemptAt: nil, lastError: "500", at: t0.addingTimeInterval(11)) },
            owner: "A")
        let events = try stats.eventBacklog(failedSince: t0)
        #expect(events == EventBacklog(pending: 2, oldestPending: t0.addingTimeInterval(2), failed: 1))
        #expect(try stats.eventBacklog(failedSince: t0.addingTimeInterval(12)).failed == 0)
        // The verification page's events: by the id quoted in the body, ended ones in the window.
        try made.write { tx in
            for (id, at) in [("evt_a", 20.0), ("evt_b", 21.0)] {
                try tx.insertEvent(WebhookEvent(id: id, type: .verificationApproved, createdAt: t0.addingTimeInterval(at), body: #"{"data":{"id":"ver_0001"}}"#))
            }
            try tx.insertEvent(WebhookEvent(id: "evt_c", type: .verificationApproved, createdAt: t0.addingTimeInterval(22), body: #"{"data":{"id":"ver_00012"}}"#))
        }
        let sent = try outbox.claimEvents(limit: 10, now: t0.addingTimeInterval(30), leaseUntil: t0.addingTimeInterval(60), owner: "B")
            .filter { $0.event.id == "evt_a" }
        try outbox.completeEvents(
            sent.map { EventOutcome(eventID: $0.event.id, status: .delivered, attempts: 1, nextAttemptAt: nil, lastError: nil, at: t0.addingTimeInterval(31)) },
            owner: "B")
        try outbox.releaseEventLeases(owner: "B")
        let mentioned = try stats.events(mentioning: "ver_0001", from: t0, to: t0.addingTimeInterval(100), limit: 10)
        #expect(mentioned.map { "\($0.id)=\($0.status)" } == ["evt_a=delivered", "evt_b=queued"])
        #expect(try stats.events(mentioning: "ver_0001", from: t0.addingTimeInterval(40), to: t0.addingTimeInterval(100), limit: 10).map(\.id) == ["evt_b"])
    }
}
