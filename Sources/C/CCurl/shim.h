#ifndef PHONEVERIFY_CCURL_SHIM_H
#define PHONEVERIFY_CCURL_SHIM_H

// Typed, non-variadic wrappers around libcurl so Swift can call it.
// curl_easy_setopt and curl_easy_getinfo are variadic (Swift cannot call them) and, without
// CURL_DISABLE_TYPECHECK, are macros using GCC builtins the Clang importer cannot see through.

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/// Signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION callbacks.
typedef size_t (*pv_curl_data_callback)(char *data, size_t size, size_t count, void *context);

/// curl_global_init(CURL_GLOBAL_DEFAULT); call once per process before any other call.
static inline CURLcode pv_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

/// Sets an option taking a long (flags, sizes, milliseconds).
static inline CURLcode pv_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets an option taking a curl_off_t (e.g. CURLOPT_POSTFIELDSIZE_LARGE, CURLOPT_MAXFILESIZE_LARGE).
static inline CURLcode pv_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets an option taking a C string. libcurl copies string options (not CURLOPT_POSTFIELDS,
/// use CURLOPT_COPYPOSTFIELDS), so the string only has to live for the call.
static inline CURLcode pv_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets an option taking raw bytes or an opaque pointer (CURLOPT_COPYPOSTFIELDS,
/// CURLOPT_WRITEDATA, CURLOPT_HEADERDATA, CURLOPT_ERRORBUFFER).
static inline CURLcode pv_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets CURLOPT_HTTPHEADER (or another slist option); the list must outlive the transfer.
static inline CURLcode pv_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

/// Sets CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
static inline CURLcode pv_curl_setopt_callback(CURL *handle, CURLoption option, pv_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// Reads a long-valued CURLINFO (response code, connect count, request size); 0 on failure.
static inline long pv_curl_getinfo_long(CURL *handle, CURLINFO info) {
    long value = 0;
    if (curl_easy_getinfo(handle, info, &value) != CURLE_OK) return 0;
    return value;
}

/// Reads a curl_off_t-valued CURLINFO (the *_TIME_T timings, in microseconds); 0 on failure.
static inline curl_off_t pv_curl_getinfo_off_t(CURL *handle, CURLINFO info) {
    curl_off_t value = 0;
    if (curl_easy_getinfo(handle, info, &value) != CURLE_OK) return 0;
    return value;
}

/// CURLAUTH_BASIC as a long (the macro is a cast expression Swift does not import).
static inline long pv_curl_auth_basic(void) {
    return (long) CURLAUTH_BASIC;
}

/// The linked libcurl's version, e.g. "7.88.1" (CURLVERSION_NOW is a macro Swift does not import).
static inline const char *pv_curl_version_string(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info == NULL ? "" : info->version;
}

#endif
