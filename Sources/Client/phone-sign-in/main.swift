// phone-sign-in: phone sign-in from a terminal with PhoneVerifyClient, the way an app does it.
// Starts a verification, reads the code from standard input, prints the credential's claims as
// JSON on standard output. Messages go to standard error; the exit status names the outcome.
import Foundation
import PhoneVerifyClient

/// Exit statuses, one per kind of failure (documented in --help and docs/CLIENT.md).
enum Exit: Int32 {
    case ok = 0
    case usage = 2
    case invalidNumber = 3
    case incorrectCode = 4
    case expired = 5
    case rateLimited = 6
    case challenge = 7
    case unavailable = 8
    case noCode = 9
    case refused = 10

    static func of(_ error: PhoneVerifyError) -> Exit {
        switch error {
        case .invalidPhoneNumber, .unsupportedLineType, .regionNotAllowed: return .invalidNumber
        case .incorrectCode, .maxAttemptsReached: return .incorrectCode
        case .expired: return .expired
        case .rateLimited, .suspectedFraud, .resendTooSoon, .maxSendsReached: return .rateLimited
        case .challengeRequired, .challengeFailed: return .challenge
        case .unavailable, .network: return .unavailable
        default: return .refused
        }
    }
}

let usage = """
    usage: phone-sign-in --server URL --phone NUMBER [--region CC] [--locale TAG] [--timeout SECONDS]

    Sends a code to NUMBER through the PhoneVerify server at URL, reads the code from standard
    input (one per line; a wrong code may be retried while attempts remain), and prints the
    credential's claims as JSON. Messages go to standard error.

      --server URL       the PhoneVerify server (http://127.0.0.1:8080)
      --phone NUMBER     E.164 (+14155552671), or national format with --region
      --region CC        ISO 3166-1 alpha-2 region for a national number (US)
      --locale TAG       language of the message (en, pt-BR)
      --timeout SECONDS  per request (default 15)
      --help             this text

    exit status:
      0  signed in: the claims are on standard output
      2  usage error
      3  invalid number (invalid_phone_number, unsupported_line_type, region_not_allowed)
      4  incorrect code, no attempts left (incorrect_code, max_attempts_reached)
      5  the code expired
      6  rate limited (rate_limited, suspected_fraud, resend_too_soon, max_sends_reached)
      7  the server asks for a challenge (challenge_required, challenge_failed)
      8  the server is unavailable or unreachable
      9  standard input ended before a code was entered
      10 any other refusal (already_used, not_found, …)
    """

func fail(_ message: String, _ status: Exit) -> Never {
    FileHandle.standardError.write(Data(("phone-sign-in: " + message + "\n").utf8))
    exit(status.rawValue)
}

func say(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: Arguments

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--help", "-h":
        print(usage)
        exit(Exit.ok.rawValue)
    case "--server", "--phone", "--region", "--locale", "--timeout":
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value\n\n" + usage, .usage) }
        options[String(argument.dropFirst(2))] = value
    default:
        fail("unknown argument \(argument)\n\n" + usage, .usage)
    }
}
guard let server = options["server"], let phone = options["phone"] else { fail("--server and --phone are required\n\n" + usage, .usage) }
guard let baseURL = URL(string: server), let scheme = baseURL.scheme, ["http", "https"].contains(scheme), baseURL.host != nil else {
    fail("--server must be an http(s) URL, not \(server)", .usage)
}
let timeout = options["timeout"].map { TimeInterval($0) } ?? 15
guard let timeout, timeout > 0 else { fail("--timeout must be a positive number of seconds", .usage) }

// MARK: Sign-in

let client = PhoneVerifyClient(baseURL: baseURL, configuration: .init(requestTimeout: timeout))
do {
    let verification = try await client.startVerification(phoneNumber: phone, defaultRegion: options["region"], locale: options["locale"])
    say("A \(verification.codeLength)-digit code was sent to \(verification.phoneNumber). Enter it:")
    while true {
        guard let line = readLine() else { fail("no code was entered", .noCode) }
        let code = line.trimmingCharacters(in: .whitespaces)
        if code.isEmpty { continue }
        do {
            let credential = try await client.check(verificationID: verification.id, code: code)
            let claims = try JSONSerialization.jsonObject(with: credential.claims.json)
            let json = try JSONSerialization.data(withJSONObject: claims, options: [.prettyPrinted, .sortedKeys])
            FileHandle.standardOutput.write(json + Data("\n".utf8))
            exit(Exit.ok.rawValue)
        } catch PhoneVerifyError.incorrectCode(let left) where (left ?? 0) > 0 {
            say(PhoneVerifyError.incorrectCode(attemptsRemaining: left).errorDescription! + " Enter the code again:")
        } catch PhoneVerifyError.invalidRequest(let field, _) where field == "code" {
            say("The code has \(verification.codeLength) digits. Enter it again:")
        }
    }
} catch let error as PhoneVerifyError {
    var message = error.errorDescription ?? error.code
    if case .challengeRequired(let providers) = error {
        message += " (providers: \(providers.map(\.name).joined(separator: ", ")); this example cannot solve challenges)"
    }
    fail("\(message) [\(error.code)]", Exit.of(error))
} catch {
    fail("\(error)", .refused)
}
