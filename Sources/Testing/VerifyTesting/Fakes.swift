import Foundation
import VerifyCore

/// A keyed-hash stand-in: deterministic, distinct per verification and code.
public struct FakeHasher: CodeHasher {
    public init() {}
    public func hash(code: String, verificationID: String) -> [UInt8] { Array("h|\(verificationID)|\(code)".utf8) }
    public func matches(code: String, verificationID: String, expected: [UInt8]) -> Bool {
        hash(code: code, verificationID: verificationID) == expected
    }
}

/// Reversible "sealing" that still proves the payload is not stored as given.
public struct FakeSealer: MessageSealer {
    public init() {}
    public func seal(_ plaintext: [UInt8]) throws -> [UInt8] { plaintext.map { $0 ^ 0x5A } }
    public func open(_ sealed: [UInt8]) throws -> [UInt8] { sealed.map { $0 ^ 0x5A } }
}

/// A signer whose "signature" is a fixed marker; for domain tests that only read claims.
public struct FakeSigner: CredentialSigner, KeyRing {
    public let algorithm = "EdDSA"
    public let keyID = "test-key"
    public init() {}
    public func sign(_ message: [UInt8]) throws -> [UInt8] { Array("signature".utf8) }
    public func currentSigner() -> any CredentialSigner { self }
    public func publicJWKs() -> [JSONValue] { [["kty": "OKP", "crv": "Ed25519", "x": "AAAA", "kid": "test-key", "alg": "EdDSA", "use": "sig"]] }
}

/// A table-driven phone parser: "+1555…" numbers are US mobiles, "+1800…" toll free,
/// "+4420…" GB landlines, other "+44…" GB mobiles, anything else without a plus is too short.
public struct FakePhoneParser: PhoneNumberParser {
    public init() {}
    public func parse(_ text: String, defaultRegion: String?) -> Result<PhoneNumber, PhoneNumberProblem> {
        let digits = text.filter { $0.isNumber }
        guard text.hasPrefix("+") else {
            if defaultRegion == "US", digits.count == 10 { return parse("+1" + digits, defaultRegion: nil) }
            return .failure(digits.isEmpty ? .notANumber : .tooShort)
        }
        guard digits.count >= 8 else { return .failure(.tooShort) }
        guard digits.count <= 15 else { return .failure(.tooLong) }
        if digits.hasPrefix("1800") {
            return .success(PhoneNumber(e164: "+" + digits, region: "US", countryCode: 1, lineType: .tollFree, international: "+" + digits))
        }
        if digits.hasPrefix("1") {
            return .success(PhoneNumber(e164: "+" + digits, region: "US", countryCode: 1, lineType: .mobile, international: "+" + digits))
        }
        if digits.hasPrefix("4420") {
            return .success(PhoneNumber(e164: "+" + digits, region: "GB", countryCode: 44, lineType: .fixedLine, international: "+" + digits))
        }
        if digits.hasPrefix("44") {
            return .success(PhoneNumber(e164: "+" + digits, region: "GB", countryCode: 44, lineType: .mobile, international: "+" + digits))
        }
        return .failure(.invalidCountryCode)
    }
}

/// Counts wake-ups instead of waking a worker.
public final class CountingNotifier: DeliveryNotifier, @unchecked Sendable {
    // @unchecked: its counters and records are only touched with `lock` held.
    private let lock = NSLock()
    private var value = 0
    public init() {}
    private var supersededIDs: [String] = []
    public func messagesQueued() { lock.lock(); value += 1; lock.unlock() }
    public func messagesSuperseded(verificationID: String) { lock.lock(); supersededIDs.append(verificationID); lock.unlock() }
    public var count: Int { lock.lock(); defer { lock.unlock() }; return value }
    /// The verifications whose queued messages were reported superseded, in order.
    public var superseded: [String] { lock.lock(); defer { lock.unlock() }; return supersededIDs }
}

/// Records every SMS and answers with scripted results (default: sent).
public final class RecordingGateway: MessageGateway, @unchecked Sendable {
    // @unchecked: its counters and records are only touched with `lock` held.
    public let name: String
    private let lock = NSLock()
    private var script: [GatewayResult]
    private var recorded: [OutboundMessage] = []

    public init(name: String = "recording", script: [GatewayResult] = []) {
        self.name = name
        self.script = script
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        lock.lock()
        defer { lock.unlock() }
        recorded.append(message)
        return script.isEmpty ? .sent(via: name, providerMessageID: "prov_\(recorded.count)", status: .sent) : script.removeFirst()
    }

    public var sent: [OutboundMessage] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}
