import CPhoneNumber

/// The kind of line a phone number belongs to, as classified by libphonenumber's metadata.
///
/// The raw values are stable snake_case names suitable for JSON and logs.
public enum PhoneNumberType: String, Sendable, CaseIterable {
    /// A geographic landline number.
    case fixedLine = "fixed_line"
    /// A mobile (cellular) number.
    case mobile
    /// A number that can be either (for example every number in the NANP, +1).
    case fixedLineOrMobile = "fixed_line_or_mobile"
    /// A freephone number, paid for by the callee.
    case tollFree = "toll_free"
    /// A premium-rate number, charged above the normal rate.
    case premiumRate = "premium_rate"
    /// A number whose cost is shared between caller and callee.
    case sharedCost = "shared_cost"
    /// A voice-over-IP number.
    case voip
    /// A personal number that may be routed to a mobile or fixed line.
    case personalNumber = "personal_number"
    /// A pager number.
    case pager
    /// A universal access ("company") number.
    case uan
    /// A voicemail access number.
    case voicemail
    /// A number that fits no known pattern of its region.
    case unknown

    /// Maps the C facade's enum; values outside it become `.unknown`.
    init(_ type: CPNNumberType) {
        switch type {
        case CPN_TYPE_FIXED_LINE: self = .fixedLine
        case CPN_TYPE_MOBILE: self = .mobile
        case CPN_TYPE_FIXED_LINE_OR_MOBILE: self = .fixedLineOrMobile
        case CPN_TYPE_TOLL_FREE: self = .tollFree
        case CPN_TYPE_PREMIUM_RATE: self = .premiumRate
        case CPN_TYPE_SHARED_COST: self = .sharedCost
        case CPN_TYPE_VOIP: self = .voip
        case CPN_TYPE_PERSONAL_NUMBER: self = .personalNumber
        case CPN_TYPE_PAGER: self = .pager
        case CPN_TYPE_UAN: self = .uan
        case CPN_TYPE_VOICEMAIL: self = .voicemail
        default: self = .unknown
        }
    }
}
