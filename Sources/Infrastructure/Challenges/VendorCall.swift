import CurlClient
import VerifyCore

/// One blocking call to a captcha vendor over libcurl, bounded by `timeout`. Anything that is not
/// a 2xx answer with a JSON object in it (timeout, refused connection, 5xx, a 4xx about our own
/// credentials, an HTML error page) is `unavailable`: the client did nothing wrong and may retry.
/// Neither the request (it holds the secret) nor the body is ever quoted in an error.
struct VendorCall: Sendable {
    let http: HTTPClient
    /// Seconds for the whole call; nil: the client's own bound.
    let timeout: Double?

    init(http: HTTPClient, timeout: Double? = nil) {
        self.http = http
        self.timeout = timeout
    }

    func send(_ request: HTTPClientRequest, provider: String) throws -> JSONValue {
        var request = request
        request.timeoutSeconds = timeout
        let response: HTTPClientResponse
        do {
            response = try http.send(request)
        } catch {
            throw ChallengeVendorError.unavailable(provider)
        }
        guard response.isSuccess, let body = try? JSONValue.parse(response.body), body.isObject else {
            throw ChallengeVendorError.unavailable(provider)
        }
        return body
    }
}
