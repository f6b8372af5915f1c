import Foundation

/// The store, opened (and migrated) first and closed last: every other part reads or writes it.
final class StoreService: ApplicationService {
    let opened: StoreFactory.Opened

    /// Creates the data directory and opens (and migrates) the configured store.
    init(configuration: Configuration) throws {
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        opened = try StoreFactory.open(configuration)
    }

    var store: any AppStore { opened.store }

    func stop() {
        opened.close()
    }
}
