/// One quota: at most `quota` events in any window of `window` seconds.
public struct LimitRule: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let quota: Int
    public let window: Int

    public init(quota: Int, window: Int) {
        self.quota = quota
        self.window = window
    }

    public var description: String { "\(quota)/\(RateLimits.formatWindow(window))" }
}

/// What a limit counts, and for whom.
public enum LimitScope: String, Sendable, CaseIterable {
    case phoneSend = "phone_send"
    case ipSend = "ip_send"
    case ipCheck = "ip_check"
    case prefixSend = "prefix_send"
    case globalSend = "global_send"
    case phoneFailedCheck = "phone_failed_check"
    case userSend = "user_send"
    case ipChallenge = "ip_challenge"
    /// Sends to one number by WhatsApp and by voice call: their own quotas beside `phone_send`,
    /// which counts every channel (a call costs more than an SMS; docs/ABUSE.md).
    case whatsappSend = "whatsapp_send"
    case callSend = "call_send"
    /// What one requester (client IP or /64, signed-in user, Twilio-compatible account) may send
    /// to one number past the number's own quota, with proof (docs/ABUSE.md, "A number's quota is
    /// no stranger's to spend"): strangers cannot spend the share a passed challenge lifts.
    case phoneRequesterSend = "phone_requester_send"

    /// The scopes that make up a number's send quota, which `limits clear NUMBER` lifts: their
    /// keys' value is the number, or the number followed by `|` and a requester.
    public static let numberQuotaScopes: Set<LimitScope> = [.phoneSend, .whatsappSend, .callSend]

    /// `details.scope` of a refusal.
    public var refusalScope: String {
        switch self {
        case .phoneSend, .whatsappSend, .callSend, .phoneRequesterSend: return "phone"
        case .ipSend, .ipCheck: return "ip"
        case .prefixSend: return "prefix"
        case .globalSend: return "global"
        case .phoneFailedCheck: return "phone_lockout"
        case .userSend: return "user"
        case .ipChallenge: return "ip"
        }
    }
}

/// Every limit, as data (defaults in docs/ABUSE.md). `PHONE_VERIFY_LIMITS` overrides scopes one by one.
public struct RateLimits: Sendable, Equatable {
    public var rules: [LimitScope: [LimitRule]]
    /// Leading digits of the E.164 number (without "+") that form a destination prefix;
    /// nil means "all but the last four digits" (the number's block of 10,000).
    public var prefixDigits: Int?
    /// The failed-check lockout's wait: first and longest, in seconds (`PHONE_VERIFY_LOCKOUT_BACKOFF`).
    public var lockoutBackoff: (initial: Int, max: Int) = (30, 300)

    public static func == (a: RateLimits, b: RateLimits) -> Bool {
        a.rules == b.rules && a.prefixDigits == b.prefixDigits && a.lockoutBackoff == b.lockoutBackoff
    }

    /// The failed-check lockout: `phone_failed_check=N/W` gives N free failures per number and
    /// requester within W, then the backoff; nil when the scope is off.
    public var lockout: LockoutPolicy? {
        rules(.phoneFailedCheck).first.map {
            LockoutPolicy(freeFailures: $0.quota, window: $0.window, initialBackoff: lockoutBackoff.initial, maxBackoff: lockoutBackoff.max)
        }
    }

    public static let defaults = RateLimits(
        rules: [
            .phoneSend: [LimitRule(quota: 5, window: 3600), LimitRule(quota: 10, window: 86_400)],
            .ipSend: [LimitRule(quota: 20, window: 600), LimitRule(quota: 200, window: 86_400)],
            .ipCheck: [LimitRule(quota: 100, window: 600)],
            .prefixSend: [LimitRule(quota: 50, window: 3600)],
            .globalSend: [LimitRule(quota: 1000, window: 60)],
            .phoneFailedCheck: [LimitRule(quota: 5, window: 86_400)],
            .userSend: [LimitRule(quota: 10, window: 3600), LimitRule(quota: 30, window: 86_400)],
            .ipChallenge: [LimitRule(quota: 30, window: 600)],
            .whatsappSend: [LimitRule(quota: 5, window: 3600), LimitRule(quota: 10, window: 86_400)],
            .callSend: [LimitRule(quota: 3, window: 3600), LimitRule(quota: 5, window: 86_400)],
            .phoneRequesterSend: [LimitRule(quota: 1, window: 3600), LimitRule(quota: 2, window: 86_400)],
        ],
        prefixDigits: nil)

    public init(rules: [LimitScope: [LimitRule]], prefixDigits: Int? = nil) {
        self.rules = rules
        self.prefixDigits = prefixDigits
    }

    /// No limits at all.
    public static let none = RateLimits(rules: [:])

    public func rules(_ scope: LimitScope) -> [LimitRule] { rules[scope] ?? [] }

    /// The destination prefix of an E.164 number.
    public func prefix(of e164: String) -> String {
        let digits = e164.hasPrefix("+") ? String(e164.dropFirst()) : e164
        let keep = prefixDigits.map { min($0, digits.count) } ?? max(1, digits.count - 4)
        return "+" + String(digits.prefix(keep))
    }

    /// Applies `scope=N/window[,N/window];scope=off;…` over these limits.
    public func overridden(by text: String) throws -> RateLimits {
        var result = self
        for part in text.split(separator: ";") {
            let item = part.trimmingCharacters(in: .whitespaces)
            if item.isEmpty { continue }
            let pieces = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pieces.count == 2, let scope = LimitScope(rawValue: pieces[0]) else {
                throw LimitSyntaxError(message: "\"\(item)\": expected scope=N/window with a scope from \(LimitScope.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if pieces[1] == "off" {
                result.rules[scope] = []
                continue
            }
            var parsed: [LimitRule] = []
            for ruleText in pieces[1].split(separator: ",") {
                let halves = ruleText.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
                guard halves.count == 2, let quota = Int(halves[0]), quota > 0, quota <= 1_000_000,
                    let window = Self.parseWindow(halves[1])
                else {
                    throw LimitSyntaxError(message: "\"\(ruleText)\" in \(scope.rawValue): expected N/window such as 5/1h (windows: 30s, 10m, 1h, 1d)")
                }
                parsed.append(LimitRule(quota: quota, window: window))
            }
            if scope == .phoneFailedCheck, parsed.count > 1 {
                throw LimitSyntaxError(message: "phone_failed_check takes one N/window (free failures per number and requester before the backoff)")
            }
            result.rules[scope] = parsed
        }
        return result
    }

    /// "30s", "10m", "1h", "1d" (or a bare number of seconds) → seconds.
    public static func parseWindow(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var number = text
        var unit = 1
        if let last = text.last, let u = units[last] {
            unit = u
            number = String(text.dropLast())
        }
        guard let n = Int(number), n > 0, n * unit <= 31 * 86_400 else { return nil }
        return n * unit
    }

    /// `PHONE_VERIFY_LOCKOUT_BACKOFF`: "FIRST,LONGEST" durations such as "30s,5m".
    public static func parseBackoff(_ text: String) throws -> (initial: Int, max: Int) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let first = parseWindow(parts[0]), let longest = parseWindow(parts[1]), first <= longest,
            longest <= 86_400
        else {
            throw LimitSyntaxError(message: "\"\(text)\": expected FIRST,LONGEST such as 30s,5m (FIRST ≤ LONGEST ≤ 1d)")
        }
        return (first, longest)
    }

    public static func formatWindow(_ seconds: Int) -> String {
        if seconds % 86_400 == 0 { return "\(seconds / 86_400)d" }
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}

public struct LimitSyntaxError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

import Foundation
