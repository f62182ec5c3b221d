//! [`Url`] (an owned `CURLU` handle), [`Part`] and [`Parts`].

use std::ffi::{CStr, CString, c_char};
use std::fmt;
use std::ptr::{self, NonNull};

use crate::ffi;
use crate::{Error, Flags};

/// A part of a URL, as named by `CURLUPart`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// The whole URL (`CURLUPART_URL`).
    Url,
    /// `CURLUPART_SCHEME`.
    Scheme,
    /// `CURLUPART_USER`.
    User,
    /// `CURLUPART_PASSWORD`.
    Password,
    /// Login options (`user;options:password@`, only for IMAP/POP3/SMTP-like
    /// schemes) (`CURLUPART_OPTIONS`).
    Options,
    /// `CURLUPART_HOST`: an IPv6 address keeps its brackets, without zone id.
    Host,
    /// The IPv6 zone id (`%25eth0` gives `eth0`) (`CURLUPART_ZONEID`).
    ZoneId,
    /// The port number as decimal text (`CURLUPART_PORT`).
    Port,
    /// `CURLUPART_PATH`: libcurl reports `/` when the URL has no path.
    Path,
    /// The query, without `?` (`CURLUPART_QUERY`).
    Query,
    /// The fragment, without `#` (`CURLUPART_FRAGMENT`).
    Fragment,
}

impl Part {
    /// Every part, in the order of the fields of [`Parts`].
    pub const ALL: [Part; 11] = [
        Part::Url,
        Part::Scheme,
        Part::User,
        Part::Password,
        Part::Options,
        Part::Host,
        Part::ZoneId,
        Part::Port,
        Part::Path,
        Part::Query,
        Part::Fragment,
    ];

    fn raw(self) -> ffi::CURLUPart {
        match self {
            Part::Url => ffi::CURLUPART_URL,
            Part::Scheme => ffi::CURLUPART_SCHEME,
            Part::User => ffi::CURLUPART_USER,
            Part::Password => ffi::CURLUPART_PASSWORD,
            Part::Options => ffi::CURLUPART_OPTIONS,
            Part::Host => ffi::CURLUPART_HOST,
            Part::ZoneId => ffi::CURLUPART_ZONEID,
            Part::Port => ffi::CURLUPART_PORT,
            Part::Path => ffi::CURLUPART_PATH,
            Part::Query => ffi::CURLUPART_QUERY,
            Part::Fragment => ffi::CURLUPART_FRAGMENT,
        }
    }
}

/// Every part of a URL at once, as [`Url::parts`] reads them; `None` where
/// libcurl reports the part missing. Non-UTF-8 bytes are replaced with
/// U+FFFD, as in [`Url::get`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Parts {
    /// The whole URL as libcurl recomposes it (normalized).
    pub url: Option<String>,
    /// Scheme, lowercased by libcurl.
    pub scheme: Option<String>,
    /// User name.
    pub user: Option<String>,
    /// Password.
    pub password: Option<String>,
    /// Login options.
    pub options: Option<String>,
    /// Host (IPv6 in brackets, without zone id).
    pub host: Option<String>,
    /// IPv6 zone id.
    pub zoneid: Option<String>,
    /// Port, only when written in the URL.
    pub port: Option<String>,
    /// Path (`/` when the URL has none).
    pub path: Option<String>,
    /// Query without `?`.
    pub query: Option<String>,
    /// Fragment without `#`.
    pub fragment: Option<String>,
}

impl Parts {
    /// The field for `part`.
    pub fn get(&self, part: Part) -> Option<&str> {
        self.field(part).as_deref()
    }

    fn field(&self, part: Part) -> &Option<String> {
        match part {
            Part::Url => &self.url,
            Part::Scheme => &self.scheme,
            Part::User => &self.user,
            Part::Password => &self.password,
            Part::Options => &self.options,
            Part::Host => &self.host,
            Part::ZoneId => &self.zoneid,
            Part::Port => &self.port,
            Part::Path => &self.path,
            Part::Query => &self.query,
            Part::Fragment => &self.fragment,
        }
    }

