import Synchronization
import Telemetry
import Testing

@Suite("Logger levels")
struct LoggerLevelTests {
    /// A line below the minimum level must not build its message or fields: callers put masked
    /// numbers and joined strings there, on the request path.
    @Test func aDisabledLineBuildsNothing() {
        let handler = CapturingLogHandler()
        let logger = Logger(handler: handler, minimumLevel: .warning)
        let built = Atomic<Int>(0)
        func fields() -> [(String, String)] {
            built.add(1, ordering: .relaxed)
            return [("to", "+1******0123")]
        }
        func message() -> String {
            built.add(1, ordering: .relaxed)
            return "message sent"
        }
        logger.info(message(), fields())
        logger.debug(message(), fields())
        #expect(built.load(ordering: .relaxed) == 0)
        #expect(handler.records.isEmpty)

        logger.warning(message(), fields())
        #expect(built.load(ordering: .relaxed) == 2)
        #expect(handler.records.map(\.message) == ["message sent"])
        #expect(handler.records.first?.fields.contains { $0.0 == "to" } == true)
    }
}
