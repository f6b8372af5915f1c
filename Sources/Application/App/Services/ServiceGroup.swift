/// The running services, in the order they were started; stops them in reverse. When a part
/// fails to start, `Application.start` stops those already added before rethrowing, so a failed
/// start leaves no threads, sockets or open stores behind.
final class ServiceGroup {
    private var running: [any ApplicationService] = []

    /// Records a service that has just started; returns it.
    @discardableResult
    func add<Service: ApplicationService>(_ service: Service) -> Service {
        running.append(service)
        return service
    }

    /// Stops what was started, last first. Calling it again does nothing.
    func stop() {
        while let service = running.popLast() {
            service.stop()
        }
    }
}
