/// One part of the running application (the store, the delivery worker, the HTTP server…), in
/// swift-service-lifecycle's shape without its async: ``ServiceGroup`` starts the parts in order
/// and stops them in reverse, so each part starts after what it uses and stops before it.
protocol ApplicationService: AnyObject {
    func start() throws
    /// Called once, and only after `start` returned.
    func stop()
}
