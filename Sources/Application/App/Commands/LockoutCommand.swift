import PhoneParsing
import Foundation
import VerifyCore
import Encoding

/// `phone-verify lockout list [NUMBER] | clear NUMBER`: operators' view of failed-check lockouts on
/// the configured store (docs/OPERATIONS.md). A number may be written in any form libphonenumber
/// reads with a leading + (it is normalised to E.164, as the API stores it).
enum LockoutCommand {
    static let usage = "usage: phone-verify lockout list [NUMBER] | clear NUMBER (NUMBER in international form, e.g. +14155552671)\n"

    static func run(_ args: [String], _ c: Configuration) throws -> Int32 {
        guard let verb = args.first, (verb == "list" && args.count <= 2) || (verb == "clear" && args.count == 2) else {
            FileHandle.standardError.write(Data(usage.utf8))
            return 64
        }
        var phone: String?
        if args.count == 2 {
            guard let e164 = normalised(args[1]) else {
                FileHandle.standardError.write(Data("phone-verify: \(args[1]) is not a phone number in international form\n".utf8))
                return 64
            }
            phone = e164
        }
        let opened = try StoreFactory.openExisting(c)
        defer { opened.close() }
        guard let store = opened.store as? any LimitLogAdminStore else {
            FileHandle.standardError.write(Data("phone-verify: this store keeps no lockouts\n".utf8))
            return 70
        }
        let admin = LockoutAdmin(store: store, clock: SystemClock(), limits: c.limits)
        if verb == "clear", let phone {
            print("\(phone): \(try admin.clear(phone: phone)) lockout(s) cleared")
            return 0
        }
        for lockout in try admin.list(phone: phone) {
            let until = lockout.lockedUntil.map(RFC3339.format) ?? "-"
            print("\(lockout.phoneNumber)\trequester=\(lockout.requester)\tfailures=\(lockout.failures)\tlocked_until=\(until)")
        }
        return 0
    }

    /// E.164 of a number as the API would store it; test numbers and fictional ranges keep their digits.
    static func normalised(_ text: String) -> String? {
        if case .success(let number) = LibPhoneNumberParser().parse(text, defaultRegion: nil) { return number.e164 }
        let digits = text.filter(ASCII.isDigit)
        guard text.hasPrefix("+"), (1...15).contains(digits.count) else { return nil }
        return "+" + digits
    }
}
