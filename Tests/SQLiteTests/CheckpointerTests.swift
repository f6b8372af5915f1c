import Foundation
import SQLite
import Testing

@Suite("Background checkpoints")
struct CheckpointerTests {
    let directory = TemporaryDirectory()

    func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// A few dozen pages never reach the writer's automatic checkpoint (1,000 pages), so the
    /// database file grows before `close` only if the background thread copied the WAL.
    @Test func theWALIsCopiedIntoTheDatabaseWhileItIsOpen() throws {
        let database = try openItemsDatabase(directory, name: "bg.db") { $0.checkpointIntervalMicros = 20_000 }
        defer { database.close() }
        let path = directory.file("bg.db")
        let before = fileSize(path)
        let text = String(repeating: "x", count: 2_000)
        try database.write { db in
            for n in 0..<60 { try db.run("INSERT INTO items (name) VALUES (?)", [.text("\(n)-\(text)")]) }
        }
        let deadline = Date().addingTimeInterval(5)
        while fileSize(path) <= before + 60 * 2_000 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(fileSize(path) > before + 60 * 2_000)
        #expect(try database.read { try $0.queryOne("SELECT COUNT(*) FROM items")?.int(0) } == 60)
    }

    @Test func withoutTheThreadOnlyTheWriterCheckpoints() throws {
        let database = try openItemsDatabase(directory, name: "fg.db") { $0.checkpointIntervalMicros = 0 }
        let path = directory.file("fg.db")
        let before = fileSize(path)
        try database.write { try $0.run("INSERT INTO items (name) VALUES (?)", [.text(String(repeating: "y", count: 20_000))]) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(fileSize(path) == before)
        database.close()  // the last connection to close checkpoints everything
        #expect(fileSize(path) > before + 20_000)
    }
}
