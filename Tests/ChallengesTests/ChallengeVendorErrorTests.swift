import Testing
import VerifyCore
@testable import Challenges

@Suite struct ChallengeVendorErrorTests {
    @Test func refusalsNameTheProviderNeverTheToken() {
        let error = ChallengeVendorError.failed("turnstile", "timeout-or-duplicate")
        #expect(error.code == .challengeFailed)
        #expect(error.details["provider"] == .string("turnstile"))
        #expect(ChallengeVendorError.malformed("token", "is too long").code == .invalidRequest)
        #expect(ChallengeVendorError.unavailable("hcaptcha").code == .unavailable)
    }
}
