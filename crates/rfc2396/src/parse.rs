//! The strict RFC 2396 parser: one function per production of Appendix A.
//!
//! The parser walks the input once from left to right (the authority is
//! re-read a bounded number of times to choose between `server` and
//! `reg_name`), allocates nothing, has no recursion, and reports the first
//! offending byte. Every component is kept as a span of the input.

use std::fmt;
use std::ops::Range;

use crate::chars::{self, ALPHA, DIGIT, HEX, UNWISE, URIC_NO_SLASH, class};
use crate::error::{ErrorKind, ParseError, Rule};

/// A half-open byte range `start..end` of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Span {
    start: usize,
    end: usize,
}

impl Span {
    const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    const fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

/// Which alternative of `URI-reference` the input took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// `absoluteURI` with a `hier_part` (`scheme ":" ( net_path | abs_path )`).
    AbsoluteHierarchical,
    /// `absoluteURI` with an `opaque_part` (`scheme ":" uric_no_slash *uric`).
    AbsoluteOpaque,
    /// `relativeURI` starting with `net_path` (`"//" authority`).
    NetPath,
    /// `relativeURI` starting with `abs_path` (`"/" path_segments`).
    AbsPath,
    /// `relativeURI` starting with `rel_path` (`rel_segment [ abs_path ]`).
    RelPath,
    /// Neither: the empty string, or only a fragment (`#f`).
    Empty,
}

impl RefKind {
    /// Is this an `absoluteURI`?
    pub fn is_absolute(self) -> bool {
        matches!(
            self,
            RefKind::AbsoluteHierarchical | RefKind::AbsoluteOpaque
        )
    }

    /// Is this a `relativeURI`?
    pub fn is_relative(self) -> bool {
        matches!(self, RefKind::NetPath | RefKind::AbsPath | RefKind::RelPath)
    }
}

/// Which alternative of `authority = server | reg_name` matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AuthorityKind {
    /// `server = [ [ userinfo "@" ] hostport ]` (possibly empty).
    Server,
    /// `reg_name`: a naming authority that is not a server.
    RegName,
}

/// Which alternative of `host = hostname | IPv4address` matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// `hostname = *( domainlabel "." ) toplabel [ "." ]`
    Hostname,
    /// `IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit`
    Ipv4,
}

/// A component of a parsed reference, for [`UriRef::get`] and [`UriRef::span`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    /// `scheme`, without its `:`.
    Scheme,
    /// `authority`, without the leading `//`.
    Authority,
    /// `userinfo`, without its `@` (server authorities only).
    Userinfo,
    /// `host` (server authorities only).
    Host,
    /// `port`, without its `:` (server authorities only).
    Port,
    /// The path: `abs_path`, `rel_path` or `opaque_part`, possibly empty.
    Path,
    /// `query`, without its `?`.
    Query,
    /// `fragment`, without its `#`.
    Fragment,
}

impl Component {
    /// Every component, in the order they appear in a reference.
    pub const ALL: [Component; 8] = [
        Component::Scheme,
        Component::Authority,
        Component::Userinfo,
        Component::Host,
        Component::Port,
        Component::Path,
        Component::Query,
        Component::Fragment,
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Server {
    userinfo: Option<Span>,
    host: Option<(Span, HostKind)>,
    port: Option<Span>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum AuthorityShape {
    Server(Server),
    RegName,
}

/// A valid RFC 2396 `URI-reference`, borrowing its input.
///
/// Accessors return raw slices of the input: `None` when the component is
/// absent, `Some("")` when it is present but empty. Nothing is decoded, case
/// folded or normalised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UriRef<'a> {
    input: &'a str,
    kind: RefKind,
    scheme: Option<Span>,
    authority: Option<(Span, AuthorityShape)>,
    path: Span,
    query: Option<Span>,
    fragment: Option<Span>,
}

impl<'a> UriRef<'a> {
    fn slice(&self, span: Span) -> &'a str {
        // Spans are built by the parser from positions of ASCII delimiters,
        // so they always lie on char boundaries; `get` keeps this panic-free.
        self.input.get(span.range()).unwrap_or_default()
    }

    fn server(&self) -> Option<&Server> {
        match &self.authority {
            Some((_, AuthorityShape::Server(server))) => Some(server),
            _ => None,
        }
    }

    /// The whole input.
    pub fn as_str(&self) -> &'a str {
        self.input
    }

    /// Which alternative of `URI-reference` the input took.
    pub fn kind(&self) -> RefKind {
        self.kind
    }

