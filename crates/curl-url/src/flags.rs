//! [`Flags`]: the `CURLU_*` bit flags of `curl_url_set` and `curl_url_get`.

use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign};

use crate::ffi;

/// A set of `CURLU_*` flags, passed as the `unsigned int flags` argument of
/// `curl_url_set` / `curl_url_get`.
///
/// Each function ignores the flags it does not use, so one value can be
/// passed to both; the constants say which side reads them. Combine with `|`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Flags(u32);

impl Flags {
    /// No flag (`0`).
    pub const NONE: Flags = Flags(0);
    /// Get: return the scheme's default port when none was written
    /// (`CURLU_DEFAULT_PORT`).
    pub const DEFAULT_PORT: Flags = Flags(ffi::CURLU_DEFAULT_PORT);
    /// Get: act as if no port was written when it equals the scheme's default
    /// (`CURLU_NO_DEFAULT_PORT`).
    pub const NO_DEFAULT_PORT: Flags = Flags(ffi::CURLU_NO_DEFAULT_PORT);
    /// Set and get: assume `https` when the input has no scheme; get: report
    /// `https` when none is stored (`CURLU_DEFAULT_SCHEME`).
    pub const DEFAULT_SCHEME: Flags = Flags(ffi::CURLU_DEFAULT_SCHEME);
    /// Set: accept a scheme libcurl does not support (`CURLU_NON_SUPPORT_SCHEME`).
    pub const NON_SUPPORT_SCHEME: Flags = Flags(ffi::CURLU_NON_SUPPORT_SCHEME);
    /// Set: keep `.` and `..` segments in the path (`CURLU_PATH_AS_IS`).
    pub const PATH_AS_IS: Flags = Flags(ffi::CURLU_PATH_AS_IS);
    /// Set: reject a URL with user or password (`CURLU_DISALLOW_USER`).
    pub const DISALLOW_USER: Flags = Flags(ffi::CURLU_DISALLOW_USER);
    /// Get: percent-decode the part (`+` becomes space in the query)
    /// (`CURLU_URLDECODE`).
    pub const URLDECODE: Flags = Flags(ffi::CURLU_URLDECODE);
    /// Set: percent-encode the part being set; get: percent-encode the part
    /// returned (`CURLU_URLENCODE`).
    pub const URLENCODE: Flags = Flags(ffi::CURLU_URLENCODE);
    /// Set (query only): append `&value` to the existing query
    /// (`CURLU_APPENDQUERY`).
    pub const APPENDQUERY: Flags = Flags(ffi::CURLU_APPENDQUERY);
    /// Set: guess the scheme of a scheme-less URL from the host name, like the
    /// curl tool (`CURLU_GUESS_SCHEME`).
    pub const GUESS_SCHEME: Flags = Flags(ffi::CURLU_GUESS_SCHEME);
    /// Set: allow an empty authority for an unknown scheme
    /// (`CURLU_NO_AUTHORITY`).
    pub const NO_AUTHORITY: Flags = Flags(ffi::CURLU_NO_AUTHORITY);
    /// Set: accept spaces in the URL (`CURLU_ALLOW_SPACE`).
    pub const ALLOW_SPACE: Flags = Flags(ffi::CURLU_ALLOW_SPACE);
    /// Get: host name in punycode (`CURLU_PUNYCODE`). The vendored libcurl has
    /// no IDN library: a non-ASCII host then gives `CURLUE_LACKS_IDN`.
    pub const PUNYCODE: Flags = Flags(ffi::CURLU_PUNYCODE);
    /// Get: punycode host converted to IDN (`CURLU_PUNY2IDN`); see
    /// [`Flags::PUNYCODE`] about IDN support.
    pub const PUNY2IDN: Flags = Flags(ffi::CURLU_PUNY2IDN);
    /// Get: report an empty query or fragment (`?`, `#`) as `Some("")` and keep
    /// them in the URL (`CURLU_GET_EMPTY`).
    pub const GET_EMPTY: Flags = Flags(ffi::CURLU_GET_EMPTY);
    /// Get: do not report a scheme that was guessed (`CURLU_NO_GUESS_SCHEME`).
    pub const NO_GUESS_SCHEME: Flags = Flags(ffi::CURLU_NO_GUESS_SCHEME);

    /// Every named flag with its `CURLU_` name, in bit order.
    pub const NAMED: [(&'static str, Flags); 16] = [
        ("DEFAULT_PORT", Flags::DEFAULT_PORT),
        ("NO_DEFAULT_PORT", Flags::NO_DEFAULT_PORT),
        ("DEFAULT_SCHEME", Flags::DEFAULT_SCHEME),
        ("NON_SUPPORT_SCHEME", Flags::NON_SUPPORT_SCHEME),
        ("PATH_AS_IS", Flags::PATH_AS_IS),
        ("DISALLOW_USER", Flags::DISALLOW_USER),
        ("URLDECODE", Flags::URLDECODE),
        ("URLENCODE", Flags::URLENCODE),
        ("APPENDQUERY", Flags::APPENDQUERY),
        ("GUESS_SCHEME", Flags::GUESS_SCHEME),
        ("NO_AUTHORITY", Flags::NO_AUTHORITY),
        ("ALLOW_SPACE", Flags::ALLOW_SPACE),
        ("PUNYCODE", Flags::PUNYCODE),
        ("PUNY2IDN", Flags::PUNY2IDN),
        ("GET_EMPTY", Flags::GET_EMPTY),
        ("NO_GUESS_SCHEME", Flags::NO_GUESS_SCHEME),
    ];

    /// Flags from raw `CURLU_*` bits. Unknown bits are kept and passed to
    /// libcurl as they are (it ignores the bits it does not know).
    pub const fn from_bits(bits: u32) -> Flags {
        Flags(bits)
    }

    /// The raw `CURLU_*` bits.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether every bit of `other` is set in `self`.
    pub const fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    /// `self` without the bits of `other`.
    pub const fn without(self, other: Flags) -> Flags {
        Flags(self.0 & !other.0)
    }
}

impl BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

impl BitOrAssign for Flags {
    fn bitor_assign(&mut self, rhs: Flags) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for Flags {
    type Output = Flags;
    fn bitand(self, rhs: Flags) -> Flags {
        Flags(self.0 & rhs.0)
    }
}

/// `NON_SUPPORT_SCHEME | PATH_AS_IS`, `NONE` when empty, unknown bits in hex.
impl fmt::Debug for Flags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        let mut first = true;
        for (name, flag) in Flags::NAMED {
            if self.contains(flag) {
                if !first {
                    f.write_str(" | ")?;
                }
                f.write_str(name)?;
                first = false;
                rest &= !flag.0;
            }
        }
        if rest != 0 {
            if !first {
                f.write_str(" | ")?;
            }
            write!(f, "{rest:#x}")?;
            first = false;
        }
        if first {
            f.write_str("NONE")?;
        }
        Ok(())
    }
}
