//! The strict RFC 2396 parser: one function per production of Appendix A.
//!
//! The parser walks the input once from left to right (the authority is
//! re-read a bounded number of times to choose between `server` and
//! `reg_name`), allocates nothing, has no recursion, and reports the first
//! offending byte. Every component is kept as a span of the input.

use std::fmt;
use std::ops::Range;

use super::chars::{
    self, ALPHA, ALPHANUM, CharClass, DIGIT, HEX, LABEL_INTERIOR, PATH_SEGMENTS, REG_NAME,
    REL_SEGMENT, SCHEME, UNWISE, URIC, URIC_NO_SLASH,
};
use super::error::{ErrorKind, ParseError, Rule};

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
/// let r = uridiff::rfc2396::parse("ftp://@host.com/").unwrap();
/// assert_eq!(r.userinfo(), Some(""));
/// assert_eq!(r.host(), Some("host.com"));
/// assert!(uridiff::rfc2396::parse("http://[::1]/").is_err());
/// ```
pub fn parse(input: &str) -> Result<UriRef<'_>, ParseError> {
    uri_reference(input, false)
}

/// Like [`parse`], but also accepts a relative reference made of a query
/// alone (`?y`), which Appendix A cannot derive but Appendix C resolves.
/// Used by [`super::resolve`] only.
pub(crate) fn parse_allowing_query_only(input: &str) -> Result<UriRef<'_>, ParseError> {
    uri_reference(input, true)
}

/// The state the productions share: the input and its bytes.
struct Parser<'a> {
    input: &'a str,
    bytes: &'a [u8],
}

/// Pieces of the part before the fragment.
struct Body {
    kind: RefKind,
    scheme: Option<Span>,
    authority: Option<(Span, AuthorityShape)>,
    path: Span,
    query: Option<Span>,
    end: usize,
}

/// `URI-reference = [ absoluteURI | relativeURI ] [ "#" fragment ]`
fn uri_reference(input: &str, allow_query_only: bool) -> Result<UriRef<'_>, ParseError> {
    let p = Parser {
        input,
        bytes: input.as_bytes(),
    };
    let body = match p.scheme() {
        Some(scheme) => p.absolute_uri(scheme)?,
        None => p.relative_uri(allow_query_only)?,
    };
    let fragment = match p.at(body.end) {
        Some(b'#') => Some(p.fragment(body.end + 1)?),
        // Every body production stops only at '#' or the end of input.
        _ => None,
    };
    Ok(UriRef {
        input,
        kind: body.kind,
        scheme: body.scheme,
        authority: body.authority,
        path: body.path,
        query: body.query,
        fragment,
    })
}

impl<'a> Parser<'a> {
    #[inline(always)]
    fn at(&self, i: usize) -> Option<u8> {
        self.bytes.get(i).copied()
    }

