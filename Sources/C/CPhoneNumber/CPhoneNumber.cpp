// C facade over libphonenumber; see include/CPhoneNumber.h.
//
// PhoneNumberUtil::GetInstance() is a pthread_once singleton whose const
// methods are safe to call concurrently, so cpn_parse needs no locking.

#include "CPhoneNumber.h"

#include <cstring>
#include <string>

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

namespace {

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

/// Region used when the caller gives none: numbers must then start with '+'.
const char kUnknownRegion[] = "ZZ";

/// Longest default region accepted verbatim; anything longer cannot be a region.
const size_t kMaxRegionLength = 3;

/// Copies `value` into a fixed C buffer, truncating, always NUL-terminated.
template <size_t N>
void copyString(char (&dest)[N], const std::string &value) {
    size_t n = value.size() < N - 1 ? value.size() : N - 1;
    std::memcpy(dest, value.data(), n);
    dest[n] = '\0';
}

/// Uppercased (ASCII) region, "ZZ" when absent; `given` tells whether one was passed.
std::string normaliseRegion(const char *region, bool *given) {
    *given = false;
    if (region == nullptr) return kUnknownRegion;
    size_t len = strnlen(region, kMaxRegionLength + 1);
    if (len == 0) return kUnknownRegion;
    *given = true;
    if (len > kMaxRegionLength) return kUnknownRegion;  // cannot be valid
    std::string result(region, len);
    for (char &c : result) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return result;
}

CPNParseError mapError(PhoneNumberUtil::ErrorType error) {
    switch (error) {
    case PhoneNumberUtil::NO_PARSING_ERROR: return CPN_PARSE_OK;
    case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR: return CPN_PARSE_INVALID_COUNTRY_CODE;
    case PhoneNumberUtil::NOT_A_NUMBER: return CPN_PARSE_NOT_A_NUMBER;
    case PhoneNumberUtil::TOO_SHORT_AFTER_IDD: return CPN_PARSE_TOO_SHORT_AFTER_IDD;
    case PhoneNumberUtil::TOO_SHORT_NSN: return CPN_PARSE_TOO_SHORT_NSN;
    case PhoneNumberUtil::TOO_LONG_NSN: return CPN_PARSE_TOO_LONG;
    }
    return CPN_PARSE_NOT_A_NUMBER;
}

CPNPossibility mapPossibility(PhoneNumberUtil::ValidationResult result) {
    switch (result) {
    case PhoneNumberUtil::IS_POSSIBLE: return CPN_POSSIBLE_IS_POSSIBLE;
    case PhoneNumberUtil::IS_POSSIBLE_LOCAL_ONLY: return CPN_POSSIBLE_IS_POSSIBLE_LOCAL_ONLY;
    case PhoneNumberUtil::INVALID_COUNTRY_CODE: return CPN_POSSIBLE_INVALID_COUNTRY_CODE;
    case PhoneNumberUtil::TOO_SHORT: return CPN_POSSIBLE_TOO_SHORT;
    case PhoneNumberUtil::INVALID_LENGTH: return CPN_POSSIBLE_INVALID_LENGTH;
    case PhoneNumberUtil::TOO_LONG: return CPN_POSSIBLE_TOO_LONG;
    }
    return CPN_POSSIBLE_INVALID_LENGTH;
}

CPNNumberType mapType(PhoneNumberUtil::PhoneNumberType type) {
    switch (type) {
    case PhoneNumberUtil::FIXED_LINE: return CPN_TYPE_FIXED_LINE;
    case PhoneNumberUtil::MOBILE: return CPN_TYPE_MOBILE;
    case PhoneNumberUtil::FIXED_LINE_OR_MOBILE: return CPN_TYPE_FIXED_LINE_OR_MOBILE;
    case PhoneNumberUtil::TOLL_FREE: return CPN_TYPE_TOLL_FREE;
    case PhoneNumberUtil::PREMIUM_RATE: return CPN_TYPE_PREMIUM_RATE;
    case PhoneNumberUtil::SHARED_COST: return CPN_TYPE_SHARED_COST;
    case PhoneNumberUtil::VOIP: return CPN_TYPE_VOIP;
    case PhoneNumberUtil::PERSONAL_NUMBER: return CPN_TYPE_PERSONAL_NUMBER;
    case PhoneNumberUtil::PAGER: return CPN_TYPE_PAGER;
    case PhoneNumberUtil::UAN: return CPN_TYPE_UAN;
    case PhoneNumberUtil::VOICEMAIL: return CPN_TYPE_VOICEMAIL;
    case PhoneNumberUtil::UNKNOWN: return CPN_TYPE_UNKNOWN;
    }
    return CPN_TYPE_UNKNOWN;
}

/// Resets `out` to "not a number" so every early exit leaves it consistent.
void resetResult(CPNResult *out) {
    std::memset(out, 0, sizeof(*out));
    out->parse_error = CPN_PARSE_NOT_A_NUMBER;
    out->possibility = CPN_POSSIBLE_INVALID_LENGTH;
    out->number_type = CPN_TYPE_UNKNOWN;
}

void parseInto(const char *input, size_t length, const char *defaultRegion, CPNResult *out) {
    if (input == nullptr || length > CPN_MAX_INPUT_LENGTH) return;
    if (std::memchr(input, '\0', length) != nullptr) return;

    bool regionGiven = false;
    const std::string region = normaliseRegion(defaultRegion, &regionGiven);
    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();

    PhoneNumber number;
    const PhoneNumberUtil::ErrorType error =
        util.Parse(std::string(input, length), region, &number);
    if (error != PhoneNumberUtil::NO_PARSING_ERROR) {
        out->parse_error = mapError(error);
        return;
    }

    // Each libphonenumber call below re-runs metadata regexes, so nothing is computed twice:
    // IsPossibleNumber is IsPossibleNumberWithReason reduced to a yes/no, and IsValidNumber
    // is IsValidNumberForRegion for the number's own region.
    const PhoneNumberUtil::ValidationResult possibility = util.IsPossibleNumberWithReason(number);
    out->possibility = mapPossibility(possibility);
    out->is_possible = possibility == PhoneNumberUtil::IS_POSSIBLE ||
                               possibility == PhoneNumberUtil::IS_POSSIBLE_LOCAL_ONLY ? 1 : 0;
    // Fresh strings each time: some of these getters append rather than assign.
    std::string regionCode, e164, international, national;
    util.GetRegionCodeForNumber(number, &regionCode);
    // GetNumberType(number) takes the metadata of the number's own region, as
    // IsValidNumberForRegion(number, regionCode) does, and runs the same type patterns:
    // the number is valid exactly when its type is known. Deriving one from the other
    // saves a pass over the patterns (a third of a parse's regex work for a +1 number).
    const PhoneNumberUtil::PhoneNumberType type = util.GetNumberType(number);
    out->number_type = mapType(type);
    out->is_valid = type != PhoneNumberUtil::UNKNOWN ? 1 : 0;
    if (regionGiven) {
        out->is_valid_for_region =
            (region == regionCode ? out->is_valid != 0 : util.IsValidNumberForRegion(number, region)) ? 1 : 0;
    }
    out->country_code = number.country_code();

    copyString(out->region_code, regionCode);
    util.Format(number, PhoneNumberUtil::E164, &e164);
    copyString(out->e164, e164);
    util.Format(number, PhoneNumberUtil::INTERNATIONAL, &international);
    copyString(out->international, international);
    util.GetNationalSignificantNumber(number, &national);
    copyString(out->national_number, national);

    out->parse_error = CPN_PARSE_OK;  // last: only a complete result reports success
}

}  // namespace

extern "C" CPNParseError cpn_parse(const char *input, size_t input_length,
                                   const char *default_region, CPNResult *out) {
    if (out == nullptr) return CPN_PARSE_NOT_A_NUMBER;
    resetResult(out);
    try {
        parseInto(input, input_length, default_region, out);
    } catch (...) {
        resetResult(out);
    }
    return out->parse_error;
}

extern "C" int cpn_country_code_for_region(const char *region) {
    if (region == nullptr || strnlen(region, 3) != 2) return 0;
    bool given = false;
    const std::string normalised = normaliseRegion(region, &given);
    try {
        return PhoneNumberUtil::GetInstance()->GetCountryCodeForRegion(normalised);
    } catch (...) {
        return 0;
    }
}
