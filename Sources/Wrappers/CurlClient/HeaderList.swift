import CCurl

/// Owns a `curl_slist` of request header lines and frees it in `deinit`; keep it alive
/// (`withExtendedLifetime`) for the whole transfer that uses it.
final class HeaderList {
    private(set) var pointer: UnsafeMutablePointer<curl_slist>?

    init() {}

    /// Appends one raw line such as "Name: value", "Name;" (empty value) or "Name:" (suppress).
    /// Returns false when libcurl is out of memory.
    func append(_ line: String) -> Bool {
        guard let list = curl_slist_append(pointer, line) else { return false }
        pointer = list
        return true
    }

    deinit {
        curl_slist_free_all(pointer)
    }
}
