import Testing
@testable import Console

/// The console's middleware decides from the path's first segments, read in place, whether a
/// request is its own: every request of the API passes through it.
@Suite("Console middleware scope")
struct ConsoleScopeTests {
    @Test(arguments: [
        ("/console", true, false), ("/console/", true, false), ("//console/numbers", true, false),
        ("/v1/admin/fraud", false, true), ("/v1//admin", false, true), ("/v1/admin", false, true),
        ("/v1/verifications", false, false), ("/consoles", false, false), ("/v1/administrator", false, false),
        ("/admin", false, false), ("/", false, false), ("", false, false), ("/v1", false, false),
        ("/x/console", false, false),
    ])
    func scope(path: String, console: Bool, admin: Bool) {
        let scope = ConsoleMiddleware.scope(of: path)
        #expect(scope.console == console && scope.admin == admin, "\(path)")
        // The rule it replaces: the segments of a split that omits empty ones.
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        #expect(scope.console == (segments.first == "console"))
        #expect(scope.admin == (segments.count >= 2 && segments[0] == "v1" && segments[1] == "admin"))
    }
}
