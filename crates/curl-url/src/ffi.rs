//! Declarations of libcurl's URL API.
//!
//! `curl-sys` 0.4.91 builds `lib/urlapi.c` into its vendored libcurl but
//! declares none of the URL API (no `CURLU`, `CURLUcode`, `CURLUPart`,
//! `CURLU_*` flags, nor `curl_url*` functions), so they are declared here,
//! transcribed from `include/curl/urlapi.h` of curl 8.22.0 (the copy vendored
//! in `curl-sys-0.4.91+curl-8.22.0/curl/include/curl/urlapi.h`). `curl_free`
//! and `curl_version` do come from `curl-sys`.
//!
//! C enums are passed as `curl_sys::__enum_ty`, the type `curl-sys` uses for
//! every libcurl enum (`c_uint`, or `c_int` under MSVC), so that they match
//! the C ABI the same way `CURLcode` does there.

#![allow(non_camel_case_types, dead_code, clippy::upper_case_acronyms)]

use std::ffi::{c_char, c_uint};
use std::marker::{PhantomData, PhantomPinned};

/// `typedef enum { ... } CURLUcode;`
pub(crate) type CURLUcode = curl_sys::__enum_ty;
/// `typedef enum { ... } CURLUPart;`
pub(crate) type CURLUPart = curl_sys::__enum_ty;

