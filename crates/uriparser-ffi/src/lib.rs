//! A small, safe wrapper over uriparser (<https://uriparser.github.io>), the
//! C library of RFC 3986 URI references that PHP 8.5's `Uri\Rfc3986\Uri` is
//! built on: parsing ([`UriRef::parse`], `uriParseSingleUriExA`), reference
//! resolution ([`resolve`], `uriAddBaseUriExA`, RFC 3986 section 5.2) and
//! recomposition ([`recompose`], `uriToStringA`, section 5.3).
//!
//! The library is the system's, found by pkg-config (Debian 12:
//! `liburiparser-dev`, uriparser 0.9.7; `scripts/setup-oracles.sh` installs
//! it). See README.md for why it is not built from source.
//!
//! Input is bytes, handed over with an explicit end pointer: a NUL byte or
//! non-UTF-8 is parsed (and refused by the grammar) rather than cutting the
//! string short.
//!
//! ```
//! use uriparser_ffi::{HostKind, UriRef, resolve};
//!
//! let r = UriRef::parse(b"http://[::1]:8080/a/b?q#f")?;
//! assert_eq!(r.host(), Some(&b"[::1]"[..]));
//! assert_eq!(r.host_kind(), Some(HostKind::Ipv6));
//! assert_eq!(&*r.path(), b"/a/b");
//! assert_eq!(resolve(b"http://a/b/c/d;p?q", b"../g")?, b"http://a/b/g");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! This crate and `curl-url` are the crates of uridiff with `unsafe` code;
//! every block states the invariant it relies on in a `SAFETY:` comment.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod ffi;

use std::borrow::Cow;
use std::ffi::{c_char, c_int};
use std::fmt;
use std::marker::PhantomData;

use smallvec::SmallVec;

/// The version of the uriparser this crate was built against (pkg-config's
/// `--modversion liburiparser`), e.g. `"0.9.7"`. uriparser before 0.9.9 has
/// no run-time version function, so this is the build's.
pub const VERSION: &str = env!("URIPARSER_VERSION");

/// This crate and the library, for a report: `"uriparser-ffi 0.1.0
/// (uriparser 0.9.7, system library)"`.
pub const LIBRARY: &str = concat!(
    "uriparser-ffi ",
    env!("CARGO_PKG_VERSION"),
    " (uriparser ",
    env!("URIPARSER_VERSION"),
    ", system library)"
);

/// What went wrong in one call of the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Error {
    /// `URI_ERROR_SYNTAX`: the text is no RFC 3986 URI-reference; `at` is
    /// the byte offset of the first offending byte (the input's length when
    /// the library did not say).
    Syntax {
        /// Byte offset of the first offending byte.
        at: usize,
    },
    /// `URI_ERROR_ADDBASE_REL_BASE`: the base of a resolution has no scheme
    /// (RFC 3986 section 5.1 asks for an absolute URI).
    BaseNotAbsolute,
    /// The text is longer than the library's `int` lengths can count.
    TooLong,
    /// A range the library reported lies outside the text it parsed (a
    /// broken invariant of the library, never expected).
    OutsideInput,
    /// Any other error code of the library (`URI_ERROR_MALLOC`, …).
    Code(i32),
}

impl Error {
    fn from_code(code: c_int) -> Error {
        match code {
            ffi::URI_ERROR_ADDBASE_REL_BASE => Error::BaseNotAbsolute,
            ffi::URI_ERROR_OUTPUT_TOO_LARGE => Error::TooLong,
            other => Error::Code(other),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Syntax { at } => write!(f, "syntax error at byte {at}"),
            Error::BaseNotAbsolute => f.write_str("the base URI has no scheme"),
            Error::TooLong => f.write_str("text too long for the library's int lengths"),
            Error::OutsideInput => {
                f.write_str("a range the library reported lies outside the parsed text")
            }
            Error::Code(code) => write!(f, "library error code {code}"),
        }
    }
}

impl std::error::Error for Error {}

/// Which input of [`resolve`] an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResolveError {
    /// The base did not parse.
    Base(Error),
    /// The reference did not parse.
    Reference(Error),
    /// `uriAddBaseUriExA` or the recomposition of its result failed.
    Resolution(Error),
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Base(e) => write!(f, "base: {e}"),
            ResolveError::Reference(e) => write!(f, "reference: {e}"),
            ResolveError::Resolution(e) => write!(f, "resolution: {e}"),
        }
    }
}

