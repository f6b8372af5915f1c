import Telemetry
import VerifyCore

extension Logger {
    /// An error no route expected: its type and (bounded) description, under the request id the
    /// client's 500 names. The description is scrubbed of number-like runs: a database error can
    /// quote a row's key (PostgreSQL's "Key (subject, phone_number)=(…)").
    public func unhandled(_ error: any Error, requestID: String, route: String) {
        self.error("unhandled error", [
            ("request_id", requestID), ("route", route), ("error", String(describing: type(of: error))),
            ("detail", Redaction.scrub(String(describing: error), secrets: [])),
        ])
    }
}
