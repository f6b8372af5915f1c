import CCurl

extension HTTPClientError {
    /// Maps a failed transfer's CURLcode to an error.
    /// - Parameters:
    ///   - requestSent: whether any request bytes went out (CURLINFO_REQUEST_SIZE > 0); a
    ///     timeout before that is a connection failure, so callers know nothing was sent.
    ///   - limitExceeded: whether our own callbacks aborted because of a size limit.
    static func from(code: CURLcode, message: String, requestSent: Bool, limitExceeded: Bool) -> HTTPClientError {
        if limitExceeded { return .tooLarge }
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return requestSent ? .timeout : .connectionFailed(message)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .connectionFailed(message)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return .invalidURL(message)
        case CURLE_FILESIZE_EXCEEDED:
            return .tooLarge
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            return .tls(message)
        default:
            return .other(code: Int(code.rawValue), message: message)
        }
    }
}
