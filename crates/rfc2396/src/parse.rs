//! The strict RFC 2396 parser: one function per production of Appendix A.
//!
//! The parser walks the input once from left to right (the authority is
//! re-read a bounded number of times to choose between `server` and
//! `reg_name`), allocates nothing, has no recursion, and reports the first
//! offending byte. Every component is kept as a span of the input.

use std::fmt;
use std::ops::Range;

use crate::chars::{self, ALPHA, DIGIT, HEX, SCHEME, UNWISE, URIC_NO_SLASH};
use crate::error::{ErrorKind, ParseError, Production};
use crate::host_class;
use crate::scan::{self, class};

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
    /// The reference before any production has recorded a component: the
    /// productions fill it in place.
    pub(crate) fn unfilled(input: &'a str) -> Self {
        UriRef {
            input,
            kind: RefKind::Empty,
            scheme: None,
            authority: None,
            path: Span::new(0, 0),
            query: None,
            fragment: None,
        }
    }

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

/// Like [`parse`](fn@parse), but also accepts a relative reference made of a query
/// alone (`?y`), which Appendix A cannot derive but Appendix C resolves.
/// Used by [`resolve`](fn@crate::resolve) only.
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
    let mut uri = UriRef::unfilled(input);
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
    fn at(&self, i: usize) -> Option<u8> {
        self.bytes.get(i).copied()
    }

    /// The bytes from `i` on; empty past the end.
    fn from(&self, i: usize) -> &'a [u8] {
        self.bytes.get(i..).unwrap_or_default()
    }

    /// Scans `*rule` from `i`, where `class` is the [`scan::class`] bit of
    /// `rule` and `rule` includes `escaped`, checking each
    /// `escaped = "%" hex hex` on the way (Section 2.4.1). Returns the index
    /// of the first byte that is not in the rule.
    fn scan(&self, mut i: usize, class: u8, production: Production) -> Result<usize, ParseError> {
        loop {
            i = scan::run_end(self.bytes, i, class);
            if self.at(i) != Some(b'%') {
                return Ok(i);
            }
            let hex = |j: usize| self.at(j).is_some_and(|h| HEX.contains(h));
            if !(hex(i + 1) && hex(i + 2)) {
                return Err(ParseError::new(i, ErrorKind::InvalidEscape, production));
            }
            i += 3;
        }
    }

    /// The error for a byte that no rule allows at `i`, classified by the
    /// excluded sets of Section 2.4.3 (and Section 2.1 for non-ASCII).
    ///
    /// The byte is never one of `uric`: each caller has taken the bytes of
    /// its rule, `%` included (a bad `escaped` is reported by
    /// [`Self::scan`]), and the `uric` bytes outside its rule are exactly the
    /// ones that may end it, which it handles itself: `?` after an
    /// `abs_path`; `/` and `?` after an `authority`; `/`, `?` and `:` after a
    /// `rel_segment` (from its second byte on; the first is chosen by
    /// `relativeURI`); none after an `opaque_part`, `query` or `fragment`,
    /// which take all of `uric`; and the first byte of an `opaque_part` is
    /// not `/`, the one `uric` outside `uric_no_slash`. So the bytes left
    /// are `#` where no fragment may start and the excluded characters.
    #[cold]
    fn excluded(&self, i: usize, production: Production) -> ParseError {
        let b = self.at(i).unwrap_or(0);
        // The fuzz targets and tests run with debug assertions: they check
        // the claim above on every error.
        debug_assert!(
            !chars::URIC.contains(b),
            "{b:#04x} at {i} in {}",
            production.name()
        );
        let kind = match b {
            b' ' => ErrorKind::Space,
            0x80.. => ErrorKind::NonAscii(
                self.input
                    .get(i..)
                    .and_then(|rest| rest.chars().next())
                    .unwrap_or(char::REPLACEMENT_CHARACTER),
            ),
            _ if chars::is_control(b) => ErrorKind::Control(b),
            _ if UNWISE.contains(b) => ErrorKind::Unwise(b),
            // What is left of US-ASCII outside `uric`: `delims` "<", ">",
            // '"' and "#" (its "%" starts an `escaped`).
            _ => ErrorKind::Delims(b),
        };
        ParseError::new(i, kind, production)
    }

    /// `scheme = alpha *( alpha | digit | "+" | "-" | "." )`, recognised only
    /// when followed by `:`; otherwise the input is a `relativeURI`
    /// (Section 3.1, Section 5). Returns the scheme's span.
    fn scheme(&self) -> Option<Span> {
        if let Some(end) = scan::http_scheme(self.bytes) {
            return Some(Span::new(0, end));
        }
        if !ALPHA.contains(*self.bytes.first()?) {
            return None;
        }
        // The first byte, a letter, is in the class of the rest too.
        let end = self.bytes.iter().position(|&b| !SCHEME.contains(b))?;
        (self.at(end) == Some(b':')).then_some(Span::new(0, end))
    }

    /// `absoluteURI = scheme ":" ( hier_part | opaque_part )`; returns
    /// where it ends.
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
    fn opaque_part(&self, i: usize) -> Result<Span, ParseError> {
        match self.at(i) {
            None | Some(b'#') => {
                return Err(ParseError::new(
                    i,
                    ErrorKind::EmptyOpaquePart,
                    Production::OpaquePart,
                ));
            }
            Some(b) if !URIC_NO_SLASH.contains(b) => {
                return Err(self.excluded(i, Production::OpaquePart));
            }
            Some(_) => {}
        }
        let end = self.scan(i, class::URIC, Production::OpaquePart)?;
        match self.at(end) {
            None | Some(b'#') => Ok(Span::new(i, end)),
            Some(_) => Err(self.excluded(end, Production::OpaquePart)),
        }
    }

    /// `relativeURI = ( net_path | abs_path | rel_path ) [ "?" query ]`, or
    /// nothing at all (the empty reference, or a fragment alone); returns
    /// where it ends.
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
                return Err(ParseError::new(
                    0,
                    ErrorKind::MissingRelSegment,
                    Production::RelSegment,
                ));
            }
            (Some(_), _) => (RefKind::RelPath, self.rel_path()?),
        };
        self.optional_query(uri.path.end, uri)
    }

    /// `rel_path = rel_segment [ abs_path ]`
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
    fn rel_segment(&self) -> Result<usize, ParseError> {
        let end = self.scan(0, class::REL_SEGMENT, Production::RelSegment)?;
        match self.at(end) {
            None | Some(b'/' | b'?' | b'#') if end > 0 => Ok(end),
            Some(b':') => Err(ParseError::new(
                end,
                ErrorKind::ColonInRelSegment,
                Production::RelSegment,
            )),
            _ => Err(self.excluded(end, Production::RelSegment)),
        }
    }

    /// `net_path = "//" authority [ abs_path ]`, starting at the `//`.
    /// Records the authority in `uri` and returns the path.
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
    // `inline(never)`: the rare path stays out of the body of
    // `uri_reference`, where the common one is inlined.
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

    /// A shortcut for the common case of `authority`: `host [ ":" port ]`
    /// with a `hostname` or `IPv4address` host, so no `userinfo`, no
    /// `escaped`, and a `server`. `None` for anything else (including every
    /// error); then [`Self::any_authority`] decides.
    ///
    /// Speed only: it reads the authority once, where the general production
    /// reads it to find its end, again for an `@`, and again for the host;
    /// nearly every real URL takes it. Its tests check that wherever it
    /// answers, the general production gives the same authority.
    ///
    /// Records the authority in `uri` and returns where it ends.
    fn hostport_only(&self, start: usize, uri: &mut UriRef<'a>) -> Option<usize> {
        let (host_end, kind) = host_class::host(self.bytes, start)?;
        let host = Span::new(start, host_end);
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

    /// Finds where the authority ends, checking that every byte before it is
    /// a `reg_name` byte: `server` uses only `reg_name` bytes, so a byte
    /// outside `reg_name` fails both alternatives of `authority`.
    fn authority_end(&self, start: usize) -> Result<usize, ParseError> {
        let end = self.scan(start, class::REG_NAME, Production::Authority)?;
        match self.at(end) {
            None | Some(b'/' | b'?' | b'#') => Ok(end),
            Some(_) => Err(self.excluded(end, Production::Authority)),
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
        // The host must run to the ':' or the end of the authority: a byte
        // of the region before that which is in no host (`_`, `%`, '@' ...)
        // makes the region a reg_name.
        let (end, kind) = host_class::host(self.bytes, start)?;
        (end == host_end).then_some(((Span::new(start, host_end), kind), port))
    }

    /// `abs_path = "/" path_segments`, starting at the `/`.
    ///
    /// `path_segments = segment *( "/" segment )`, `segment = *pchar *( ";" param )`
    /// and `param = *pchar` together allow any run of pchar, `;` and `/`.
    fn abs_path(&self, i: usize) -> Result<Span, ParseError> {
        let end = self.scan(i, class::PATH_SEGMENTS, Production::AbsPath)?;
        match self.at(end) {
            None | Some(b'?' | b'#') => Ok(Span::new(i, end)),
            Some(_) => Err(self.excluded(end, Production::AbsPath)),
        }
    }

    /// `[ "?" query ]` at `i`: records the query in `uri` and returns where
    /// the body ends.
    fn optional_query(&self, i: usize, uri: &mut UriRef<'a>) -> Result<usize, ParseError> {
        if self.at(i) != Some(b'?') {
            return Ok(i);
        }
        let end = self.scan(i + 1, class::URIC, Production::Query)?;
        match self.at(end) {
            None | Some(b'#') => {
                uri.query = Some(Span::new(i + 1, end));
                Ok(end)
            }
            Some(_) => Err(self.excluded(end, Production::Query)),
        }
    }

    /// `fragment = *uric`, starting after the `#`.
    fn fragment(&self, i: usize) -> Result<Span, ParseError> {
        let end = self.scan(i, class::URIC, Production::Fragment)?;
        match self.at(end) {
            None => Ok(Span::new(i, end)),
            // A second '#' is a `delims` character (Section 2.4.3).
            Some(_) => Err(self.excluded(end, Production::Fragment)),
        }
    }
}

/// `server` with nothing in it: `//` followed by the path, or nothing.
const EMPTY_SERVER: Server = Server {
    userinfo: None,
    host: None,
    port: None,
};

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Runs the `hostport` shortcut of `authority` at `start`; where it
    /// answers, the general production (`authority_end`, then `server` or
    /// `reg_name`) must give the same end and the same authority. Returns
    /// whether the shortcut answered.
    fn shortcut_agrees(input: &str, start: usize) -> bool {
        let p = Parser {
            input,
            bytes: input.as_bytes(),
        };
        let mut uri = UriRef::unfilled(input);
        let Some(end) = p.hostport_only(start, &mut uri) else {
            return false;
        };
        let recorded = uri
            .authority
            .map(|(span, shape)| (span.start, span.end, shape));
        let general = p
            .any_authority(start)
            .map(|(end, shape)| (start, end, shape));
        assert_eq!(Some(general), recorded.map(Ok), "{input:?} from {start}");
        assert_eq!(recorded.map(|(_, end, _)| end), Some(end));
        true
    }

    #[test]
    fn hostport_shortcut_agrees_with_the_authority_production_on_the_real_url_set() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../benches/data/urls.txt");
        let text = std::fs::read_to_string(path).unwrap();
        let (mut authorities, mut answered) = (0, 0);
        for url in text.lines() {
            // Where the authority starts, and from every other position.
            if let Some(start) = parse(url).ok().and_then(|r| r.span(Component::Authority)) {
                authorities += 1;
                answered += usize::from(shortcut_agrees(url, start.start));
            }
            for start in 0..=url.len() {
                shortcut_agrees(url, start);
            }
        }
        // The shortcut is the common case, so this test is not vacuous.
        assert!(
            answered * 10 > authorities * 9,
            "{answered} of {authorities}"
        );
    }

    /// `excluded` is reached only on bytes outside `uric` (so no error kind
    /// is needed for a `uric` byte out of place): every pair of US-ASCII
    /// bytes (and a non-ASCII character), after a prefix that puts it at the
    /// start of each production and inside it, and before what may follow.
    /// The `debug_assert!` in `excluded` checks the claim on every call;
    /// this checks the errors from outside too.
    #[test]
    fn excluded_bytes_are_never_uric() {
        let prefixes = [
            "", "a", "a:", "a:b", "//", "//h", "//h:", "//h:8", "//u@", "//u@h", "//a_", "/", "/a",
            "a/", "a;", "/a?", "/a?q", "#", "#f", "mailto:x", "9",
        ];
        let chars: Vec<String> = (0u8..0x80)
            .map(|b| char::from(b).to_string())
            .chain(["\u{e9}".to_string()])
            .collect();
        let mut errors = 0;
        for prefix in prefixes {
            for c1 in &chars {
                for c2 in &chars {
                    for suffix in ["", "/p?q#f"] {
                        let input = format!("{prefix}{c1}{c2}{suffix}");
                        let Err(e) = parse(&input) else { continue };
                        errors += 1;
                        let b = input.as_bytes().get(e.index()).copied();
                        let structural = matches!(
                            e.kind(),
                            ErrorKind::InvalidEscape
                                | ErrorKind::EmptyOpaquePart
                                | ErrorKind::MissingRelSegment
                                | ErrorKind::ColonInRelSegment
                        );
                        assert!(
                            structural || b.is_some_and(|b| !chars::URIC.contains(b)),
                            "{input:?}: {e}"
                        );
                    }
                }
            }
        }
        assert!(errors > 100_000, "{errors}");
    }

    proptest! {
        // A failure prints the minimal input; no regression files in the
        // source tree.
        #![proptest_config(ProptestConfig {
            cases: 4000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn hostport_shortcut_agrees_with_the_authority_production(
            authority in "([a-zA-Z0-9]{0,3}[-.]?){0,12}(:[0-9]{0,4})?[:@_%.-]?[0-9a-z]{0,2}",
            userinfo in proptest::option::weighted(0.1, "[a-z:]{0,3}@"),
            tail in "([/?#][a-z]?)?[ \u{e9}]?",
        ) {
            let input = format!("//{}{authority}{tail}", userinfo.unwrap_or_default());
            shortcut_agrees(&input, 2);
        }
    }
}