    /// `scheme`, without the `:`.
    pub fn scheme(&self) -> Option<&'a str> {
        self.scheme.map(|s| self.slice(s))
    }

    /// `authority`, without the leading `//`; `Some("")` for `//` alone.
    pub fn authority(&self) -> Option<&'a str> {
        self.authority.map(|(s, _)| self.slice(s))
    }

    /// Whether the authority is a `server` or a `reg_name`.
    pub fn authority_kind(&self) -> Option<AuthorityKind> {
        self.authority.map(|(_, shape)| match shape {
            AuthorityShape::Server(_) => AuthorityKind::Server,
            AuthorityShape::RegName => AuthorityKind::RegName,
        })
    }

    /// `userinfo`, without the `@`; `Some("")` for `//@host`.
    pub fn userinfo(&self) -> Option<&'a str> {
        self.server()
            .and_then(|s| s.userinfo)
            .map(|s| self.slice(s))
    }

    /// `host`; `None` for a `reg_name` or an empty `server`.
    pub fn host(&self) -> Option<&'a str> {
        self.server()
            .and_then(|s| s.host)
            .map(|(s, _)| self.slice(s))
    }

    /// Whether the host is a `hostname` or an `IPv4address`.
    pub fn host_kind(&self) -> Option<HostKind> {
        self.server().and_then(|s| s.host).map(|(_, kind)| kind)
    }

    /// `port` as written (`port = *digit`): `Some("")` for `host:`, and
    /// never range-checked.
    pub fn port(&self) -> Option<&'a str> {
        self.server().and_then(|s| s.port).map(|s| self.slice(s))
    }

    /// The path (`abs_path`, `rel_path` or `opaque_part`); `""` when empty.
    pub fn path(&self) -> &'a str {
        self.slice(self.path)
    }

    /// `query`, without the `?`.
    pub fn query(&self) -> Option<&'a str> {
        self.query.map(|s| self.slice(s))
    }

    /// `fragment`, without the `#`.
    pub fn fragment(&self) -> Option<&'a str> {
        self.fragment.map(|s| self.slice(s))
    }

    /// Is the path an `opaque_part`?
    pub fn is_opaque(&self) -> bool {
        self.kind == RefKind::AbsoluteOpaque
    }

    /// The byte range of a component in the input, or `None` when absent.
    pub fn span(&self, component: Component) -> Option<Range<usize>> {
        let server = self.server();
        let span = match component {
            Component::Scheme => self.scheme,
            Component::Authority => self.authority.map(|(s, _)| s),
            Component::Userinfo => server.and_then(|s| s.userinfo),
            Component::Host => server.and_then(|s| s.host).map(|(s, _)| s),
            Component::Port => server.and_then(|s| s.port),
            Component::Path => Some(self.path),
            Component::Query => self.query,
            Component::Fragment => self.fragment,
        };
        span.map(Span::range)
    }

    /// A component's text, or `None` when absent.
    pub fn get(&self, component: Component) -> Option<&'a str> {
        self.span(component).and_then(|range| self.input.get(range))
    }
}

/// Recomposes the reference from its components, as Section 5.2 step 7 does;
/// for a parsed reference this is exactly the input.
impl fmt::Display for UriRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(scheme) = self.scheme() {
            f.write_str(scheme)?;
            f.write_str(":")?;
        }
        if let Some(authority) = self.authority() {
            f.write_str("//")?;
            f.write_str(authority)?;
        }
        f.write_str(self.path())?;
        if let Some(query) = self.query() {
            f.write_str("?")?;
            f.write_str(query)?;
        }
        if let Some(fragment) = self.fragment() {
            f.write_str("#")?;
            f.write_str(fragment)?;
        }
        Ok(())
    }
}

/// Parses `input` as an RFC 2396 `URI-reference` (Appendix A).
///
/// ```
/// let r = rfc2396::parse("ftp://@host.com/").unwrap();
/// assert_eq!(r.userinfo(), Some(""));
/// assert_eq!(r.host(), Some("host.com"));
/// assert!(rfc2396::parse("http://[::1]/").is_err());
/// ```
pub fn parse(input: &str) -> Result<UriRef<'_>, ParseError> {
    uri_reference(input, false)
}

/// Like [`parse`], but also accepts a relative reference made of a query
/// alone (`?y`), which Appendix A cannot derive but Appendix C resolves.
/// Used by [`crate::resolve`] only.
pub(crate) fn parse_allowing_query_only(input: &str) -> Result<UriRef<'_>, ParseError> {
    uri_reference(input, true)
}

/// The state the productions share: the input and its bytes.
struct Parser<'a> {
    input: &'a str,
    bytes: &'a [u8],
}

/// `URI-reference = [ absoluteURI | relativeURI ] [ "#" fragment ]`
///
/// The productions record each component in `uri` as they recognise it,
/// rather than handing it back: a component then goes straight to its place
/// in the result instead of being copied through every production above it.
fn uri_reference(input: &str, allow_query_only: bool) -> Result<UriRef<'_>, ParseError> {
    let p = Parser {
        input,
        bytes: input.as_bytes(),
    };
    let mut uri = UriRef {
        input,
        kind: RefKind::Empty,
        scheme: None,
        authority: None,
        path: Span::new(0, 0),
        query: None,
        fragment: None,
    };
    let end = match p.scheme() {
        Some(scheme) => p.absolute_uri(scheme, &mut uri)?,
        None => p.relative_uri(allow_query_only, &mut uri)?,
    };
    // Every body production stops only at '#' or the end of input.
    if p.at(end) == Some(b'#') {
        uri.fragment = Some(p.fragment(end + 1)?);
    }
    Ok(uri)
}

impl<'a> Parser<'a> {
    #[inline(always)]
    fn at(&self, i: usize) -> Option<u8> {
        self.bytes.get(i).copied()
    }

