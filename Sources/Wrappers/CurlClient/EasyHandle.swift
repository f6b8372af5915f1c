import CCurl

/// Owns one libcurl easy handle (`CURL*`) and its error buffer, and frees both in `deinit`.
///
/// The handle keeps its connection cache, DNS cache and TLS sessions between transfers, so
/// reusing it reuses kept-alive connections; every transfer starts from `curl_easy_reset`
/// state and re-applies all options.
///
/// `@unchecked Sendable` because a libcurl easy handle may move between threads but must
/// never be used by two at once: ``HTTPClient`` hands each handle to exactly one caller at a
/// time (take and return under its lock), and nothing else can reach it.
final class EasyHandle: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    /// CURLOPT_ERRORBUFFER target, CURL_ERROR_SIZE bytes, valid for the handle's lifetime.
    let errorBuffer: UnsafeMutablePointer<CChar>

    /// Creates a handle; nil when libcurl cannot be initialised or is out of memory.
    init?() {
        guard CurlLibrary.initialized, let handle = curl_easy_init() else { return nil }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    // MARK: Typed option setters (curl_easy_setopt is variadic)

    func set(_ option: CURLoption, _ value: Int) throws(HTTPClientError) {
        try check(pv_curl_setopt_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, _ value: Bool) throws(HTTPClientError) {
        try set(option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, offset value: Int64) throws(HTTPClientError) {
        try check(pv_curl_setopt_off_t(handle, option, curl_off_t(value)), option)
    }

    /// Sets a string option; libcurl copies it, so it need only live for the call.
    func set(_ option: CURLoption, _ value: String) throws(HTTPClientError) {
        guard !value.utf8.contains(0) else {
            throw .invalidRequest("option \(option.rawValue) contains a NUL byte")
        }
        try check(pv_curl_setopt_string(handle, option, value), option)
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(HTTPClientError) {
        try check(pv_curl_setopt_pointer(handle, option, pointer), option)
    }

    func set(_ option: CURLoption, list: HeaderList) throws(HTTPClientError) {
        try check(pv_curl_setopt_slist(handle, option, list.pointer), option)
    }

    func set(_ option: CURLoption, callback: pv_curl_data_callback) throws(HTTPClientError) {
        try check(pv_curl_setopt_callback(handle, option, callback), option)
    }

    /// Copies `bytes` as the request body (CURLOPT_POSTFIELDSIZE_LARGE, then
    /// CURLOPT_COPYPOSTFIELDS, so embedded NUL bytes are fine and the array may die afterwards).
    func setBody(_ bytes: [UInt8]) throws(HTTPClientError) {
        try set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(bytes.count))
        let code: CURLcode
        if bytes.isEmpty {
            // A NULL pointer would mean "no body"; an empty C string gives Content-Length: 0.
            code = "".withCString { pv_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0)) }
        } else {
            code = bytes.withUnsafeBytes { pv_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress)) }
        }
        try check(code, CURLOPT_COPYPOSTFIELDS)
    }

    // MARK: Info getters

    func info(long info: CURLINFO) -> Int {
        pv_curl_getinfo_long(handle, info)
    }

    /// A CURLINFO_*_TIME_T value converted from microseconds to seconds.
    func info(seconds info: CURLINFO) -> Double {
        Double(pv_curl_getinfo_off_t(handle, info)) / 1_000_000
    }

    /// The message libcurl wrote for the last failure, or its generic text for `code`.
    func errorMessage(for code: CURLcode) -> String {
        if errorBuffer[0] != 0 { return String(cString: errorBuffer) }
        return String(cString: curl_easy_strerror(code))
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPClientError) {
        guard code != CURLE_OK else { return }
        throw .other(code: Int(code.rawValue), message: "setting option \(option.rawValue) failed: \(String(cString: curl_easy_strerror(code)))")
    }
}
