import API
import Foundation
import Testing
import VerifyCore

@Suite struct ErrorCatalogueTests {
    /// Error codes are a contract: each has a status and a row in docs/ERRORS.md.
    @Test func everyCodeIsDocumentedWithItsStatus() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/ERRORS.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for code in ErrorCode.allCases {
            #expect(text.contains("| `\(code.rawValue)` | \(code.httpStatus) |"), "\(code.rawValue) is not documented with status \(code.httpStatus)")
        }
    }
}