    /// The bytes from `i` on; empty past the end.
    #[inline(always)]
    fn from(&self, i: usize) -> &'a [u8] {
        self.bytes.get(i..).unwrap_or_default()
    }

    /// Scans `*rule` from `i`, where `class` is the [`chars::class`] bit of
    /// `rule` and `rule` includes `escaped`, checking each
    /// `escaped = "%" hex hex` on the way (Section 2.4.1). Returns the index
    /// of the first byte that is not in the rule.
    #[inline(always)]
    fn scan(&self, mut i: usize, class: u8, rule: Rule) -> Result<usize, ParseError> {
        loop {
            i = run_end(self.bytes, i, class);
            if self.at(i) != Some(b'%') {
                return Ok(i);
            }
            let hex = |j: usize| self.at(j).is_some_and(|h| HEX.contains(h));
            if !(hex(i + 1) && hex(i + 2)) {
                return Err(ParseError {
                    index: i,
                    kind: ErrorKind::InvalidEscape,
                    rule,
                });
            }
            i += 3;
        }
    }

    /// The error for a byte that no rule allows at `i`, classified by the
    /// excluded sets of Section 2.4.3 (and Section 2.1 for non-ASCII).
    #[cold]
    fn excluded(&self, i: usize, rule: Rule) -> ParseError {
        let b = self.at(i).unwrap_or(0);
        let kind = match b {
            b' ' => ErrorKind::Space,
            b'<' | b'>' | b'"' | b'#' => ErrorKind::Delims(b),
            b'%' => ErrorKind::InvalidEscape,
            _ if chars::is_control(b) => ErrorKind::Control(b),
            _ if UNWISE.contains(b) => ErrorKind::Unwise(b),
            0x80.. => ErrorKind::NonAscii(
                self.input
                    .get(i..)
                    .and_then(|rest| rest.chars().next())
                    .unwrap_or(char::REPLACEMENT_CHARACTER),
            ),
            _ => ErrorKind::Unexpected(b),
        };
        ParseError {
            index: i,
            kind,
            rule,
        }
    }

    /// `scheme = alpha *( alpha | digit | "+" | "-" | "." )`, recognised only
    /// when followed by `:`; otherwise the input is a `relativeURI`
    /// (Section 3.1, Section 5). Returns the scheme's span.
    #[inline(always)]
    fn scheme(&self) -> Option<Span> {
        // Most references in the wild start "https://" or "http://": one
        // 8-byte compare recognises those schemes without a loop whose exit
        // (after four or five bytes) would be mispredicted. The general scan
        // below gives the same span for them, and the "//" that follows
        // starts a net_path either way (Section 3).
        if let Some(head) = self.bytes.first_chunk::<8>() {
            const HTTP: u64 = u64::from_le_bytes(*b"http://\0");
            const HTTPS: u64 = u64::from_le_bytes(*b"https://");
            let head = u64::from_le_bytes(*head);
            // Which of the two a URL uses is as good as random, so the fifth
            // byte picks what to compare with by arithmetic, not a branch:
            // all eight bytes against "https://" if it is 's', else the
            // first seven (little-endian: the low 56 bits) against "http://".
            let s = u64::from((head >> 32) as u8 == b's');
            let mask = 0x00ff_ffff_ffff_ffff | (s.wrapping_neg() << 56);
            let want = HTTP.wrapping_add(s.wrapping_mul(HTTPS.wrapping_sub(HTTP)));
            if head & mask == want {
                return Some(Span::new(0, 4 + s as usize));
            }
        }
        if !ALPHA.contains(*self.bytes.first()?) {
            return None;
        }
        // The first byte, a letter, is in the class of the rest too.
        let end = self
            .bytes
            .iter()
            .position(|&b| chars::classes(b) & class::SCHEME == 0)?;
        (self.at(end) == Some(b':')).then_some(Span::new(0, end))
    }

    /// `absoluteURI = scheme ":" ( hier_part | opaque_part )`; returns
    /// where it ends.
    #[inline(always)]
    fn absolute_uri(&self, scheme: Span, uri: &mut UriRef<'a>) -> Result<usize, ParseError> {
        uri.scheme = Some(scheme);
        let i = scheme.end + 1;
        if self.at(i) == Some(b'/') {
            // hier_part = ( net_path | abs_path ) [ "?" query ]
            uri.kind = RefKind::AbsoluteHierarchical;
            uri.path = if self.at(i + 1) == Some(b'/') {
                self.net_path(i, uri)?
            } else {
                self.abs_path(i)?
            };
            self.optional_query(uri.path.end, uri)
        } else {
            uri.kind = RefKind::AbsoluteOpaque;
            uri.path = self.opaque_part(i)?;
            Ok(uri.path.end)
        }
    }

    /// `opaque_part = uric_no_slash *uric`
    ///
    /// A `?` here belongs to the opaque part: the grammar gives it no query.
    #[inline(always)]
    fn opaque_part(&self, i: usize) -> Result<Span, ParseError> {
        match self.at(i) {
            None | Some(b'#') => {
                return Err(ParseError {
                    index: i,
                    kind: ErrorKind::EmptyOpaquePart,
                    rule: Rule::OpaquePart,
                });
            }
            Some(b) if !URIC_NO_SLASH.contains(b) => return Err(self.excluded(i, Rule::OpaquePart)),
            Some(_) => {}
        }
        let end = self.scan(i, class::URIC, Rule::OpaquePart)?;
        match self.at(end) {
            None | Some(b'#') => Ok(Span::new(i, end)),
            Some(_) => Err(self.excluded(end, Rule::OpaquePart)),
        }
    }

    /// `relativeURI = ( net_path | abs_path | rel_path ) [ "?" query ]`, or
    /// nothing at all (the empty reference, or a fragment alone); returns
    /// where it ends.
    #[inline(always)]
    fn relative_uri(
        &self,
        allow_query_only: bool,
        uri: &mut UriRef<'a>,
    ) -> Result<usize, ParseError> {
        (uri.kind, uri.path) = match (self.at(0), self.at(1)) {
            (Some(b'/'), Some(b'/')) => (RefKind::NetPath, self.net_path(0, uri)?),
            (Some(b'/'), _) => (RefKind::AbsPath, self.abs_path(0)?),
            // `uri` starts out as this empty reference.
            (None | Some(b'#'), _) => return Ok(0),
            (Some(b'?'), _) if allow_query_only => (RefKind::RelPath, Span::new(0, 0)),
            (Some(b'?'), _) => {
                return Err(ParseError {
                    index: 0,
                    kind: ErrorKind::MissingRelSegment,
                    rule: Rule::RelSegment,
                });
            }
            (Some(_), _) => (RefKind::RelPath, self.rel_path()?),
        };
        self.optional_query(uri.path.end, uri)
    }

    /// `rel_path = rel_segment [ abs_path ]`
    #[inline(always)]
    fn rel_path(&self) -> Result<Span, ParseError> {
        let end = self.rel_segment()?;
        if self.at(end) == Some(b'/') {
            let abs = self.abs_path(end)?;
            Ok(Span::new(0, abs.end))
        } else {
            Ok(Span::new(0, end))
        }
    }

    /// `rel_segment = 1*( unreserved | escaped | ";" | "@" | "&" | "=" | "+" | "$" | "," )`
    #[inline(always)]
    fn rel_segment(&self) -> Result<usize, ParseError> {
        let end = self.scan(0, class::REL_SEGMENT, Rule::RelSegment)?;
        match self.at(end) {
            None | Some(b'/' | b'?' | b'#') if end > 0 => Ok(end),
            Some(b':') => Err(ParseError {
                index: end,
                kind: ErrorKind::ColonInRelSegment,
                rule: Rule::RelSegment,
            }),
            _ => Err(self.excluded(end, Rule::RelSegment)),
        }
    }

    /// `net_path = "//" authority [ abs_path ]`, starting at the `//`.
    /// Records the authority in `uri` and returns the path.
    #[inline(always)]
    fn net_path(&self, i: usize, uri: &mut UriRef<'a>) -> Result<Span, ParseError> {
        let end = self.authority(i + 2, uri)?;
        if self.at(end) == Some(b'/') {
            self.abs_path(end)
        } else {
            Ok(Span::new(end, end))
        }
    }

    /// `authority = server | reg_name`, from `start` to the next `/`, `?`,
    /// `#` or the end (Section 4.3: the authority component is greedy).
    /// Records it in `uri` and returns where it ends.
    #[inline(always)]
    fn authority(&self, start: usize, uri: &mut UriRef<'a>) -> Result<usize, ParseError> {
        if let Some(end) = self.hostport_only(start, uri) {
            return Ok(end);
        }
        let (end, shape) = self.any_authority(start)?;
        uri.authority = Some((Span::new(start, end), shape));
        Ok(end)
    }

    /// `authority = server | reg_name` in general: finds where it ends,
    /// then which alternative it is, and returns both.
    #[inline(never)]
    fn any_authority(&self, start: usize) -> Result<(usize, AuthorityShape), ParseError> {
        let end = self.authority_end(start)?;
        let shape = match self.server(start, end) {
            Some(server) => AuthorityShape::Server(server),
            // Every byte is already a reg_name byte, and a reg_name is
            // non-empty; an empty authority is always an (empty) server.
            None => AuthorityShape::RegName,
        };
        Ok((end, shape))
    }

    /// The common case of `authority`, in one pass: `host [ ":" port ]`
    /// with a `hostname` or `IPv4address` host, so no `userinfo`, no
    /// `escaped`, and a `server`. `None` for anything else (including every
    /// error); then [`Self::authority_end`] and [`Self::server`] decide.
    ///
    /// Records the authority in `uri` and returns where it ends.
    #[inline(always)]
    fn hostport_only(&self, start: usize, uri: &mut UriRef<'a>) -> Option<usize> {
        let (host, kind) = self.host(start)?;
        let host_end = host.end;
        let (end, port) = match self.at(host_end) {
            Some(b':') => {
                let port_start = host_end + 1;
                let port_end = port_start
                    + self
                        .from(port_start)
                        .iter()
                        .position(|&b| !DIGIT.contains(b))
                        .unwrap_or(self.bytes.len() - port_start);
                (port_end, Some(Span::new(port_start, port_end)))
            }
            _ => (host_end, None),
        };
        if !matches!(self.at(end), None | Some(b'/' | b'?' | b'#')) {
            return None;
        }
        let server = Server {
            userinfo: None,
            host: Some((host, kind)),
            port,
        };
        uri.authority = Some((Span::new(start, end), AuthorityShape::Server(server)));
        Some(end)
    }

    /// `host = hostname | IPv4address` at `start`, running to the first byte
    /// that is neither alphanum, `-` nor `.`. `None` when those bytes are
    /// neither, or are 64 or more: then [`Self::any_authority`] decides.
    ///
    /// `hostname = *( domainlabel "." ) toplabel [ "." ]`, with
    /// `domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum` and
    /// `toplabel = alpha | alpha *( alphanum | "-" ) alphanum`.
    #[inline(always)]
    fn host(&self, start: usize) -> Option<(Span, HostKind)> {
        // One pass, eight bytes at a time, that finds where the host ends
        // and notes where the dots and hyphens are in bit masks (bit k for
        // byte `start + k`). The shape of the labels is then checked on the
        // masks, rather than with a branch per byte or per label that real
        // hosts would mispredict. The bytes are classified by arithmetic
        // (`HostMarks`) rather than by table: fewer instructions than eight
        // lookups, and the end of the host, where the rest of the reference
        // is parsed from, is known sooner.
        let mut dots = 0u64;
        let mut hyphens = 0u64;
        let mut base = 0;
        let len = loop {
            let marks = HostMarks::of(word(self.bytes, start + base));
            dots |= u64::from(gather(marks.dots)) << base;
            hyphens |= u64::from(gather(marks.hyphens)) << base;
            let run = first_unmarked(marks.host);
            if run < 8 {
                break base + run;
            }
            // The next eight bytes start where these end whatever they
            // held, so loading them need not wait for the arithmetic.
            base += 8;
            // The masks have a bit per byte of the host.
            if base == 64 {
                return None;
            }
        };
        // No host here (an empty server, userinfo, a reg_name or an error):
        // the general path decides.
        if len == 0 {
            return None;
        }
        let end = start + len;
        // Drop what follows the host in the last eight bytes; len < 64.
        let in_host = (1u64 << len) - 1;
        dots &= in_host;
        hyphens &= in_host;
        let last = 1u64 << (len - 1);
        // Every label is a domainlabel: none starts with "." (then it is
        // empty) or "-", at the start or after a "."; none ends with "-",
        // before a "." or at the end.
        let bad = ((dots | hyphens) & 1)
            | ((dots << 1) & (dots | hyphens))
            | ((hyphens << 1) & dots)
            | (hyphens & last);
        if bad != 0 {
            return None;
        }
        // The toplabel follows the last "." but an optional trailing one.
        let inner_dots = dots & !last;
        let top = start + (u64::BITS - inner_dots.leading_zeros()) as usize;
        let host = Span::new(start, end);
        let kind = match self.at(top) {
            Some(b) if ALPHA.contains(b) => HostKind::Hostname,
            // A toplabel cannot start with a digit, but an IPv4address can,
            // and IPv4 hosts are rare enough to check apart.
            _ => host_kind(self.bytes.get(host.range())?)?,
        };
        Some((host, kind))
    }

    /// Finds where the authority ends, checking that every byte before it is
    /// a `reg_name` byte: `server` uses only `reg_name` bytes, so a byte
    /// outside `reg_name` fails both alternatives of `authority`.
    fn authority_end(&self, start: usize) -> Result<usize, ParseError> {
        let end = self.scan(start, class::REG_NAME, Rule::Authority)?;
        match self.at(end) {
            None | Some(b'/' | b'?' | b'#') => Ok(end),
            Some(_) => Err(self.excluded(end, Rule::Authority)),
        }
    }

    /// `server = [ [ userinfo "@" ] hostport ]` over `start..end`, a range of
    /// `reg_name` bytes. `None` when the range is not a server (then it is a
    /// `reg_name`, Section 3.2).
    fn server(&self, start: usize, end: usize) -> Option<Server> {
        if start == end {
            return Some(EMPTY_SERVER);
        }
        let region = self.bytes.get(start..end)?;
        // `userinfo` excludes "@", so a server has at most one; and since
        // userinfo = reg_name bytes minus "@", the part before it is always
        // a valid userinfo.
        let mut ats = region.iter().enumerate().filter(|&(_, &b)| b == b'@');
        let userinfo = match (ats.next(), ats.next()) {
            (None, _) => None,
            (Some((at, _)), None) => Some(Span::new(start, start + at)),
            (Some(_), Some(_)) => return None,
        };
        let host_start = userinfo.map_or(start, |u| u.end + 1);
        let (host, port) = self.hostport(host_start, end)?;
        Some(Server {
            userinfo,
            host: Some(host),
            port,
        })
    }

    /// `hostport = host [ ":" port ]`, `port = *digit`.
    fn hostport(&self, start: usize, end: usize) -> Option<((Span, HostKind), Option<Span>)> {
        let region = self.bytes.get(start..end)?;
        let (host_end, port) = match region.iter().position(|&b| b == b':') {
            Some(colon) => {
                let port = Span::new(start + colon + 1, end);
                let digits = self.bytes.get(port.range())?;
                if !digits.iter().all(|&b| DIGIT.contains(b)) {
                    return None;
                }
                (start + colon, Some(port))
            }
            None => (end, None),
        };
        let host = self.bytes.get(start..host_end)?;
        let kind = host_kind(host)?;
        Some(((Span::new(start, host_end), kind), port))
    }

    /// `abs_path = "/" path_segments`, starting at the `/`.
    ///
    /// `path_segments = segment *( "/" segment )`, `segment = *pchar *( ";" param )`
    /// and `param = *pchar` together allow any run of pchar, `;` and `/`.
    #[inline(always)]
    fn abs_path(&self, i: usize) -> Result<Span, ParseError> {
        let end = self.scan(i, class::PATH_SEGMENTS, Rule::AbsPath)?;
        match self.at(end) {
            None | Some(b'?' | b'#') => Ok(Span::new(i, end)),
            Some(_) => Err(self.excluded(end, Rule::AbsPath)),
        }
    }

    /// `[ "?" query ]` at `i`: records the query in `uri` and returns where
    /// the body ends.
    #[inline(always)]
    fn optional_query(&self, i: usize, uri: &mut UriRef<'a>) -> Result<usize, ParseError> {
        if self.at(i) != Some(b'?') {
            return Ok(i);
        }
        let end = self.scan(i + 1, class::URIC, Rule::Query)?;
        match self.at(end) {
            None | Some(b'#') => {
                uri.query = Some(Span::new(i + 1, end));
                Ok(end)
            }
            Some(_) => Err(self.excluded(end, Rule::Query)),
        }
    }

    /// `fragment = *uric`, starting after the `#`.
    #[inline(always)]
    fn fragment(&self, i: usize) -> Result<Span, ParseError> {
        let end = self.scan(i, class::URIC, Rule::Fragment)?;
        match self.at(end) {
            None => Ok(Span::new(i, end)),
            // A second '#' is a `delims` character (Section 2.4.3).
            Some(_) => Err(self.excluded(end, Rule::Fragment)),
        }
    }
}