    /// Scans `*class` from `i`, checking each `escaped = "%" hex hex` on the
    /// way (Section 2.4.1), and returns the index of the first byte that is
    /// not in `class`.
    #[inline(always)]
    fn scan(&self, mut i: usize, class: &CharClass, rule: Rule) -> Result<usize, ParseError> {
        while let Some(b) = self.at(i) {
            if !class.contains(b) {
                return Ok(i);
            }
            if b == b'%' {
                let hex = |j: usize| self.at(j).is_some_and(|h| HEX.contains(h));
                if !(hex(i + 1) && hex(i + 2)) {
                    return Err(ParseError {
                        index: i,
                        kind: ErrorKind::InvalidEscape,
                        rule,
                    });
                }
                i += 3;
            } else {
                i += 1;
            }
        }
        Ok(i)
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
    fn scheme(&self) -> Option<Span> {
        if !self.at(0).is_some_and(|b| ALPHA.contains(b)) {
            return None;
        }
        let mut i = 1;
        while self.at(i).is_some_and(|b| SCHEME.contains(b)) {
            i += 1;
        }
        (self.at(i) == Some(b':')).then_some(Span::new(0, i))
    }

    /// `absoluteURI = scheme ":" ( hier_part | opaque_part )`
    fn absolute_uri(&self, scheme: Span) -> Result<Body, ParseError> {
        let i = scheme.end + 1;
        if self.at(i) == Some(b'/') {
            // hier_part = ( net_path | abs_path ) [ "?" query ]
            let (authority, path) = if self.at(i + 1) == Some(b'/') {
                self.net_path(i)?
            } else {
                (None, self.abs_path(i)?)
            };
            let (query, end) = self.optional_query(path.end)?;
            Ok(Body {
                kind: RefKind::AbsoluteHierarchical,
                scheme: Some(scheme),
                authority,
                path,
                query,
                end,
            })
        } else {
            let path = self.opaque_part(i)?;
            Ok(Body {
                kind: RefKind::AbsoluteOpaque,
                scheme: Some(scheme),
                authority: None,
                path,
                query: None,
                end: path.end,
            })
        }
    }

    /// `opaque_part = uric_no_slash *uric`
    ///
    /// A `?` here belongs to the opaque part: the grammar gives it no query.
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
        let end = self.scan(i, &URIC, Rule::OpaquePart)?;
        match self.at(end) {
            None | Some(b'#') => Ok(Span::new(i, end)),
            Some(_) => Err(self.excluded(end, Rule::OpaquePart)),
        }
    }

