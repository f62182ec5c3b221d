//! [`Error`] and [`CurlError`].

use std::ffi::CStr;
use std::fmt;

use crate::ffi;

/// A `CURLUcode` other than `CURLUE_OK`, with libcurl's message for it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CurlError {
    code: i32,
    message: String,
}

impl CurlError {
    /// The error for a `CURLUcode`, with its text from `curl_url_strerror`.
    pub(crate) fn from_code(code: ffi::CURLUcode) -> CurlError {
        // SAFETY: curl_url_strerror accepts any value (unknown codes give
        // "CURLUcode unknown") and returns a pointer to a static,
        // NUL-terminated string that is never freed nor modified, so it may be
        // read here and lives for 'static.
        let text = unsafe { ffi::curl_url_strerror(code) };
        let message = if text.is_null() {
            String::new()
        } else {
            // SAFETY: `text` is non-null, NUL-terminated and static (above).
            let text = unsafe { CStr::from_ptr(text) };
            text.to_string_lossy().into_owned()
        };
        CurlError {
            code: i32::try_from(code).unwrap_or(i32::MAX),
            message,
        }
    }

    /// The `CURLUcode` value (`CURLUE_MALFORMED_INPUT` is 3, ...).
    pub fn code(&self) -> i32 {
        self.code
    }

    /// libcurl's text for the code (`curl_url_strerror`), e.g.
    /// "Malformed input to a URL function".
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The C name of the code, e.g. `"CURLUE_MALFORMED_INPUT"`, or
    /// `"CURLUE_UNKNOWN"` for a value urlapi.h of curl 8.22 does not define.
    pub fn name(&self) -> &'static str {
        code_name(self.code)
    }
}

impl fmt::Display for CurlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.name(), self.code, self.message)
    }
}

impl std::error::Error for CurlError {}

/// What can go wrong with a call of this crate.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// libcurl returned an error code.
    Curl(CurlError),
    /// The text to set contains a NUL byte at byte offset `position`.
    /// libcurl takes NUL-terminated C strings, so it would silently see only
    /// the text before the NUL: the wrapper refuses instead, before calling
    /// libcurl.
    Nul {
        /// Byte offset of the first NUL in the input.
        position: usize,
    },
}

impl Error {
    /// The error for a `CURLUcode` (`!= CURLUE_OK`).
    pub(crate) fn curl(code: ffi::CURLUcode) -> Error {
        Error::Curl(CurlError::from_code(code))
    }

    /// The `CURLUcode` when the error comes from libcurl, `None` otherwise.
    pub fn code(&self) -> Option<i32> {
        match self {
            Error::Curl(e) => Some(e.code()),
            Error::Nul { .. } => None,
        }
    }

    /// The C name of the `CURLUcode` (`"CURLUE_BAD_PORT_NUMBER"`), or
    /// `"NUL_IN_INPUT"` for the wrapper's own error: a stable short label for
    /// reports.
    pub fn name(&self) -> &'static str {
        match self {
            Error::Curl(e) => e.name(),
            Error::Nul { .. } => "NUL_IN_INPUT",
        }
    }

    /// Whether this is the wrapper's error for an input containing NUL.
    pub fn is_nul(&self) -> bool {
        matches!(self, Error::Nul { .. })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Curl(e) => e.fmt(f),
            Error::Nul { position } => write!(
                f,
                "input contains a NUL byte at offset {position}; libcurl takes NUL-terminated strings"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Curl(e) => Some(e),
            Error::Nul { .. } => None,
        }
    }
}

impl From<CurlError> for Error {
    fn from(e: CurlError) -> Error {
        Error::Curl(e)
    }
}

/// The C name of a `CURLUcode`, from urlapi.h of curl 8.22.
fn code_name(code: i32) -> &'static str {
    const NAMES: [&str; 33] = [
        "CURLUE_OK",
        "CURLUE_BAD_HANDLE",
        "CURLUE_BAD_PARTPOINTER",
        "CURLUE_MALFORMED_INPUT",
        "CURLUE_BAD_PORT_NUMBER",
        "CURLUE_UNSUPPORTED_SCHEME",
        "CURLUE_URLDECODE",
        "CURLUE_OUT_OF_MEMORY",
        "CURLUE_USER_NOT_ALLOWED",
        "CURLUE_UNKNOWN_PART",
        "CURLUE_NO_SCHEME",
        "CURLUE_NO_USER",
        "CURLUE_NO_PASSWORD",
        "CURLUE_NO_OPTIONS",
        "CURLUE_NO_HOST",
        "CURLUE_NO_PORT",
        "CURLUE_NO_QUERY",
        "CURLUE_NO_FRAGMENT",
        "CURLUE_NO_ZONEID",
        "CURLUE_BAD_FILE_URL",
        "CURLUE_BAD_FRAGMENT",
        "CURLUE_BAD_HOSTNAME",
        "CURLUE_BAD_IPV6",
        "CURLUE_BAD_LOGIN",
        "CURLUE_BAD_PASSWORD",
        "CURLUE_BAD_PATH",
        "CURLUE_BAD_QUERY",
        "CURLUE_BAD_SCHEME",
        "CURLUE_BAD_SLASHES",
        "CURLUE_BAD_USER",
        "CURLUE_LACKS_IDN",
        "CURLUE_TOO_LARGE",
        "CURLUE_BACKSLASH",
    ];
    usize::try_from(code)
        .ok()
        .and_then(|i| NAMES.get(i).copied())
        .unwrap_or("CURLUE_UNKNOWN")
}
