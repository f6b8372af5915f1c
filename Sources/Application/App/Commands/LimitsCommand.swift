import Foundation
import VerifyCore

/// `phone-verify limits clear NUMBER`: lifts a number's send quota on the configured store
/// (docs/ABUSE.md, "Operators lift locks"), for an owner whose quota strangers spent. The number
/// is read as `lockout clear` reads it (any form libphonenumber reads with a leading +).
enum LimitsCommand {
    static let usage = "usage: phone-verify limits clear NUMBER (NUMBER in international form, e.g. +14155552671)\n"

    static func run(_ args: [String], _ c: Configuration) throws -> Int32 {
        guard args.count == 2, args[0] == "clear" else {
            FileHandle.standardError.write(Data(usage.utf8))
            return 64
        }
        guard let phone = LockoutCommand.normalised(args[1]) else {
            FileHandle.standardError.write(Data("phone-verify: \(args[1]) is not a phone number in international form\n".utf8))
            return 64
        }
        let opened = try StoreFactory.openExisting(c)
        defer { opened.close() }
        guard let store = opened.store as? any LimitLogAdminStore else {
            FileHandle.standardError.write(Data("phone-verify: this store keeps no rate limits\n".utf8))
            return 70
        }
        print("\(phone): \(try LimitsAdmin(store: store).clear(phone: phone)) send-quota log(s) cleared")
        return 0
    }
}
