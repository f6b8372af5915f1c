import Telemetry

extension Logger {
    /// An error no route expected: its type and (bounded) description, under the request id the
    /// client's 500 names.
    func unhandled(_ error: any Error, requestID: String, route: String) {
        self.error("unhandled error", [
            ("request_id", requestID), ("route", route), ("error", String(describing: type(of: error))),
            ("detail", String(String(describing: error).prefix(300))),
        ])
    }
}