impl std::error::Error for ResolveError {}

/// The kind of host uriparser recognised (its `hostData`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// `IPv4address` (`hostData.ip4`).
    Ipv4,
    /// `IPv6address` inside an `IP-literal` (`hostData.ip6`).
    Ipv6,
    /// `IPvFuture` inside an `IP-literal` (`hostData.ipFuture`).
    IpFuture,
    /// `reg-name`, the empty one included (no `hostData` member set).
    RegName,
}

/// A byte range of the parsed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Span {
    start: usize,
    end: usize,
}

/// A parsed URI reference: uriparser's reading of each component, as byte
/// ranges of the input it borrows (nothing decoded, nothing normalised).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriRef<'a> {
    input: &'a [u8],
    scheme: Option<Span>,
    userinfo: Option<Span>,
    host_text: Option<Span>,
    host_kind: Option<HostKind>,
    port: Option<Span>,
    absolute_path: bool,
    /// Inline up to four (most paths have no more): one allocation fewer
    /// per parse, which a fuzz build with AddressSanitizer pays for with two
    /// stack traces (BENCHMARKS.md, "eleventh round").
    segments: SmallVec<[Span; 4]>,
    query: Option<Span>,
    fragment: Option<Span>,
}

impl<'a> UriRef<'a> {
    /// Parses `input` as an RFC 3986 URI-reference (`uriParseSingleUriExA`
    /// over the whole slice).
    ///
    /// # Errors
    /// [`Error::Syntax`] where the grammar refuses it; [`Error::TooLong`]
    /// past `i32::MAX` bytes; others as the library reports them.
    pub fn parse(input: &'a [u8]) -> Result<UriRef<'a>, Error> {
        Raw::parse(input)?.read(input)
    }

    fn slice(&self, span: Option<Span>) -> Option<&'a [u8]> {
        span.and_then(|s| self.input.get(s.start..s.end))
    }

