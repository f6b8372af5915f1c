import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PhoneVerifyClient {
    /// How calls are sent: timeouts, bounded retries, the challenge hook.
    public struct Configuration: Sendable {
        /// Seconds one HTTP attempt may take (connect to last byte).
        public var requestTimeout: TimeInterval
        /// Attempts per call, the first included (1 = never retry). Retries happen only where
        /// they cannot do anything twice: after a 503 (the server did nothing), after a connection
        /// that never reached the server, and after a lost answer only for reads, cancel, and
        /// starts/enrolments (sent with the same Idempotency-Key, so no second SMS).
        public var maxAttempts: Int
        /// The longest `Retry-After` the client waits for by itself; a longer one is thrown
        /// (`unavailable(retryAfter:)`) for the app to handle.
        public var maxRetryDelay: TimeInterval
        /// The first backoff when the server gave no `Retry-After` (doubled each retry).
        public var retryBaseDelay: TimeInterval
        /// Called on `challenge_required` (start and resend); see `ChallengeProvider`.
        public var challengeProvider: ChallengeProvider?
        /// Sent as `User-Agent`.
        public var userAgent: String
        /// Makes the Idempotency-Key of each start and enrolment (an unguessable UUIDv4 by default).
        public var makeIdempotencyKey: @Sendable () -> String
        /// Waits between retries (replaceable in tests).
        var sleep: @Sendable (TimeInterval) async throws -> Void = { seconds in
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
        }

        public init(
            requestTimeout: TimeInterval = 15, maxAttempts: Int = 3, maxRetryDelay: TimeInterval = 10, retryBaseDelay: TimeInterval = 0.5,
            challengeProvider: ChallengeProvider? = nil, userAgent: String = "PhoneVerifyClient/1.0",
            makeIdempotencyKey: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
        ) {
            self.requestTimeout = requestTimeout
            self.maxAttempts = max(1, maxAttempts)
            self.maxRetryDelay = maxRetryDelay
            self.retryBaseDelay = retryBaseDelay
            self.challengeProvider = challengeProvider
            self.userAgent = userAgent
            self.makeIdempotencyKey = makeIdempotencyKey
        }
    }

    /// One request to the server: bounded retries as `Configuration.maxAttempts` describes, the
    /// same request (and so the same Idempotency-Key) each time. Returns the success body.
    func send(
        _ endpoint: Endpoint, id: String? = nil, body: [String: Any]? = nil, bearer: String? = nil, idempotencyKey: String? = nil
    ) async throws -> Data {
        // Appended to the base URL's path, so a server behind a path prefix (https://host/verify) works.
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + endpoint.path(id: id)) else {
            throw PhoneVerifyError.invalidRequest(field: "id", message: "cannot form a URL")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: configuration.requestTimeout)
        request.httpMethod = endpoint.method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        if let body {
            do {
                request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            } catch {
                throw PhoneVerifyError.invalidRequest(field: nil, message: "the request cannot be written as JSON")
            }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let bearer { request.setValue("Bearer " + bearer, forHTTPHeaderField: "Authorization") }
        if let idempotencyKey { request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key") }
        let request0 = request

        var attempt = 1
        while true {
            try Task.checkCancellation()
            let delay: TimeInterval
            switch await exchange(request0) {
            case .answer(let status, let data, let retryAfter):
                if (200..<300).contains(status) { return data }
                let error = PhoneVerifyError.decode(status: status, body: data, retryAfter: retryAfter)
                // A 503 means the server did nothing (docs/ERRORS.md): any request may be sent again.
                guard status == 503, attempt < configuration.maxAttempts, let wait = retryDelay(retryAfter, attempt: attempt) else {
                    throw error
                }
                delay = wait
            case .failed(let error):
                if error.code == .cancelled { throw CancellationError() }
                let neverSent: Set<URLError.Code> = [.cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet]
                guard endpoint.replayable || neverSent.contains(error.code), attempt < configuration.maxAttempts,
                    let wait = retryDelay(nil, attempt: attempt)
                else {
                    throw PhoneVerifyError.network(code: error.code.rawValue, message: error.localizedDescription)
                }
                delay = wait
            }
            do {
                try await configuration.sleep(delay)
            } catch {
                throw CancellationError()  // the only way a wait ends early
            }
            attempt += 1
        }
    }

    private enum Exchange {
        case answer(status: Int, data: Data, retryAfter: TimeInterval?)
        case failed(URLError)
    }

    private func exchange(_ request: URLRequest) async -> Exchange {
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { return .failed(URLError(.badServerResponse)) }
            return .answer(status: http.statusCode, data: data, retryAfter: Self.retryAfter(http.value(forHTTPHeaderField: "Retry-After")))
        } catch let error as URLError {
            return .failed(error)
        } catch is CancellationError {
            return .failed(URLError(.cancelled))
        } catch {
            return .failed(URLError(.unknown))
        }
    }

    /// The wait before the next attempt, or nil when the server asks for longer than the cap.
    private func retryDelay(_ retryAfter: TimeInterval?, attempt: Int) -> TimeInterval? {
        if let retryAfter { return retryAfter <= configuration.maxRetryDelay ? retryAfter : nil }
        return min(configuration.maxRetryDelay, configuration.retryBaseDelay * pow(2, Double(attempt - 1)))
    }

    /// `Retry-After`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
    static func retryAfter(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return TimeInterval(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }

    func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw PhoneVerifyError.invalidResponse(status: 200, reason: "unexpected answer: \(error)")
        }
    }
}
