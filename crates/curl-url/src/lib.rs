//! A small, safe wrapper over libcurl's URL API (`curl_url`, `curl_url_set`,
//! `curl_url_get`, `curl_url_dup`, `curl_url_cleanup`, `curl_url_strerror`).
//!
//! libcurl comes from `curl-sys` with its `static-curl` feature: the curl
//! 8.22 sources vendored in that crate are compiled with the C compiler and
//! linked statically, with no TLS library and no IDN library. The URL API
//! touches no network; [`easy::fetch`] (one HTTP GET through the easy API)
//! connects to loopback addresses only, and never resolves a name.
//!
//! This is the one crate of uridiff that contains `unsafe` code; every block
//! states the invariant it relies on in a `SAFETY:` comment.
//!
//! ```
//! use curl_url::{Flags, parse, resolve};
//!
//! let parts = parse("http://example.com:8080/a?b#c", Flags::NONE)?;
//! assert_eq!(parts.host.as_deref(), Some("example.com"));
//! assert_eq!(parts.port.as_deref(), Some("8080"));
//!
//! let resolved = resolve("http://a/b/c/d;p?q", "../g", Flags::NONE)?;
//! assert_eq!(resolved.url.as_deref(), Some("http://a/b/g"));
//! # Ok::<(), curl_url::Error>(())
//! ```
//!
//! Strings cross into libcurl as C strings: an input with a NUL byte is
//! refused with [`Error::Nul`] rather than truncated.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod easy;
mod error;
mod ffi;
mod flags;
mod url;

use std::ffi::CStr;
use std::sync::OnceLock;

pub use crate::error::{CurlError, Error};
pub use crate::flags::Flags;
pub use crate::url::{Part, Parts, Url};

/// Parses `input` (`curl_url_set(CURLUPART_URL, input, flags)` on a new
/// handle) and returns its [`Url::parts`].
///
/// # Errors
/// As [`Url::set_url`] and [`Url::parts`].
pub fn parse(input: &str, flags: Flags) -> Result<Parts, Error> {
    let mut url = Url::new()?;
    url.set_url(input, flags)?;
    url.parts()
}

/// Resolves `reference` against `base` the way libcurl does: sets `base`,
/// then sets `reference` on the same handle (both with `flags`), and returns
/// the [`Url::parts`] of the result.
///
/// # Errors
/// As [`Url::set_url`] (for either string) and [`Url::parts`].
pub fn resolve(base: &str, reference: &str, flags: Flags) -> Result<Parts, Error> {
    let mut url = Url::new()?;
    url.set_url(base, flags)?;
    url.set_url(reference, flags)?;
    url.parts()
}

/// libcurl's version line from `curl_version()`, e.g.
/// `"libcurl/8.22.0-DEV zlib/1.2.13"` (the vendored sources call themselves
/// `8.22.0-DEV`).
///
/// `curl_version` writes into a static buffer, so it is called once, under a
/// [`OnceLock`], and the copy is returned afterwards.
pub fn version() -> String {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            // SAFETY: curl_version has no precondition; it fills and returns a
            // static NUL-terminated buffer. The OnceLock makes this the only
            // call from this crate, so no other call of ours rewrites the
            // buffer while it is read below.
            let text = unsafe { curl_sys::curl_version() };
            if text.is_null() {
                return String::new();
            }
            // SAFETY: `text` is non-null and NUL-terminated (above) and the
            // static buffer outlives this copy.
            let text = unsafe { CStr::from_ptr(text) };
            text.to_string_lossy().into_owned()
        })
        .clone()
}