/// `server` with nothing in it: `//` followed by the path, or nothing.
const EMPTY_SERVER: Server = Server {
    userinfo: None,
    host: None,
    port: None,
};

/// Where the run of bytes in `class`, a [`chars::class`] bit, that starts
/// at `i` ends.
///
/// Scanning components is most of the work of parsing, so this looks at
/// eight bytes per branch, and finds where a run ends within eight bytes
/// without a loop, whose exit would be a mispredicted branch on almost every
/// call.
#[inline(always)]
fn run_end(bytes: &[u8], mut i: usize, class: u8) -> usize {
    loop {
        match bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            // The AND of eight lookups keeps the bit only if all eight have
            // it: the cheapest test of a chunk inside the run.
            Some(chunk) if chunk.iter().fold(class, |all, &b| all & chars::classes(b)) != 0 => {
                i += 8;
            }
            _ => return i + plane(window(bytes, i), class).trailing_ones() as usize,
        }
    }
}

/// The [`chars::class`] bits of the eight bytes from `i`, byte `k` in bits
/// `8k..8k + 8`. Bytes past the end of the input are in no class.
///
/// Mapping [`word`]'s bytes through the table would share its end-of-input
/// handling, and runs fewer instructions, but measured 5-8 % slower on the
/// real-URL set (criterion, 2026-11-23): the fold lets each lookup start as
/// soon as its byte is loaded.
#[inline(always)]
fn window(bytes: &[u8], i: usize) -> u64 {
    let pack = |chunk: &[u8]| {
        chunk
            .iter()
            .rev()
            .fold(0, |set, &b| set << 8 | u64::from(chars::classes(b)))
    };
    if let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        return pack(chunk);
    }
    // Fewer than eight bytes are left. The last eight bytes of the input end
    // with them: shift out those before `i`.
    let left = bytes.len().saturating_sub(i);
    match bytes.last_chunk::<8>() {
        Some(last) => pack(last).checked_shr(8 * (8 - left) as u32).unwrap_or(0),
        None => pack(bytes.get(i..).unwrap_or_default()),
    }
}

