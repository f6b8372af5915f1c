/// One running part of the application (the store, the HTTP listener, a worker's threads): its
/// initialiser starts it from parts built before it, and ``ServiceGroup`` stops the parts in
/// reverse, so each part stops before what it uses. What does not run (keys, the gateway chain,
/// the key ring) is a value, not a service.
protocol ApplicationService: AnyObject {
    /// Called once.
    func stop()
}
