//! Declarations of the part of uriparser's ANSI API (`char`, the `…A`
//! names) this crate calls, transcribed from `include/uriparser/Uri.h` and
//! `UriBase.h` of uriparser 0.9.7 (Debian 12's liburiparser-dev). The
//! structure layouts have been stable since 0.3.0 (`@since` in Uri.h);
//! `uriParseSingleUriExA` dates from 0.9.0, the minimum build.rs asks for.

#![allow(non_camel_case_types, non_snake_case, dead_code)]

use std::ffi::{c_char, c_int, c_uchar, c_void};

/// `typedef int UriBool;`
pub(crate) type UriBool = c_int;

/// `#define URI_SUCCESS 0`
pub(crate) const URI_SUCCESS: c_int = 0;
/// `#define URI_ERROR_SYNTAX 1`: the text violates RFC 3986's grammar.
pub(crate) const URI_ERROR_SYNTAX: c_int = 1;
/// `#define URI_ERROR_NULL 2`
pub(crate) const URI_ERROR_NULL: c_int = 2;
/// `#define URI_ERROR_MALLOC 3`
pub(crate) const URI_ERROR_MALLOC: c_int = 3;
/// `#define URI_ERROR_OUTPUT_TOO_LARGE 4`
pub(crate) const URI_ERROR_OUTPUT_TOO_LARGE: c_int = 4;
/// `#define URI_ERROR_ADDBASE_REL_BASE 5`: the base has no scheme.
pub(crate) const URI_ERROR_ADDBASE_REL_BASE: c_int = 5;

/// `URI_RESOLVE_STRICTLY = 0` of `enum UriResolutionOptionsEnum`: RFC 3986
/// section 5.2.2 as written (a reference with the base's scheme keeps it).
pub(crate) const URI_RESOLVE_STRICTLY: c_int = 0;

/// `UriTextRangeA`: `[first, afterLast)`; both NULL for an absent part.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct UriTextRangeA {
    pub(crate) first: *const c_char,
    pub(crate) afterLast: *const c_char,
}

/// `UriPathSegmentA`: one node of the path's linked list.
#[repr(C)]
pub(crate) struct UriPathSegmentA {
    pub(crate) text: UriTextRangeA,
    pub(crate) next: *mut UriPathSegmentA,
    pub(crate) reserved: *mut c_void,
}

/// `UriIp4`: `unsigned char data[4]`.
#[repr(C)]
pub(crate) struct UriIp4 {
    pub(crate) data: [c_uchar; 4],
}

/// `UriIp6`: `unsigned char data[16]`.
#[repr(C)]
pub(crate) struct UriIp6 {
    pub(crate) data: [c_uchar; 16],
}

/// `UriHostDataA`: which kind of host was parsed (all zero for a reg-name).
#[repr(C)]
pub(crate) struct UriHostDataA {
    pub(crate) ip4: *mut UriIp4,
    pub(crate) ip6: *mut UriIp6,
    pub(crate) ipFuture: UriTextRangeA,
}

/// `UriUriA`: a parsed URI reference. For a parsed (not normalised, not
/// made owner) URI, every text range points into the parsed input.
#[repr(C)]
pub(crate) struct UriUriA {
    pub(crate) scheme: UriTextRangeA,
    pub(crate) userInfo: UriTextRangeA,
    pub(crate) hostText: UriTextRangeA,
    pub(crate) hostData: UriHostDataA,
    pub(crate) portText: UriTextRangeA,
    pub(crate) pathHead: *mut UriPathSegmentA,
    pub(crate) pathTail: *mut UriPathSegmentA,
    pub(crate) query: UriTextRangeA,
    pub(crate) fragment: UriTextRangeA,
    pub(crate) absolutePath: UriBool,
    pub(crate) owner: UriBool,
    pub(crate) reserved: *mut c_void,
}

unsafe extern "C" {
    /// `int uriParseSingleUriExA(UriUriA *uri, const char *first,
    /// const char *afterLast, const char **errorPos);`: parses
    /// `[first, afterLast)` (NUL bytes included, no terminator needed).
    /// On failure it frees what it allocated itself and, for
    /// `URI_ERROR_SYNTAX`, sets `*errorPos` to the first offending byte.
    pub(crate) fn uriParseSingleUriExA(
        uri: *mut UriUriA,
        first: *const c_char,
        afterLast: *const c_char,
        errorPos: *mut *const c_char,
    ) -> c_int;

    /// `void uriFreeUriMembersA(UriUriA *uri);`: frees the members the
    /// library allocated (segments, IP address structures), not the text.
    pub(crate) fn uriFreeUriMembersA(uri: *mut UriUriA);

    /// `int uriAddBaseUriExA(UriUriA *absoluteDest, const UriUriA
    /// *relativeSource, const UriUriA *absoluteBase, UriResolutionOptions
    /// options);`: RFC 3986 section 5.2. On success `absoluteDest` must be
    /// freed with uriFreeUriMembersA, and its text ranges point into the
    /// texts of the two inputs; on failure it frees it itself.
    pub(crate) fn uriAddBaseUriExA(
        absoluteDest: *mut UriUriA,
        relativeSource: *const UriUriA,
        absoluteBase: *const UriUriA,
        options: c_int,
    ) -> c_int;

    /// `int uriToStringCharsRequiredA(const UriUriA *uri, int
    /// *charsRequired);`: the length of uriToStringA's text, without the
    /// terminator.
    pub(crate) fn uriToStringCharsRequiredA(
        uri: *const UriUriA,
        charsRequired: *mut c_int,
    ) -> c_int;

    /// `int uriToStringA(char *dest, const UriUriA *uri, int maxChars, int
    /// *charsWritten);`: RFC 3986 section 5.3 recomposition into `dest`,
    /// at most `maxChars` bytes including the terminator.
    pub(crate) fn uriToStringA(
        dest: *mut c_char,
        uri: *const UriUriA,
        maxChars: c_int,
        charsWritten: *mut c_int,
    ) -> c_int;
}

impl UriTextRangeA {
    /// The absent range (both pointers NULL).
    pub(crate) const NONE: UriTextRangeA = UriTextRangeA {
        first: std::ptr::null(),
        afterLast: std::ptr::null(),
    };
}

impl UriUriA {
    /// The all-NULL structure `uriResetUriA` makes: what the functions that
    /// fill one (parse, resolve) are handed.
    pub(crate) const fn empty() -> UriUriA {
        UriUriA {
            scheme: UriTextRangeA::NONE,
            userInfo: UriTextRangeA::NONE,
            hostText: UriTextRangeA::NONE,
            hostData: UriHostDataA {
                ip4: std::ptr::null_mut(),
                ip6: std::ptr::null_mut(),
                ipFuture: UriTextRangeA::NONE,
            },
            portText: UriTextRangeA::NONE,
            pathHead: std::ptr::null_mut(),
            pathTail: std::ptr::null_mut(),
            query: UriTextRangeA::NONE,
            fragment: UriTextRangeA::NONE,
            absolutePath: 0,
            owner: 0,
            reserved: std::ptr::null_mut(),
        }
    }
}