    /// The scheme, without `:`.
    pub fn scheme(&self) -> Option<&'a [u8]> {
        self.slice(self.scheme)
    }

    /// The userinfo, without `@`.
    pub fn userinfo(&self) -> Option<&'a [u8]> {
        self.slice(self.userinfo)
    }

    /// The host as written, an IP literal with its brackets (RFC 3986
    /// section 3.2.2's `host`); `Some(b"")` for an empty host, `None` when
    /// there is no authority.
    pub fn host(&self) -> Option<&'a [u8]> {
        let span = self.host_text?;
        match self.host_kind {
            // `hostText` excludes the brackets of an IP-literal (Uri.h);
            // they stand right around it in the input (checked in `read`).
            Some(HostKind::Ipv6 | HostKind::IpFuture) => {
                self.input.get(span.start.checked_sub(1)?..span.end + 1)
            }
            _ => self.slice(Some(span)),
        }
    }

    /// The authority, without `//`: the input from after the `//` that
    /// starts it to the end of the port, or of the host when there is no
    /// port (uriparser keeps no range for the whole authority). `None` when
    /// there is no authority.
    pub fn authority(&self) -> Option<&'a [u8]> {
        self.host_kind?;
        let start = self.scheme.map_or(0, |s| s.end + 1) + 2;
        let slashes = self.input.get(start.checked_sub(2)?..start);
        if slashes != Some(&b"//"[..]) {
            return None;
        }
        let brackets = usize::from(matches!(
            self.host_kind,
            Some(HostKind::Ipv6 | HostKind::IpFuture)
        ));
        let end = match (self.port, self.host_text, self.userinfo) {
            (Some(port), _, _) => port.end,
            // An empty host may be a range of the library's own (see
            // `span_of`): then it ends right after the userinfo's `@`, or
            // the authority is empty.
            (None, Some(host), _) if host.end > host.start || host.start >= start => {
                host.end + brackets
            }
            (None, _, Some(userinfo)) => userinfo.end + 1,
            (None, _, None) => start,
        };
        self.input.get(start..end)
    }

    /// The library's `hostText`: the host without an IP literal's brackets.
    pub fn host_text(&self) -> Option<&'a [u8]> {
        self.slice(self.host_text)
    }

    /// The kind of host, `None` when there is no authority.
    pub fn host_kind(&self) -> Option<HostKind> {
        self.host_kind
    }

    /// The port, without `:`; `Some(b"")` for `h:`.
    pub fn port(&self) -> Option<&'a [u8]> {
        self.slice(self.port)
    }

    /// The library's `absolutePath` flag (`/a` against `a`; always false
    /// when there is a host, Uri.h).
    pub fn absolute_path(&self) -> bool {
        self.absolute_path
    }

    /// The path segments, in order (`a/` is `a` and an empty segment).
    pub fn segments(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.segments
            .iter()
            .filter_map(|s| self.input.get(s.start..s.end))
    }

    /// The path as `uriToStringA` writes it (RFC 3986 section 5.3): a `/`
    /// when `absolutePath` is set, or when there is a host and at least one
    /// segment, then the segments joined with `/`. Borrowed from the input
    /// where it stands there (always, for a parsed reference).
    pub fn path(&self) -> Cow<'a, [u8]> {
        let slash = self.absolute_path || (self.host_kind.is_some() && !self.segments.is_empty());
        // Where the path starts in the input: before its first segment, or
        // (an absolute path with no segment) at the `/` that ends the
        // authority or starts the reference.
        let start = match self.segments.first() {
            Some(first) => first.start.checked_sub(usize::from(slash)),
            None => self.path_start_without_segments(),
        };
        // Read in place first: joining the segments into a new buffer only
        // to find them in the input costs an allocation per parse.
        if let Some(path) = start.and_then(|start| self.written_at(start, slash)) {
            return Cow::Borrowed(path);
        }
        let mut text = Vec::new();
        if slash {
            text.push(b'/');
        }
        for (i, segment) in self.segments().enumerate() {
            if i > 0 {
                text.push(b'/');
            }
            text.extend_from_slice(segment);
        }
        match start.and_then(|s| self.input.get(s..s + text.len())) {
            Some(slice) if slice == text.as_slice() => Cow::Borrowed(slice),
            _ => Cow::Owned(text),
        }
    }

    /// The path as [`UriRef::path`] joins it, as the slice of the input
    /// from `start` that holds it (a `/` first where `slash`, then the
    /// segments, each after the one before and a `/`), if it stands there.
    fn written_at(&self, start: usize, slash: bool) -> Option<&'a [u8]> {
        let input = self.input;
        let mut at = start;
        if slash {
            (input.get(at) == Some(&b'/')).then_some(())?;
            at += 1;
        }
        for (i, span) in self.segments.iter().enumerate() {
            if i > 0 {
                (input.get(at) == Some(&b'/')).then_some(())?;
                at += 1;
            }
            (span.start == at && span.end >= at).then_some(())?;
            at = span.end;
        }
        input.get(start..at)
    }

    /// Where an empty or lone-`/` path starts: after the authority, else
    /// after the scheme's `:`, else at the start.
    fn path_start_without_segments(&self) -> Option<usize> {
        let after_host = self.host_text.map(|h| {
            h.end
                + usize::from(matches!(
                    self.host_kind,
                    Some(HostKind::Ipv6 | HostKind::IpFuture)
                ))
        });
        match (self.port, after_host, self.scheme) {
            (Some(port), _, _) => Some(port.end),
            (None, Some(end), _) => Some(end),
            (None, None, Some(scheme)) => Some(scheme.end + 1),
            (None, None, None) => Some(0),
        }
    }

    /// The query, without `?`.
    pub fn query(&self) -> Option<&'a [u8]> {
        self.slice(self.query)
    }

    /// The fragment, without `#`.
    pub fn fragment(&self) -> Option<&'a [u8]> {
        self.slice(self.fragment)
    }
}

/// Parses `input` and writes it back with `uriToStringA` (RFC 3986 section
/// 5.3). The library writes an IPv4 host from its four octets and an IPv6
/// host as eight groups of four lower-case hex digits, so the text is not
/// always the input.
///
/// # Errors
/// As [`UriRef::parse`], or the recomposition's error.
pub fn recompose(input: &[u8]) -> Result<Vec<u8>, Error> {
    Raw::parse(input)?.to_text()
}