    fn field_mut(&mut self, part: Part) -> &mut Option<String> {
        match part {
            Part::Url => &mut self.url,
            Part::Scheme => &mut self.scheme,
            Part::User => &mut self.user,
            Part::Password => &mut self.password,
            Part::Options => &mut self.options,
            Part::Host => &mut self.host,
            Part::ZoneId => &mut self.zoneid,
            Part::Port => &mut self.port,
            Part::Path => &mut self.path,
            Part::Query => &mut self.query,
            Part::Fragment => &mut self.fragment,
        }
    }
}

/// An owned libcurl URL handle (`CURLU *`).
///
/// Created with `curl_url`, duplicated with `curl_url_dup` ([`Clone`]),
/// freed with `curl_url_cleanup` on drop.
pub struct Url {
    /// Invariant: non-null, returned by `curl_url` or `curl_url_dup`, owned by
    /// this value alone (never freed elsewhere, never aliased by another
    /// `Url`), and not yet passed to `curl_url_cleanup`.
    raw: NonNull<ffi::CURLU>,
}

// SAFETY: a CURLU handle is a plain heap object owned by this value: libcurl
// keeps no pointer to it, it holds no thread-local or thread-affine state,
// and the URL API uses no global mutable state (libcurl's thread-safety doc
// only forbids using one handle from several threads at the same time).
// Moving the sole owner to another thread and using or freeing it there is
// therefore sound. `Url` is not `Sync`: curl documents no guarantee for
// concurrent calls on one handle, so `&Url` must not be shared across threads.
unsafe impl Send for Url {}

impl Url {
    /// A new, empty handle (`curl_url()`).
    ///
    /// # Errors
    /// `CURLUE_OUT_OF_MEMORY` when libcurl returns NULL.
    pub fn new() -> Result<Url, Error> {
        // SAFETY: curl_url takes no argument and has no precondition; it
        // returns a new handle that the caller owns, or NULL.
        let raw = unsafe { ffi::curl_url() };
        Url::from_raw(raw)
    }

    /// Takes ownership of a pointer returned by `curl_url` or `curl_url_dup`
    /// (NULL meaning out of memory).
    fn from_raw(raw: *mut ffi::CURLU) -> Result<Url, Error> {
        NonNull::new(raw)
            .map(|raw| Url { raw })
            .ok_or_else(|| Error::curl(ffi::CURLUE_OUT_OF_MEMORY))
    }

    /// Sets the URL (`curl_url_set(CURLUPART_URL)`).
    ///
    /// On a handle that already holds a full URL, a relative `text` is
    /// resolved as a reference against it (RFC 3986 section 5, as libcurl does
    /// it for redirects), and an absolute one replaces it.
    ///
    /// # Errors
    /// [`Error::Nul`] when `text` contains NUL; otherwise libcurl's code.
    pub fn set_url(&mut self, text: &str, flags: Flags) -> Result<(), Error> {
        self.set(Part::Url, Some(text), flags)
    }

    /// Sets one part (`curl_url_set`), or clears it with `None`.
    ///
    /// # Errors
    /// [`Error::Nul`] when `value` contains NUL; otherwise libcurl's code.
    pub fn set(&mut self, part: Part, value: Option<&str>, flags: Flags) -> Result<(), Error> {
        // A short value is made a C string on the stack: no allocation per
        // call (a fuzz campaign sets a URL on every input, and under
        // AddressSanitizer each allocation records two stack traces).
        let mut short = [0u8; SHORT];
        let on_heap;
        let value: Option<&CStr> = match value {
            None => None,
            Some(text) if text.len() < SHORT => Some(c_str_in(text, &mut short)?),
            Some(text) => {
                on_heap = c_string(text)?;
                Some(on_heap.as_c_str())
            }
        };
        let value_ptr = value.map_or(ptr::null(), CStr::as_ptr);
        // SAFETY: `self.raw` is a live handle owned by `self`, and `&mut self`
        // guarantees no other reference uses it during the call. `value_ptr`
        // is NULL (clears the part, documented) or points to a
        // NUL-terminated buffer (`short` or `on_heap`) that lives until the
        // end of this function; curl_url_set copies the string and keeps no
        // pointer to it.
        let code =
            unsafe { ffi::curl_url_set(self.raw.as_ptr(), part.raw(), value_ptr, flags.bits()) };
        check(code)
    }

