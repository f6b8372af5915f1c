import CPhoneNumber

/// Parses and validates phone numbers with Google's libphonenumber.
///
/// Stateless and cheap to create; every method may be called from any number of
/// tasks or threads at once (libphonenumber's shared instance is thread-safe).
public struct PhoneNumberUtility: Sendable {
    /// The longest input, in UTF-8 bytes, that is considered at all; longer text is
    /// rejected as ``PhoneNumberProblem/notANumber`` without being parsed.
    public static let maxInputLength = Int(CPN_MAX_INPUT_LENGTH)

    /// Creates a utility; all instances share libphonenumber's metadata.
    public init() {}

    /// Parses `text` as a phone number and checks that it is a valid, dialable number.
    ///
    /// - Parameters:
    ///   - text: What the user typed: E.164 (`"+44 20 7031 3000"`), a national format
    ///     (`"020 7031 3000"`) when `defaultRegion` is given, or anything libphonenumber
    ///     accepts (punctuation, `tel:` URIs, vanity letters such as `"1-800-FLOWERS"`).
    ///   - defaultRegion: The ISO 3166-1 alpha-2 region (case-insensitive) to assume when
    ///     `text` does not start with `+` or an international prefix; `nil` or `""` for none.
    ///     It only guides parsing: a valid number of another region is still accepted.
    /// - Returns: The number's canonical forms and type, or why it was rejected:
    ///   ``PhoneNumberProblem/tooShort``, ``PhoneNumberProblem/tooLong``,
    ///   ``PhoneNumberProblem/invalidCountryCode``, ``PhoneNumberProblem/notANumber``
    ///   (also for empty or over-long text) or ``PhoneNumberProblem/invalidForRegion``
    ///   (right shape, but no valid number of its region has it).
    public func parse(_ text: String, defaultRegion: String? = nil) -> Result<PhoneNumberInfo, PhoneNumberProblem> {
        guard text.utf8.count <= Self.maxInputLength else { return .failure(.notANumber) }
        let result = Self.callC(text, defaultRegion: defaultRegion)
        if let problem = Self.problem(in: result) { return .failure(problem) }
        return .success(PhoneNumberInfo(
            e164: string(fromCCharTuple: result.e164),
            region: string(fromCCharTuple: result.region_code),
            countryCode: Int(result.country_code),
            type: PhoneNumberType(result.number_type),
            international: string(fromCCharTuple: result.international),
            nationalNumber: string(fromCCharTuple: result.national_number)
        ))
    }

    /// The country calling code of an ISO 3166-1 alpha-2 region (case-insensitive), for example
    /// `229` for `"BJ"`; `nil` when the metadata does not know the region.
    public func countryCode(forRegion region: String) -> Int? {
        let code = region.withCString { cpn_country_code_for_region($0) }
        return code > 0 ? Int(code) : nil
    }

    /// Runs the C facade on the UTF-8 bytes of `text` (embedded NULs included).
    private static func callC(_ text: String, defaultRegion: String?) -> CPNResult {
        var result = CPNResult()
        var text = text
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { bytes in
                if let defaultRegion {
                    defaultRegion.withCString { region in
                        _ = cpn_parse(bytes.baseAddress, bytes.count, region, &result)
                    }
                } else {
                    _ = cpn_parse(bytes.baseAddress, bytes.count, nil, &result)
                }
            }
        }
        return result
    }

    /// The problem a C result reports, or `nil` for a valid number.
    private static func problem(in result: CPNResult) -> PhoneNumberProblem? {
        switch result.parse_error {
        case CPN_PARSE_OK: break
        case CPN_PARSE_INVALID_COUNTRY_CODE: return .invalidCountryCode
        case CPN_PARSE_TOO_SHORT_AFTER_IDD, CPN_PARSE_TOO_SHORT_NSN: return .tooShort
        case CPN_PARSE_TOO_LONG: return .tooLong
        default: return .notANumber
        }
        if result.is_possible == 0 {
            switch result.possibility {
            case CPN_POSSIBLE_TOO_SHORT: return .tooShort
            case CPN_POSSIBLE_TOO_LONG: return .tooLong
            case CPN_POSSIBLE_INVALID_COUNTRY_CODE: return .invalidCountryCode
            default: return .invalidForRegion
            }
        }
        return result.is_valid == 0 ? .invalidForRegion : nil
    }
}