/// Resolves `reference` against `base` with `uriAddBaseUriExA` in strict
/// mode (RFC 3986 section 5.2.2 as written) and recomposes the result with
/// `uriToStringA` (section 5.3).
///
/// # Errors
/// [`ResolveError::Base`] or [`ResolveError::Reference`] when one does not
/// parse; [`ResolveError::Resolution`] with [`Error::BaseNotAbsolute`] for a
/// base without a scheme, or the recomposition's error.
pub fn resolve(base: &[u8], reference: &[u8]) -> Result<Vec<u8>, ResolveError> {
    let base = Raw::parse(base).map_err(ResolveError::Base)?;
    let reference = Raw::parse(reference).map_err(ResolveError::Reference)?;
    let resolved = base.resolve(&reference).map_err(ResolveError::Resolution)?;
    resolved.to_text().map_err(ResolveError::Resolution)
}

/// A `UriUriA` the library filled, freed with `uriFreeUriMembersA` on drop.
/// Its text ranges point into text borrowed for `'a` (a parse's input, or
/// both inputs of a resolution), which therefore outlives it.
struct Raw<'a> {
    uri: ffi::UriUriA,
    text: PhantomData<&'a [u8]>,
}

impl<'a> Raw<'a> {
    fn parse(input: &'a [u8]) -> Result<Raw<'a>, Error> {
        // uriToStringA counts in `int`; refuse what it could not write back.
        if i32::try_from(input.len()).is_err() {
            return Err(Error::TooLong);
        }
        let range = input.as_ptr_range();
        let mut uri = ffi::UriUriA::empty();
        let mut error_pos: *const c_char = std::ptr::null();
        // SAFETY: `uri` is a valid, writable UriUriA (all members NULL, as
        // uriResetUriA leaves one); `[range.start, range.end)` is exactly the
        // initialised bytes of `input`, which the library only reads (an
        // empty slice gives two equal non-NULL pointers, and the parser reads
        // nothing at `afterLast`); `error_pos` is a writable pointer slot.
        let code = unsafe {
            ffi::uriParseSingleUriExA(
                &mut uri,
                range.start.cast(),
                range.end.cast(),
                &mut error_pos,
            )
        };
        match code {
            ffi::URI_SUCCESS => Ok(Raw {
                uri,
                text: PhantomData,
            }),
            // On failure the library has freed the members itself
            // (uriParseSingleUriExMmA), so `uri` is dropped as plain data.
            ffi::URI_ERROR_SYNTAX => Err(Error::Syntax {
                at: offset(input, error_pos).unwrap_or(input.len()),
            }),
            other => Err(Error::from_code(other)),
        }
    }

    /// Reads the components as ranges of `input` (the text this was parsed
    /// from).
    fn read(&self, input: &'a [u8]) -> Result<UriRef<'a>, Error> {
        let uri = &self.uri;
        let span = |r: ffi::UriTextRangeA| span_of(input, r);
        let host_text = span(uri.hostText)?;
        let host_kind = if !uri.hostData.ip4.is_null() {
            Some(HostKind::Ipv4)
        } else if !uri.hostData.ip6.is_null() {
            Some(HostKind::Ipv6)
        } else if !uri.hostData.ipFuture.first.is_null() {
            Some(HostKind::IpFuture)
        } else {
            host_text.map(|_| HostKind::RegName)
        };
        if let (Some(HostKind::Ipv6 | HostKind::IpFuture), Some(h)) = (host_kind, host_text) {
            // The brackets `host()` adds must be the input's.
            let open = h.start.checked_sub(1).and_then(|i| input.get(i));
            if open != Some(&b'[') || input.get(h.end) != Some(&b']') {
                return Err(Error::OutsideInput);
            }
        }
        let mut segments = SmallVec::new();
        let mut node = uri.pathHead;
        while !node.is_null() {
            // SAFETY: `node` is non-NULL and is either `pathHead` or the
            // `next` of a node of this URI's list, which the library
            // allocated and which lives until uriFreeUriMembersA runs in
            // `Drop` (after this shared borrow of `self` ends); nothing
            // writes to the list meanwhile.
            let segment = unsafe { &*node };
            segments.push(span(segment.text)?.ok_or(Error::OutsideInput)?);
            node = segment.next;
        }
        Ok(UriRef {
            input,
            scheme: span(uri.scheme)?,
            userinfo: span(uri.userInfo)?,
            host_text,
            host_kind,
            port: span(uri.portText)?,
            absolute_path: uri.absolutePath != 0,
            segments,
            query: span(uri.query)?,
            fragment: span(uri.fragment)?,
        })
    }

    /// `uriAddBaseUriExA(dest, reference, self, URI_RESOLVE_STRICTLY)`.
    fn resolve<'r>(&'r self, reference: &'r Raw<'_>) -> Result<Raw<'r>, Error> {
        let mut dest = ffi::UriUriA::empty();
        // SAFETY: `dest` is a valid, writable UriUriA; `reference.uri` and
        // `self.uri` are URIs the library parsed and has not freed (they are
        // freed only in `Drop`), which it only reads. The result's ranges
        // point into their texts, borrowed for at least `'r`, and the result
        // lives at most `'r`.
        let code = unsafe {
            ffi::uriAddBaseUriExA(
                &mut dest,
                &reference.uri,
                &self.uri,
                ffi::URI_RESOLVE_STRICTLY,
            )
        };
        if code != ffi::URI_SUCCESS {
            // uriAddBaseUriExMmA frees `dest`'s members itself on failure.
            return Err(Error::from_code(code));
        }
        Ok(Raw {
            uri: dest,
            text: PhantomData,
        })
    }

