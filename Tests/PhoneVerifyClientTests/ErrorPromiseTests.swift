import Foundation
import Testing
@testable import PhoneVerifyClient

/// docs/CLIENT.md's "Errors" promise and what the calls throw agree: every case of
/// `PhoneVerifyError` is in its table and every row is a case; the only other errors are a
/// cancelled task's `CancellationError` and what the app's own challenge hook throws.
@Suite struct ErrorPromiseTests {
    /// One value of every case. The switch in `caseName` has no default, so a new case does not
    /// compile until it is named here, and then the documentation check below covers it.
    static let everyCase: [PhoneVerifyError] = [
        .invalidRequest(field: nil, message: ""), .invalidPhoneNumber(reason: nil), .unsupportedLineType(lineType: nil),
        .regionNotAllowed(region: nil), .channelNotEnabled(channel: nil, allowed: []), .rateLimited(scope: nil, retryAfter: nil),
        .suspectedFraud(retryAfter: nil), .challengeRequired(providers: []), .challengeFailed(provider: nil),
        .unauthenticated(message: ""), .stepUpRequired(maxAge: nil, acrValues: nil), .factorExists,
        .factorLimitReached(maxFactors: nil), .forbidden(message: ""), .incorrectCode(attemptsRemaining: nil),
        .maxAttemptsReached, .resendTooSoon(availableAt: nil, retryAfter: nil), .maxSendsReached(maxSends: nil), .expired,
        .alreadyUsed, .notFound, .idempotencyKeyReused, .unavailable(retryAfter: nil), .server(status: 500, code: "x", message: ""),
        .network(code: 0, message: ""), .invalidResponse(status: 200, reason: ""),
    ]

    static func caseName(_ error: PhoneVerifyError) -> String {
        switch error {
        case .invalidRequest: return "invalidRequest"
        case .invalidPhoneNumber: return "invalidPhoneNumber"
        case .unsupportedLineType: return "unsupportedLineType"
        case .regionNotAllowed: return "regionNotAllowed"
        case .channelNotEnabled: return "channelNotEnabled"
        case .rateLimited: return "rateLimited"
        case .suspectedFraud: return "suspectedFraud"
        case .challengeRequired: return "challengeRequired"
        case .challengeFailed: return "challengeFailed"
        case .unauthenticated: return "unauthenticated"
        case .stepUpRequired: return "stepUpRequired"
        case .factorExists: return "factorExists"
        case .factorLimitReached: return "factorLimitReached"
        case .forbidden: return "forbidden"
        case .incorrectCode: return "incorrectCode"
        case .maxAttemptsReached: return "maxAttemptsReached"
        case .resendTooSoon: return "resendTooSoon"
        case .maxSendsReached: return "maxSendsReached"
        case .expired: return "expired"
        case .alreadyUsed: return "alreadyUsed"
        case .notFound: return "notFound"
        case .idempotencyKeyReused: return "idempotencyKeyReused"
        case .unavailable: return "unavailable"
        case .server: return "server"
        case .network: return "network"
        case .invalidResponse: return "invalidResponse"
        }
    }

    static func clientDoc() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/CLIENT.md"), encoding: .utf8)
    }

    /// The case names of the table under "## Errors" (`name(label:)` → `name`).
    static func documentedCases(_ doc: String) throws -> Set<String> {
        let section = try #require(doc.components(separatedBy: "\n## Errors\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        var names: Set<String> = []
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let firstCell = line.dropFirst(2).prefix { $0 != "|" }
            for quoted in firstCell.split(separator: "`", omittingEmptySubsequences: false).enumerated() where quoted.offset % 2 == 1 {
                let name = quoted.element.prefix { $0.isLetter || $0.isNumber }
                if !name.isEmpty { names.insert(String(name)) }
            }
        }
        return names
    }

    @Test func theTableNamesEveryCaseAndNothingElse() throws {
        let doc = try Self.clientDoc()
        let documented = try Self.documentedCases(doc)
        let cases = Set(Self.everyCase.map(Self.caseName))
        #expect(documented.subtracting(cases).isEmpty, "documented but not a case: \(documented.subtracting(cases).sorted())")
        #expect(cases.subtracting(documented).isEmpty, "a case the table leaves out: \(cases.subtracting(documented).sorted())")
        // The promise itself names its exceptions.
        #expect(doc.contains("`CancellationError`") && doc.contains("challengeProvider`"))
    }

    @Test func aCancelledCallThrowsCancellationError() async throws {
        // A 503 with Retry-After: the client waits; the task is cancelled during the wait.
        let stub = StubServer([.json(503, Canned.error("unavailable"), headers: ["Retry-After": "5"])])
        let client = stub.client(sleep: { seconds in try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) })
        let call = Task { try await client.status(verificationID: "ver_1") }
        while stub.requests.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        call.cancel()
        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    struct AppError: Error, Equatable {}

    @Test func theHooksOwnErrorIsPassedThroughUnchanged() async throws {
        let stub = StubServer([.json(403, Canned.error("challenge_required", #"{"providers": [{"name": "turnstile"}]}"#))])
        let client = stub.client(.init(challengeProvider: { _ in throw AppError() }))
        await #expect(throws: AppError()) { try await client.startVerification(phoneNumber: "+14155552671") }
    }

    @Test func everythingElseIsAPhoneVerifyError() async throws {
        let answers: [StubServer.Reply] = [
            .json(500, "not json"), .json(200, "{}"), .json(422, Canned.error("brand_new_code")), .failure(.cannotFindHost),
            .json(404, Canned.error("not_found")),
        ]
        for answer in answers {
            let stub = StubServer([answer])
            await #expect(throws: PhoneVerifyError.self) {
                try await stub.client(.init(maxAttempts: 1)).status(verificationID: "ver_1")
            }
        }
    }
}