/// Bit `k` is set iff byte `k` of `window` (from [`window`]) is in `class`,
/// a single [`chars::class`] bit.
#[inline(always)]
fn plane(window: u64, class: u8) -> u8 {
    // Move the class bit of each byte to the bottom of the byte, then
    // gather the eight bits into the top byte with one multiplication: byte
    // k's bit is multiplied into bit 56 + k, and no two products overlap.
    let bits = (window >> class.trailing_zeros()) & 0x0101_0101_0101_0101;
    (bits.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The eight bytes from `i` as a little-endian word, byte `k` in bits
/// `8k..8k + 8`. Bytes past the end of the input read as 0.
#[inline(always)]
fn word(bytes: &[u8], i: usize) -> u64 {
    if let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        return u64::from_le_bytes(*chunk);
    }
    // Fewer than eight bytes are left: shift them down from the last eight.
    let left = bytes.len().saturating_sub(i);
    match bytes.last_chunk::<8>() {
        Some(last) => u64::from_le_bytes(*last)
            .checked_shr(8 * (8 - left) as u32)
            .unwrap_or(0),
        None => bytes
            .get(i..)
            .unwrap_or_default()
            .iter()
            .rev()
            .fold(0, |set, &b| set << 8 | u64::from(b)),
    }
}

/// Each byte's top bit, the mark of the [`HostMarks`] masks.
const TOP_BITS: u64 = 0x8080_8080_8080_8080;
/// A one in each byte.
const ONES: u64 = 0x0101_0101_0101_0101;

/// Which of the eight bytes of a [`word`] may be in a `host`, and which
/// are its label separators, each a mask with bit 7 of byte `k` set for
/// byte `k` and every other bit clear.
///
/// Computed on the bytes themselves, eight at a time, with no table lookup:
/// the host bytes are a few ranges of US-ASCII.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HostMarks {
    /// `alphanum | "-" | "."`: every byte of a `hostname` or `IPv4address`.
    host: u64,
    /// `"."`, which separates host labels (among the host bytes).
    dots: u64,
    /// `"-"`, which may not start or end a host label (among the host bytes).
    hyphens: u64,
}

