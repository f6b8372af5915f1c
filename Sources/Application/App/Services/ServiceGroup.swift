/// Starts services in order and stops them in reverse. When one fails to start, those already
/// started are stopped (in reverse) before the error is rethrown, so a failed start leaves no
/// threads, sockets or open stores behind.
final class ServiceGroup {
    private let services: [any ApplicationService]
    private var started = 0

    init(_ services: [any ApplicationService]) {
        self.services = services
    }

    func start() throws {
        for service in services {
            do {
                try service.start()
            } catch {
                stop()
                throw error
            }
            started += 1
        }
    }

    /// Stops what was started, last first. Calling it again does nothing.
    func stop() {
        while started > 0 {
            started -= 1
            services[started].stop()
        }
    }
}