    /// `relativeURI = ( net_path | abs_path | rel_path ) [ "?" query ]`, or
    /// nothing at all (the empty reference, or a fragment alone).
    fn relative_uri(&self, allow_query_only: bool) -> Result<Body, ParseError> {
        let (kind, authority, path) = match (self.at(0), self.at(1)) {
            (Some(b'/'), Some(b'/')) => {
                let (authority, path) = self.net_path(0)?;
                (RefKind::NetPath, authority, path)
            }
            (Some(b'/'), _) => (RefKind::AbsPath, None, self.abs_path(0)?),
            (None | Some(b'#'), _) => {
                return Ok(Body {
                    kind: RefKind::Empty,
                    scheme: None,
                    authority: None,
                    path: Span::new(0, 0),
                    query: None,
                    end: 0,
                });
            }
            (Some(b'?'), _) if allow_query_only => (RefKind::RelPath, None, Span::new(0, 0)),
            (Some(b'?'), _) => {
                return Err(ParseError {
                    index: 0,
                    kind: ErrorKind::MissingRelSegment,
                    rule: Rule::RelSegment,
                });
            }
            (Some(_), _) => (RefKind::RelPath, None, self.rel_path()?),
        };
        let (query, end) = self.optional_query(path.end)?;
        Ok(Body {
            kind,
            scheme: None,
            authority,
            path,
            query,
            end,
        })
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
        let end = self.scan(0, &REL_SEGMENT, Rule::RelSegment)?;
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
    ///
    /// The authority runs to the next `/`, `?`, `#` or the end (Section 4.3:
    /// the authority component is greedy).
    fn net_path(&self, i: usize) -> Result<(Option<(Span, AuthorityShape)>, Span), ParseError> {
        let start = i + 2;
        let end = self.authority_end(start)?;
        let span = Span::new(start, end);
        let shape = match self.server(start, end) {
            Some(server) => AuthorityShape::Server(server),
            // Every byte is already a reg_name byte, and a reg_name is
            // non-empty; an empty authority is always an (empty) server.
            None => AuthorityShape::RegName,
        };
        let path = if self.at(end) == Some(b'/') {
            self.abs_path(end)?
        } else {
            Span::new(end, end)
        };
        Ok((Some((span, shape)), path))
    }

    /// Finds where the authority ends, checking that every byte before it is
    /// a `reg_name` byte: `server` uses only `reg_name` bytes, so a byte
    /// outside `reg_name` fails both alternatives of `authority`.
    fn authority_end(&self, start: usize) -> Result<usize, ParseError> {
        let end = self.scan(start, &REG_NAME, Rule::Authority)?;
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
            return Some(Server {
                userinfo: None,
                host: None,
                port: None,
            });
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
    fn abs_path(&self, i: usize) -> Result<Span, ParseError> {
        let end = self.scan(i, &PATH_SEGMENTS, Rule::AbsPath)?;
        match self.at(end) {
            None | Some(b'?' | b'#') => Ok(Span::new(i, end)),
            Some(_) => Err(self.excluded(end, Rule::AbsPath)),
        }
    }

    /// `[ "?" query ]` at `i`; returns the query and where the body ends.
    fn optional_query(&self, i: usize) -> Result<(Option<Span>, usize), ParseError> {
        if self.at(i) != Some(b'?') {
            return Ok((None, i));
        }
        let end = self.scan(i + 1, &URIC, Rule::Query)?;
        match self.at(end) {
            None | Some(b'#') => Ok((Some(Span::new(i + 1, end)), end)),
            Some(_) => Err(self.excluded(end, Rule::Query)),
        }
    }

    /// `fragment = *uric`, starting after the `#`.
    fn fragment(&self, i: usize) -> Result<Span, ParseError> {
        let end = self.scan(i, &URIC, Rule::Fragment)?;
        match self.at(end) {
            None => Ok(Span::new(i, end)),
            // A second '#' is a `delims` character (Section 2.4.3).
            Some(_) => Err(self.excluded(end, Rule::Fragment)),
        }
    }
}

/// `host = hostname | IPv4address`; the two never overlap, since a
/// `toplabel` starts with a letter and an `IPv4address` has none.
pub(crate) fn host_kind(host: &[u8]) -> Option<HostKind> {
    if is_ipv4address(host) {
        Some(HostKind::Ipv4)
    } else if is_hostname(host) {
        Some(HostKind::Hostname)
    } else {
        None
    }
}

/// `IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit`, with no
/// range check: the grammar has none (`999.1.1.1` is an IPv4address).
fn is_ipv4address(host: &[u8]) -> bool {
    let mut groups = 0;
    for group in host.split(|&b| b == b'.') {
        if group.is_empty() || !group.iter().all(|&b| DIGIT.contains(b)) {
            return false;
        }
        groups += 1;
    }
    groups == 4
}

/// `hostname = *( domainlabel "." ) toplabel [ "." ]`
fn is_hostname(host: &[u8]) -> bool {
    let host = host.strip_suffix(b".").unwrap_or(host);
    let mut last = None;
    for label in host.split(|&b| b == b'.') {
        if !is_domainlabel(label) {
            return false;
        }
        last = Some(label);
    }
    // toplabel = alpha | alpha *( alphanum | "-" ) alphanum: a domainlabel
    // whose first character is a letter.
    last.and_then(|l| l.first())
        .is_some_and(|&b| ALPHA.contains(b))
}

/// `domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum`
fn is_domainlabel(label: &[u8]) -> bool {
    match label {
        [] => false,
        [only] => ALPHANUM.contains(*only),
        [first, middle @ .., last] => {
            ALPHANUM.contains(*first)
                && ALPHANUM.contains(*last)
                && middle.iter().all(|&b| LABEL_INTERIOR.contains(b))
        }
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
            assert!(is_hostname(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "", ".", "a..b", "-a.com", "a-.com", "a.1b", "a.b..", "1", "a_b", ".a",
        ] {
            assert!(!is_hostname(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn ipv4address_rules() {
        for ok in ["1.2.3.4", "999.1.1.1", "0000.0.0.00"] {
            assert!(is_ipv4address(ok.as_bytes()), "{ok}");
        }
        for bad in ["1.2.3", "1.2.3.4.5", "1.2.3.4.", "1..3.4", "a.2.3.4", ""] {
            assert!(!is_ipv4address(bad.as_bytes()), "{bad}");
        }
    }
}