impl HostMarks {
    #[inline(always)]
    fn of(word: u64) -> Self {
        // Bytes from 0x80 up are in no host; the rest are compared on their
        // low seven bits. Adding 0x80 - c to such a byte sets its top bit
        // iff it is at least c, and cannot carry into the next byte.
        let ascii = !word & TOP_BITS;
        let low = word & !TOP_BITS;
        let at_least = |bytes: u64, c: u8| (bytes + u64::from(0x80 - c) * ONES) & TOP_BITS;
        // Setting bit 5 folds 'A'..='Z' onto 'a'..='z', and moves nothing
        // else into that range.
        let folded = low | (0x20 * ONES);
        let letters = at_least(folded, b'a') & !at_least(folded, b'z' + 1);
        // '-', '.', '/' and the digits are the range 0x2d..=0x39.
        let digits_and_marks = at_least(low, b'-') & !at_least(low, b'9' + 1);
        let host = (letters | (digits_and_marks & !equal_bytes(word, b'/'))) & ascii;
        // The host bytes below '0' are '-' (0x2d) and '.' (0x2e), which
        // bit 0 tells apart; shifting by seven moves it to bit 7.
        let marks = host & !at_least(low, b'0');
        let hyphens = marks & (word << 7);
        HostMarks {
            host,
            dots: marks & !hyphens,
            hyphens,
        }
    }
}

