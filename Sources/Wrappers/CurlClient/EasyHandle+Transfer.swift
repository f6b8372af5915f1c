import CCurl

extension EasyHandle {
    /// Runs one blocking transfer on the calling thread and resets the handle afterwards
    /// (keeping its connections), so no pointer into this call's state outlives it.
    /// `newConnections` receives the number of connections opened, also when the call throws.
    func perform(
        _ request: PreparedRequest, configuration: HTTPClientConfiguration, newConnections: inout Int
    ) throws(HTTPClientError) -> HTTPClientResponse {
        defer { curl_easy_reset(handle) }
        let collector = ResponseCollector(maxBodyBytes: configuration.maxResponseBytes)
        let headers = HeaderList()
        for line in request.headerLines where !headers.append(line) {
            throw .other(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "curl_slist_append failed")
        }
        try applyOptions(request, configuration: configuration, headers: headers, collector: collector)
        errorBuffer[0] = 0
        let code = withExtendedLifetime((collector, headers)) { curl_easy_perform(handle) }
        newConnections = info(long: CURLINFO_NUM_CONNECTS)
        guard code == CURLE_OK else {
            throw HTTPClientError.from(
                code: code, message: errorMessage(for: code),
                requestSent: info(long: CURLINFO_REQUEST_SIZE) > 0,
                limitExceeded: collector.limitExceeded
            )
        }
        return HTTPClientResponse(
            status: info(long: CURLINFO_RESPONSE_CODE),
            headers: collector.headers,
            body: collector.body,
            totalSeconds: info(seconds: CURLINFO_TOTAL_TIME_T),
            newConnections: newConnections
        )
    }

    private func applyOptions(
        _ request: PreparedRequest, configuration: HTTPClientConfiguration,
        headers: HeaderList, collector: ResponseCollector
    ) throws(HTTPClientError) {
        try set(CURLOPT_NOSIGNAL, true)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try set(CURLOPT_PROTOCOLS_STR, request.protocols)
        try set(CURLOPT_REDIR_PROTOCOLS_STR, request.protocols)
        try set(CURLOPT_FOLLOWLOCATION, false)
        try set(CURLOPT_URL, request.url)
        try set(CURLOPT_PROXY, configuration.proxy ?? "")
        try set(CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeoutMilliseconds)
        try set(CURLOPT_TIMEOUT_MS, request.totalTimeoutMilliseconds)
        try set(CURLOPT_SSL_VERIFYPEER, configuration.verifyTLS)
        try set(CURLOPT_SSL_VERIFYHOST, configuration.verifyTLS ? 2 : 0)
        if let caBundle = configuration.caBundlePath { try set(CURLOPT_CAINFO, caBundle) }
        try set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(configuration.maxResponseBytes))
        try set(CURLOPT_HTTPHEADER, list: headers)

        switch request.mode {
        case .get:
            break
        case .head:
            try set(CURLOPT_NOBODY, true)
        case .withBody(let customMethod):
            try setBody(request.body)
            if let customMethod { try set(CURLOPT_CUSTOMREQUEST, customMethod) }
        case .custom(let method):
            try set(CURLOPT_CUSTOMREQUEST, method)
        }

        if let auth = request.basicAuth {
            try set(CURLOPT_HTTPAUTH, pv_curl_auth_basic())
            try set(CURLOPT_USERNAME, auth.user)
            try set(CURLOPT_PASSWORD, auth.password)
        }

        let context = Unmanaged.passUnretained(collector).toOpaque()
        try set(CURLOPT_WRITEDATA, pointer: context)
        try set(CURLOPT_WRITEFUNCTION, callback: { data, size, count, context in
            guard let context else { return 0 }
            let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
            return collector.appendBody(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        try set(CURLOPT_HEADERDATA, pointer: context)
        try set(CURLOPT_HEADERFUNCTION, callback: { data, size, count, context in
            guard let context else { return 0 }
            let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
            return collector.appendHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
        })
    }
}
