import CCurl

/// Process-wide libcurl initialisation.
enum CurlLibrary {
    /// Runs `curl_global_init` exactly once (Swift's lazy static initialisation is thread-safe)
    /// before the first easy handle is created; true on success.
    static let initialized: Bool = pv_curl_global_init() == CURLE_OK

    /// libcurl's version string, e.g. "7.88.1".
    static var version: String {
        String(cString: pv_curl_version_string())
    }
}