    /// One part (`curl_url_get`) as text.
    ///
    /// `Ok(None)` when libcurl reports the part missing (`CURLUE_NO_SCHEME`,
    /// `_NO_USER`, `_NO_PASSWORD`, `_NO_OPTIONS`, `_NO_HOST`, `_NO_PORT`,
    /// `_NO_QUERY`, `_NO_FRAGMENT`, `_NO_ZONEID`; for [`Part::Url`] that means
    /// the handle holds no full URL).
    ///
    /// Bytes that are not UTF-8 are replaced with U+FFFD (lossy). libcurl can
    /// return such bytes even without [`Flags::URLDECODE`]: it percent-decodes
    /// the host, so `http://%ff/` has the host byte 0xFF. Use
    /// [`Url::get_bytes`] for the exact bytes.
    ///
    /// # Errors
    /// libcurl's other codes.
    pub fn get(&self, part: Part, flags: Flags) -> Result<Option<String>, Error> {
        Ok(self
            .get_bytes(part, flags)?
            .map(|bytes| match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            }))
    }

    /// One part (`curl_url_get`) as the bytes libcurl returns; `None` as in
    /// [`Url::get`].
    ///
    /// # Errors
    /// libcurl's codes other than the "missing part" ones.
    pub fn get_bytes(&self, part: Part, flags: Flags) -> Result<Option<Vec<u8>>, Error> {
        self.get_with(part, flags, <[u8]>::to_vec)
    }

    /// One part (`curl_url_get`), handed to `read` as the bytes libcurl
    /// returns, before libcurl's string is freed: no copy unless `read`
    /// makes one. `None` as in [`Url::get`].
    ///
    /// # Errors
    /// libcurl's codes other than the "missing part" ones.
    pub fn get_with<R>(
        &self,
        part: Part,
        flags: Flags,
        read: impl FnOnce(&[u8]) -> R,
    ) -> Result<Option<R>, Error> {
        let mut out: *mut c_char = ptr::null_mut();
        // SAFETY: `self.raw` is a live handle owned by `self`; curl_url_get
        // only reads it (const CURLU *), and `&self` with `Url: !Sync` rules
        // out a concurrent call on it. `&mut out` is a valid, writable
        // `char **` for the duration of the call.
        let code =
            unsafe { ffi::curl_url_get(self.raw.as_ptr(), part.raw(), &mut out, flags.bits()) };
        // Take ownership first so the string is freed on every path below.
        let out = CurlString::new(out);
        match code {
            // libcurl always sets `*part` on success; NULL is read as missing.
            ffi::CURLUE_OK => Ok(out.map(|s| read(s.bytes()))),
            ffi::CURLUE_NO_SCHEME
            | ffi::CURLUE_NO_USER
            | ffi::CURLUE_NO_PASSWORD
            | ffi::CURLUE_NO_OPTIONS
            | ffi::CURLUE_NO_HOST
            | ffi::CURLUE_NO_PORT
            | ffi::CURLUE_NO_QUERY
            | ffi::CURLUE_NO_FRAGMENT
            | ffi::CURLUE_NO_ZONEID => Ok(None),
            other => Err(Error::curl(other)),
        }
    }

    /// Every part, raw: `curl_url_get` without flags, so nothing decoded, the
    /// port only when written, an empty query or fragment (`?`, `#`) reported
    /// as `None` (see [`Url::parts_with`]). Text as in [`Url::get`] (lossy).
    ///
    /// # Errors
    /// The first error of a `curl_url_get` call.
    pub fn parts(&self) -> Result<Parts, Error> {
        self.parts_with(Flags::NONE)
    }

    /// Every part, each read with `curl_url_get(.., flags)`; e.g.
    /// [`Flags::GET_EMPTY`] reports an empty query or fragment as `Some("")`.
    ///
    /// # Errors
    /// The first error of a `curl_url_get` call.
    pub fn parts_with(&self, flags: Flags) -> Result<Parts, Error> {
        let mut parts = Parts::default();
        for part in Part::ALL {
            *parts.field_mut(part) = self.get(part, flags)?;
        }
        Ok(parts)
    }

    /// A deep copy (`curl_url_dup`).
    ///
    /// libcurl 8.22's `curl_url_dup` does not copy the "scheme was guessed"
    /// mark of [`Flags::GUESS_SCHEME`], so a copy reports a guessed scheme
    /// even when asked with [`Flags::NO_GUESS_SCHEME`].
    ///
    /// # Errors
    /// `CURLUE_OUT_OF_MEMORY` when libcurl returns NULL.
    pub fn try_clone(&self) -> Result<Url, Error> {
        // SAFETY: `self.raw` is a live handle owned by `self`; curl_url_dup
        // only reads it and returns a new, independent handle (or NULL) that
        // the caller owns.
        let raw = unsafe { ffi::curl_url_dup(self.raw.as_ptr()) };
        Url::from_raw(raw)
    }
}

