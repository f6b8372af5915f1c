import Foundation

/// The store, opened (and migrated) first and closed last: every other part reads or writes it.
final class StoreService: ApplicationService {
    let configuration: Configuration
    private(set) var opened: StoreFactory.Opened!

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    var store: any AppStore { opened.store }

    func start() throws {
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        opened = try StoreFactory.open(configuration)
    }

    func stop() {
        opened.close()
    }
}