/// Bit 7 of byte `k` of the result is set iff byte `k` of `word` is `b`;
/// every other bit is clear.
#[inline(always)]
fn equal_bytes(word: u64, b: u8) -> u64 {
    const LOW7: u64 = !TOP_BITS;
    // A byte of `diff` is zero exactly where the bytes are equal. Adding
    // 0x7f to its low seven bits carries into bit 7 iff they are not all
    // zero, and never into the next byte; or-ing in `diff` itself adds its
    // own bit 7. What is left clear marks a zero byte.
    let diff = word ^ (u64::from(b) * ONES);
    !(((diff & LOW7) + LOW7) | diff | LOW7)
}

/// Bit `k` is set iff bit 7 of byte `k` of `marks` is.
#[inline(always)]
fn gather(marks: u64) -> u8 {
    // The same multiplication as in `plane`, after moving bit 7 of each
    // byte to bit 0.
    ((marks >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// How many bytes of `marks` come before the first one without its mark;
/// 8 when all eight have it.
#[inline(always)]
fn first_unmarked(marks: u64) -> usize {
    // With all eight marked nothing is left, and trailing_zeros is 64.
    ((!marks & TOP_BITS).trailing_zeros() / 8) as usize
}

/// `host = hostname | IPv4address` over any bytes; the two never overlap,
/// since a `toplabel` starts with a letter and an `IPv4address` has none.
///
/// `hostname = *( domainlabel "." ) toplabel [ "." ]`, with
/// `domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum` and
/// `toplabel = alpha | alpha *( alphanum | "-" ) alphanum`.
/// `IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit`, with no
/// range check: the grammar has none (`999.1.1.1` is an IPv4address).
pub(crate) fn host_kind(host: &[u8]) -> Option<HostKind> {
    if !host.iter().all(|&b| chars::classes(b) & class::HOST != 0) {
        return None;
    }
    let labels = host.strip_suffix(b".").unwrap_or(host);
    let mut count = 0;
    let mut last: &[u8] = &[];
    for label in labels.split(|&b| b == b'.') {
        // A label holds only alphanum and "-", so it is a domainlabel iff
        // it is non-empty and neither starts nor ends with "-". Digit groups
        // of an IPv4address pass this too.
        match label {
            [first, .., end] if *first != b'-' && *end != b'-' => {}
            [only] if *only != b'-' => {}
            _ => return None,
        }
        count += 1;
        last = label;
    }
    match last.first() {
        // The last label is a toplabel: a hostname.
        Some(&b) if ALPHA.contains(b) => Some(HostKind::Hostname),
        // Four digit groups with no trailing ".": an IPv4address.
        Some(&b)
            if DIGIT.contains(b)
                && count == 4
                && labels.len() == host.len()
                && labels.iter().all(|&b| b == b'.' || DIGIT.contains(b)) =>
        {
            Some(HostKind::Ipv4)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostname_rules() {
        for ok in [
            "a",
            "a.b",
            "a-b.c",
            "x1.com",
            "1x.com",
            "a.b.",
            "EXAMPLE.COM",
        ] {
            assert_eq!(host_kind(ok.as_bytes()), Some(HostKind::Hostname), "{ok}");
        }
        for bad in [
            "", ".", "a..b", "-a.com", "a-.com", "a.1b", "a.b..", "1", "a_b", ".a",
        ] {
            assert_ne!(host_kind(bad.as_bytes()), Some(HostKind::Hostname), "{bad}");
        }
    }

    /// `equal_bytes` and `gather` against a byte-by-byte comparison, for
    /// every byte value in every position, next to every other value.
    #[test]
    fn equal_bytes_marks_exactly_the_equal_bytes() {
        for b in [b'.', b'-', 0, 0x7f, 0x80, 0xff] {
            for v in 0u8..=0xff {
                for k in 0..8 {
                    for fill in [0u8, b, v, b ^ 0x80, b ^ 1] {
                        let mut bytes = [fill; 8];
                        bytes[k] = v;
                        let expected = bytes
                            .iter()
                            .enumerate()
                            .fold(0u8, |m, (j, &x)| m | (u8::from(x == b) << j));
                        let marks = equal_bytes(u64::from_le_bytes(bytes), b);
                        assert_eq!(marks & !0x8080_8080_8080_8080, 0);
                        assert_eq!(gather(marks), expected, "{b:#x} in {bytes:x?}");
                    }
                }
            }
        }
    }

    /// `HostMarks` against the class table, for every byte value in every
    /// position, between bytes of every kind.
    #[test]
    fn host_marks_match_the_host_class() {
        for v in 0u8..=0xff {
            for k in 0..8 {
                for fill in [b'a', b'.', b'-', b'0', b'/', 0, 0x7f, 0x80, 0xff, v] {
                    let mut bytes = [fill; 8];
                    bytes[k] = v;
                    let marks = HostMarks::of(u64::from_le_bytes(bytes));
                    let mark = |f: &dyn Fn(u8) -> bool| {
                        bytes
                            .iter()
                            .enumerate()
                            .fold(0u64, |m, (j, &x)| m | (u64::from(f(x)) << (8 * j + 7)))
                    };
                    let host = |x: u8| chars::classes(x) & class::HOST != 0;
                    assert_eq!(marks.host, mark(&host), "{bytes:x?}");
                    assert_eq!(marks.dots, mark(&|x| x == b'.'), "{bytes:x?}");
                    assert_eq!(marks.hyphens, mark(&|x| x == b'-'), "{bytes:x?}");
                    let first = bytes.iter().position(|&x| !host(x)).unwrap_or(8);
                    assert_eq!(first_unmarked(marks.host), first, "{bytes:x?}");
                }
            }
        }
    }

    /// The "http://" and "https://" shortcut of `scheme` agrees with the
    /// rule itself on inputs that are, or nearly are, those prefixes.
    #[test]
    fn scheme_shortcut_agrees_with_the_rule() {
        let rule = |input: &str| {
            let bytes = input.as_bytes();
            let end = bytes.iter().position(|&b| !chars::SCHEME.contains(b))?;
            (bytes.first().is_some_and(|&b| ALPHA.contains(b)) && bytes.get(end) == Some(&b':'))
                .then_some(Span::new(0, end))
        };
        for base in ["https://", "http://x", "http://", "https:/", "ftp://ab"] {
            for k in 0..base.len() {
                for b in [b's', b':', b'/', b'x', b'S', b'H', b'\0', b'%'] {
                    let mut bytes = base.as_bytes().to_vec();
                    bytes[k] = b;
                    for tail in ["", "a", "host/path"] {
                        let input = format!("{}{tail}", String::from_utf8_lossy(&bytes));
                        let p = Parser {
                            input: &input,
                            bytes: input.as_bytes(),
                        };
                        assert_eq!(p.scheme(), rule(&input), "{input:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn word_reads_zeros_past_the_end() {
        let input = b"abcdefghijk";
        for len in 0..=input.len() {
            let bytes = &input[..len];
            for i in 0..=len + 9 {
                let mut expected = [0u8; 8];
                for (k, e) in expected.iter_mut().enumerate() {
                    *e = bytes.get(i + k).copied().unwrap_or(0);
                }
                assert_eq!(word(bytes, i), u64::from_le_bytes(expected), "{len} {i}");
            }
        }
    }

    #[test]
    fn ipv4address_rules() {
        for ok in ["1.2.3.4", "999.1.1.1", "0000.0.0.00"] {
            assert_eq!(host_kind(ok.as_bytes()), Some(HostKind::Ipv4), "{ok}");
        }
        for bad in ["1.2.3", "1.2.3.4.5", "1.2.3.4.", "1..3.4", "a.2.3.4", ""] {
            assert_ne!(host_kind(bad.as_bytes()), Some(HostKind::Ipv4), "{bad}");
        }
    }
}