impl Clone for Url {
    /// [`Url::try_clone`]; aborts the process when libcurl is out of memory,
    /// as the standard collections do on allocation failure.
    fn clone(&self) -> Url {
        match self.try_clone() {
            Ok(url) => url,
            Err(_) => std::process::abort(),
        }
    }
}

impl Drop for Url {
    fn drop(&mut self) {
        // SAFETY: `self.raw` was returned by curl_url/curl_url_dup, is owned
        // by `self` alone and has not been freed; drop runs once, so the
        // handle is freed exactly once and never used afterwards. Strings
        // returned by curl_url_get were copied and freed already.
        unsafe { ffi::curl_url_cleanup(self.raw.as_ptr()) }
    }
}

/// Shows the URL libcurl recomposes, `None` without a full URL.
impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Url")
            .field("url", &self.get(Part::Url, Flags::GET_EMPTY))
            .finish()
    }
}

/// A string allocated by libcurl, freed with `curl_free` on drop.
struct CurlString {
    /// Invariant: non-null, NUL-terminated, allocated by libcurl, owned by
    /// this value alone and not freed yet.
    raw: NonNull<c_char>,
}

impl CurlString {
    /// Takes ownership of `raw` (NULL gives `None`). It must be a string
    /// returned by libcurl to be freed with `curl_free`, or NULL.
    fn new(raw: *mut c_char) -> Option<CurlString> {
        NonNull::new(raw).map(|raw| CurlString { raw })
    }

    /// The bytes before the terminating NUL.
    fn bytes(&self) -> &[u8] {
        // SAFETY: `self.raw` is non-null and NUL-terminated (libcurl returns
        // C strings from curl_url_get), and stays allocated while `self`
        // lives: the returned borrow is tied to `&self`, and the string is
        // freed only when `self` drops.
        let text = unsafe { CStr::from_ptr(self.raw.as_ptr()) };
        text.to_bytes()
    }
}

impl Drop for CurlString {
    fn drop(&mut self) {
        // SAFETY: the string was allocated by libcurl (curl_url_get) and must
        // be released with curl_free; this value owns it alone and drop runs
        // once, so it is freed exactly once and not read afterwards.
        unsafe { curl_sys::curl_free(self.raw.as_ptr().cast()) }
    }
}

/// The longest value (with its NUL) [`Url::set`] makes a C string of on
/// the stack; longer ones are allocated.
const SHORT: usize = 256;

/// `text` as a C string in `buffer` (which must hold it and a NUL), or
/// [`Error::Nul`].
fn c_str_in<'b>(text: &str, buffer: &'b mut [u8]) -> Result<&'b CStr, Error> {
    let nul = |position| Error::Nul { position };
    if let Some(position) = text.bytes().position(|b| b == 0) {
        return Err(nul(position));
    }
    let with_nul = buffer.get_mut(..=text.len()).ok_or(nul(text.len()))?;
    let (body, end) = with_nul.split_at_mut(text.len());
    body.copy_from_slice(text.as_bytes());
    end.fill(0);
    CStr::from_bytes_with_nul(with_nul).map_err(|_| nul(text.len()))
}

/// `text` as a C string, or [`Error::Nul`].
fn c_string(text: &str) -> Result<CString, Error> {
    CString::new(text).map_err(|e| Error::Nul {
        position: e.nul_position(),
    })
}

fn check(code: ffi::CURLUcode) -> Result<(), Error> {
    if code == ffi::CURLUE_OK {
        Ok(())
    } else {
        Err(Error::curl(code))
    }
}
