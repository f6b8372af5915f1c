import CurlClient
import Testing

/// Certificates are verified by default; trust comes only from the CA bundle or an explicit opt-out.
@Suite(.enabled(if: OpenSSLTestServer.isAvailable, "needs the openssl command"))
struct TLSVerificationTests {
    @Test func selfSignedCertificateIsRejectedByDefault() throws {
        let server = try OpenSSLTestServer()
        let client = HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: 5))
        let result = Result { () throws(HTTPClientError) in
            try client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/"))
        }
        guard case .failure(let error) = result, case .tls(let message) = error else {
            Issue.record("expected a TLS verification failure, got \(result)")
            return
        }
        #expect(!error.isRetryable)
        #expect(message.contains("certificate"), "\(message)")
    }

    @Test func trustedThroughCABundleSucceeds() throws {
        let server = try OpenSSLTestServer()
        let client = HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: 5, caBundlePath: server.certificatePath))
        let response = try client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/"))
        #expect(response.status == 200)
        #expect(response.text.contains("s_server"))
    }

    @Test func hostNameMustMatchCertificate() throws {
        let server = try OpenSSLTestServer()
        let client = HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: 5, caBundlePath: server.certificatePath))
        // The certificate names IP 127.0.0.1 only; "localhost" resolves to loopback but must not match.
        let result = Result { () throws(HTTPClientError) in
            try client.send(HTTPClientRequest(url: "https://localhost:\(server.port)/"))
        }
        guard case .failure(let error) = result, case .tls = error else {
            Issue.record("expected a host name mismatch, got \(result)")
            return
        }
    }

    @Test func verificationCanBeTurnedOffExplicitly() throws {
        let server = try OpenSSLTestServer()
        let client = HTTPClient(configuration: HTTPClientConfiguration(totalTimeout: 5, verifyTLS: false))
        let response = try client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/"))
        #expect(response.status == 200)
    }

    @Test func defaultConfigurationVerifies() {
        #expect(HTTPClientConfiguration().verifyTLS)
    }
}