    /// `uriToStringA` into a buffer of `uriToStringCharsRequiredA` bytes
    /// plus the terminator.
    fn to_text(&self) -> Result<Vec<u8>, Error> {
        let mut required: c_int = 0;
        // SAFETY: `self.uri` is a live URI the library filled (see `Raw`),
        // whose ranges point into text that outlives `self`; `required` is
        // a writable int.
        let code = unsafe { ffi::uriToStringCharsRequiredA(&self.uri, &mut required) };
        if code != ffi::URI_SUCCESS {
            return Err(Error::from_code(code));
        }
        let len = usize::try_from(required).map_err(|_| Error::TooLong)?;
        let max = required.checked_add(1).ok_or(Error::TooLong)?;
        let mut buffer = vec![0_u8; len + 1];
        let mut written: c_int = 0;
        // SAFETY: `buffer` holds `max` = `required + 1` writable bytes, the
        // text and its terminator, and `uriToStringA` writes at most
        // `maxChars` bytes; `self.uri` is live as above; `written` is a
        // writable int.
        let code =
            unsafe { ffi::uriToStringA(buffer.as_mut_ptr().cast(), &self.uri, max, &mut written) };
        if code != ffi::URI_SUCCESS {
            return Err(Error::from_code(code));
        }
        buffer.truncate(len);
        Ok(buffer)
    }
}

impl Drop for Raw<'_> {
    fn drop(&mut self) {
        // SAFETY: `self.uri` was filled by a successful uriParseSingleUriExA
        // or uriAddBaseUriExA (a failed call never makes a `Raw`), and is
        // freed here once; the function frees only the members the library
        // allocated (segments, IP structures), never the borrowed text.
        unsafe { ffi::uriFreeUriMembersA(&mut self.uri) }
    }
}

/// The offset of `at` in `input`, when it points inside it or at its end.
/// Compares addresses as integers: nothing is dereferenced.
fn offset(input: &[u8], at: *const c_char) -> Option<usize> {
    let start = (at as usize).checked_sub(input.as_ptr() as usize)?;
    (start <= input.len()).then_some(start)
}

/// A library range as a [`Span`] of `input`: `None` for an absent one
/// (`first` NULL), an error for one outside `input`.
fn span_of(input: &[u8], range: ffi::UriTextRangeA) -> Result<Option<Span>, Error> {
    if range.first.is_null() {
        return Ok(None);
    }
    // The parser points an empty range (an empty segment, host or port) at
    // a static byte of its own (`uriSafeToPointToA`) rather than into the
    // text: its place is unknown, its content is empty.
    if range.first == range.afterLast && offset(input, range.first).is_none() {
        return Ok(Some(Span { start: 0, end: 0 }));
    }
    let start = offset(input, range.first).ok_or(Error::OutsideInput)?;
    let end = offset(input, range.afterLast).ok_or(Error::OutsideInput)?;
    if start > end {
        return Err(Error::OutsideInput);
    }
    Ok(Some(Span { start, end }))
}

#[cfg(test)]
mod tests;