/// `typedef struct Curl_URL CURLU;`: opaque, only ever behind a pointer.
///
/// The markers make it `!Send`, `!Sync` and `!Unpin`, as recommended for
/// opaque FFI types; [`crate::Url`] states its own thread-safety.
#[repr(C)]
pub(crate) struct CURLU {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

// CURLUcode values, in the order of the C enum.
pub(crate) const CURLUE_OK: CURLUcode = 0;
pub(crate) const CURLUE_BAD_HANDLE: CURLUcode = 1;
pub(crate) const CURLUE_BAD_PARTPOINTER: CURLUcode = 2;
pub(crate) const CURLUE_MALFORMED_INPUT: CURLUcode = 3;
pub(crate) const CURLUE_BAD_PORT_NUMBER: CURLUcode = 4;
pub(crate) const CURLUE_UNSUPPORTED_SCHEME: CURLUcode = 5;
pub(crate) const CURLUE_URLDECODE: CURLUcode = 6;
pub(crate) const CURLUE_OUT_OF_MEMORY: CURLUcode = 7;
pub(crate) const CURLUE_USER_NOT_ALLOWED: CURLUcode = 8;
pub(crate) const CURLUE_UNKNOWN_PART: CURLUcode = 9;
pub(crate) const CURLUE_NO_SCHEME: CURLUcode = 10;
pub(crate) const CURLUE_NO_USER: CURLUcode = 11;
pub(crate) const CURLUE_NO_PASSWORD: CURLUcode = 12;
pub(crate) const CURLUE_NO_OPTIONS: CURLUcode = 13;
pub(crate) const CURLUE_NO_HOST: CURLUcode = 14;
pub(crate) const CURLUE_NO_PORT: CURLUcode = 15;
pub(crate) const CURLUE_NO_QUERY: CURLUcode = 16;
pub(crate) const CURLUE_NO_FRAGMENT: CURLUcode = 17;
pub(crate) const CURLUE_NO_ZONEID: CURLUcode = 18;
pub(crate) const CURLUE_BAD_FILE_URL: CURLUcode = 19;
pub(crate) const CURLUE_BAD_FRAGMENT: CURLUcode = 20;
pub(crate) const CURLUE_BAD_HOSTNAME: CURLUcode = 21;
pub(crate) const CURLUE_BAD_IPV6: CURLUcode = 22;
pub(crate) const CURLUE_BAD_LOGIN: CURLUcode = 23;
pub(crate) const CURLUE_BAD_PASSWORD: CURLUcode = 24;
pub(crate) const CURLUE_BAD_PATH: CURLUcode = 25;
pub(crate) const CURLUE_BAD_QUERY: CURLUcode = 26;
pub(crate) const CURLUE_BAD_SCHEME: CURLUcode = 27;
pub(crate) const CURLUE_BAD_SLASHES: CURLUcode = 28;
pub(crate) const CURLUE_BAD_USER: CURLUcode = 29;
pub(crate) const CURLUE_LACKS_IDN: CURLUcode = 30;
pub(crate) const CURLUE_TOO_LARGE: CURLUcode = 31;
pub(crate) const CURLUE_BACKSLASH: CURLUcode = 32;

// CURLUPart values, in the order of the C enum.
pub(crate) const CURLUPART_URL: CURLUPart = 0;
pub(crate) const CURLUPART_SCHEME: CURLUPart = 1;
pub(crate) const CURLUPART_USER: CURLUPart = 2;
pub(crate) const CURLUPART_PASSWORD: CURLUPart = 3;
pub(crate) const CURLUPART_OPTIONS: CURLUPart = 4;
pub(crate) const CURLUPART_HOST: CURLUPart = 5;
pub(crate) const CURLUPART_PORT: CURLUPart = 6;
pub(crate) const CURLUPART_PATH: CURLUPart = 7;
pub(crate) const CURLUPART_QUERY: CURLUPart = 8;
pub(crate) const CURLUPART_FRAGMENT: CURLUPart = 9;
pub(crate) const CURLUPART_ZONEID: CURLUPart = 10;

// `#define CURLU_* (1 << n)` flags (`unsigned int flags` in the prototypes).
pub(crate) const CURLU_DEFAULT_PORT: c_uint = 1 << 0;
pub(crate) const CURLU_NO_DEFAULT_PORT: c_uint = 1 << 1;
pub(crate) const CURLU_DEFAULT_SCHEME: c_uint = 1 << 2;
pub(crate) const CURLU_NON_SUPPORT_SCHEME: c_uint = 1 << 3;
pub(crate) const CURLU_PATH_AS_IS: c_uint = 1 << 4;
pub(crate) const CURLU_DISALLOW_USER: c_uint = 1 << 5;
pub(crate) const CURLU_URLDECODE: c_uint = 1 << 6;
pub(crate) const CURLU_URLENCODE: c_uint = 1 << 7;
pub(crate) const CURLU_APPENDQUERY: c_uint = 1 << 8;
pub(crate) const CURLU_GUESS_SCHEME: c_uint = 1 << 9;
pub(crate) const CURLU_NO_AUTHORITY: c_uint = 1 << 10;
pub(crate) const CURLU_ALLOW_SPACE: c_uint = 1 << 11;
pub(crate) const CURLU_PUNYCODE: c_uint = 1 << 12;
pub(crate) const CURLU_PUNY2IDN: c_uint = 1 << 13;
pub(crate) const CURLU_GET_EMPTY: c_uint = 1 << 14;
pub(crate) const CURLU_NO_GUESS_SCHEME: c_uint = 1 << 15;

// The prototypes of urlapi.h. `CURL_EXTERN` is the default C visibility for
// the static library curl-sys builds (it defines CURL_STATICLIB).
unsafe extern "C" {
    /// `CURLU *curl_url(void);`: a new handle, or NULL when out of memory.
    pub(crate) fn curl_url() -> *mut CURLU;

    /// `void curl_url_cleanup(CURLU *u);`: frees the handle (not strings
    /// previously returned by `curl_url_get`).
    pub(crate) fn curl_url_cleanup(u: *mut CURLU);

    /// `CURLU *curl_url_dup(const CURLU *in);`: a deep copy, or NULL when out
    /// of memory.
    pub(crate) fn curl_url_dup(u: *const CURLU) -> *mut CURLU;

    /// `CURLUcode curl_url_get(const CURLU *u, CURLUPart what, char **part,
    /// unsigned int flags);`: on success `*part` is a NUL-terminated string
    /// that must be freed with `curl_free`.
    pub(crate) fn curl_url_get(
        u: *const CURLU,
        what: CURLUPart,
        part: *mut *mut c_char,
        flags: c_uint,
    ) -> CURLUcode;

    /// `CURLUcode curl_url_set(CURLU *u, CURLUPart what, const char *part,
    /// unsigned int flags);`: `part` is copied; NULL clears the part.
    pub(crate) fn curl_url_set(
        u: *mut CURLU,
        what: CURLUPart,
        part: *const c_char,
        flags: c_uint,
    ) -> CURLUcode;

    /// `const char *curl_url_strerror(CURLUcode);`: a static string, also
    /// for unknown codes ("CURLUcode unknown").
    pub(crate) fn curl_url_strerror(code: CURLUcode) -> *const c_char;
}
