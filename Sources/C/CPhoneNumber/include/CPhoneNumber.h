/*
 * CPhoneNumber: a plain C facade over Google's libphonenumber (C++).
 *
 * Swift cannot import phonenumberutil.h directly (the C++ interop importer
 * crashes on protobuf), so this header exposes one C function and plain C
 * types only. It is safe to call from any number of threads at once.
 */
#ifndef CPHONENUMBER_H
#define CPHONENUMBER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Longest input, in bytes, that is ever handed to libphonenumber. */
#define CPN_MAX_INPUT_LENGTH 250

/** Why parsing failed (mirrors PhoneNumberUtil::ErrorType). */
typedef enum CPNParseError {
    CPN_PARSE_OK = 0,
    CPN_PARSE_INVALID_COUNTRY_CODE = 1,
    CPN_PARSE_NOT_A_NUMBER = 2,
    CPN_PARSE_TOO_SHORT_AFTER_IDD = 3,
    CPN_PARSE_TOO_SHORT_NSN = 4,
    CPN_PARSE_TOO_LONG = 5
} CPNParseError;

/** Outcome of the possibility check (mirrors PhoneNumberUtil::ValidationResult). */
typedef enum CPNPossibility {
    CPN_POSSIBLE_IS_POSSIBLE = 0,
    CPN_POSSIBLE_IS_POSSIBLE_LOCAL_ONLY = 1,
    CPN_POSSIBLE_INVALID_COUNTRY_CODE = 2,
    CPN_POSSIBLE_TOO_SHORT = 3,
    CPN_POSSIBLE_INVALID_LENGTH = 4,
    CPN_POSSIBLE_TOO_LONG = 5
} CPNPossibility;

/** Kind of number (mirrors PhoneNumberUtil::PhoneNumberType). */
typedef enum CPNNumberType {
    CPN_TYPE_FIXED_LINE = 0,
    CPN_TYPE_MOBILE = 1,
    CPN_TYPE_FIXED_LINE_OR_MOBILE = 2,
    CPN_TYPE_TOLL_FREE = 3,
    CPN_TYPE_PREMIUM_RATE = 4,
    CPN_TYPE_SHARED_COST = 5,
    CPN_TYPE_VOIP = 6,
    CPN_TYPE_PERSONAL_NUMBER = 7,
    CPN_TYPE_PAGER = 8,
    CPN_TYPE_UAN = 9,
    CPN_TYPE_VOICEMAIL = 10,
    CPN_TYPE_UNKNOWN = 11
} CPNNumberType;

/**
 * Everything learnt about one input. All strings are NUL-terminated and
 * empty when unknown; when parse_error != CPN_PARSE_OK only parse_error is
 * meaningful (the rest is zeroed, number_type is CPN_TYPE_UNKNOWN).
 */
typedef struct CPNResult {
    CPNParseError parse_error;
    int is_possible;              /* 1 if the length is possible for the number's region */
    CPNPossibility possibility;   /* the reason behind is_possible */
    int is_valid;                 /* 1 if the number matches a valid pattern */
    int is_valid_for_region;      /* 1 if a default region was given and the number is valid for it */
    char region_code[8];          /* e.g. "US", "001" for non-geographic, "ZZ" if unknown */
    int country_code;             /* country calling code, e.g. 1, 44 */
    CPNNumberType number_type;
    char e164[32];                /* e.g. "+16502530000" */
    char international[64];       /* e.g. "+1 650-253-0000" */
    char national_number[32];     /* national significant number, e.g. "6502530000" */
} CPNResult;

/**
 * Parses `input` (`input_length` bytes of UTF-8, need not be NUL-terminated)
 * with an optional ISO 3166-1 alpha-2 `default_region` (NULL or "" for none;
 * case-insensitive) and fills `*out`, which must not be NULL.
 *
 * Inputs longer than CPN_MAX_INPUT_LENGTH bytes, inputs containing NUL bytes
 * and a NULL `input` are reported as CPN_PARSE_NOT_A_NUMBER. Never throws.
 * Returns out->parse_error.
 */
CPNParseError cpn_parse(const char *input, size_t input_length,
                        const char *default_region, CPNResult *out);

/**
 * The country calling code of an ISO 3166-1 alpha-2 `region` (case-insensitive), e.g. 229
 * for "BJ"; 0 when libphonenumber's metadata does not know the region (or `region` is NULL,
 * empty or not two letters). Never throws.
 */
int cpn_country_code_for_region(const char *region);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* CPHONENUMBER_H */
