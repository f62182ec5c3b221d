//! What the fuzz targets check, in the library so that `cargo test` replays
//! the saved corpus through exactly the same code.
//!
//! - [`parse_invariants`]: the strict parser never panics; an accepted input
//!   recomposes to itself with ordered in-bounds spans and agrees with the
//!   Appendix B split; a rejection points inside the input.
//! - [`resolve_invariants`]: resolution of a valid reference against a valid
//!   absolute base yields an absolute URI, or a documented error.
//! - [`UriModel`]: an `arbitrary`-derived model of a URI with controlled
//!   mutations, rendered to a string for `check`.
//! - [`corpus_entry`]: a ready-to-paste saved-corpus entry for a case.

use std::fmt::Write as _;

use arbitrary::{Arbitrary, Unstructured};

use crate::check::Case;
use crate::oracle::appendix_b_split;
use crate::rfc2396::{self, Component, RefKind, ResolveError};

/// Checks the strict parser's invariants on `input`; `Err` says which broke.
pub fn parse_invariants(input: &str) -> Result<(), String> {
    let r = match rfc2396::parse(input) {
        Ok(r) => r,
        Err(e) => {
            if e.index > input.len() || !input.is_char_boundary(e.index) {
                return Err(format!(
                    "error index {} outside the input or off a char boundary",
                    e.index
                ));
            }
            return Ok(());
        }
    };
    let recomposed = r.to_string();
    if recomposed != input {
        return Err(format!("recomposes to {recomposed:?}"));
    }
    let mut last_end = 0;
    for c in [
        Component::Scheme,
        Component::Authority,
        Component::Path,
        Component::Query,
        Component::Fragment,
    ] {
        if let Some(span) = r.span(c) {
            if span.start < last_end || span.end > input.len() || span.start > span.end {
                return Err(format!("{c:?} span {span:?} out of order or bounds"));
            }
            if !input.is_char_boundary(span.start) || !input.is_char_boundary(span.end) {
                return Err(format!("{c:?} span {span:?} off a char boundary"));
            }
            last_end = span.end;
        }
    }
    if let Some(authority) = r.span(Component::Authority) {
        let mut at = authority.start;
        for c in [Component::Userinfo, Component::Host, Component::Port] {
            if let Some(span) = r.span(c) {
                if span.start < at || span.end > authority.end {
                    return Err(format!(
                        "{c:?} span {span:?} outside the authority {authority:?}"
                    ));
                }
                at = span.end;
            }
        }
    }
    // Appendix B splits every valid reference the same way, except that a
    // `?` in an opaque_part belongs to the path for RFC 2396.
    let b = appendix_b_split(input);
    let mut expected_path = b.path.to_owned();
    let mut expected_query = b.query;
    if r.kind() == RefKind::AbsoluteOpaque {
        if let Some(q) = b.query {
            expected_path = format!("{}?{q}", b.path);
            expected_query = None;
        }
    }
    let agree = r.scheme() == b.scheme
        && r.authority() == b.authority
        && r.path() == expected_path
        && r.query() == expected_query
        && r.fragment() == b.fragment;
    if !agree {
        return Err(format!("disagrees with the Appendix B split {b:?}"));
    }
    Ok(())
}

/// Checks resolution invariants on (base, reference); `Err` says which broke.
pub fn resolve_invariants(base: &str, reference: &str) -> Result<(), String> {
    let result = rfc2396::resolve(base, reference);
    let base_ok = rfc2396::parse(base).is_ok_and(|b| b.kind().is_absolute());
    match result {
        Ok(resolved) => {
            if !base_ok {
                return Err(format!(
                    "resolved {resolved:?} against a base that is not absolute"
                ));
            }
            match rfc2396::parse(&resolved) {
                Ok(r) if r.kind().is_absolute() => Ok(()),
                Ok(r) => Err(format!(
                    "result {resolved:?} is {:?}, not absolute",
                    r.kind()
                )),
                Err(e) => Err(format!("result {resolved:?} does not parse: {e}")),
            }
        }
        // Documented refusals; listed one by one so that a new error
        // variant must be classified here before it compiles.
        Err(
            ResolveError::InvalidBase(_)
            | ResolveError::InvalidReference(_)
            | ResolveError::RelativeBase
            | ResolveError::OpaqueBase
            | ResolveError::AmbiguousPath(_),
        ) => Ok(()),
    }
}

/// The saved-corpus entry for a case: a comment naming what it shows, then
/// the input as a JSON string, ready to paste into `corpus/curated.txt`.
pub fn corpus_entry(case: &Case<'_>, origin: &str) -> String {
    let mut entry = format!("# {origin}:");
    for f in &case.findings {
        let _ = write!(entry, " {}/{}", f.class, f.oracle);
    }
    for f in case.unexplained() {
        let _ = write!(
            entry,
            "\n#   unexplained {}: {}",
            f.oracle,
            f.effect.replace('\n', "\\n")
        );
    }
    let json = serde_json::to_string(case.input).unwrap_or_default();
    let _ = write!(entry, "\n{json}\n");
    entry
}

/// Decodes a structured-fuzzer input into its rendered URI, as the
/// `structured` target does.
pub fn render_structured(data: &[u8]) -> Option<String> {
    UriModel::arbitrary_take_rest(Unstructured::new(data))
        .ok()
        .map(|m| m.render())
}

/// Text built from pieces: mostly characters a URI component may hold, with
/// the occasional character that breaks some parser.
#[derive(Arbitrary, Clone, Debug)]
pub struct Text(Vec<Piece>);

/// One piece of [`Text`].
#[derive(Clone, Copy, Debug)]
pub enum Piece {
    /// A letter.
    Alpha(u8),
    /// A digit.
    Digit(u8),
    /// One of RFC 2396's `mark` characters.
    Mark(u8),
    /// One of RFC 2396's `reserved` characters.
    Reserved(u8),
    /// A valid `escaped` octet.
    Escaped(u8),
    /// Mutation: `%` not followed by two hex digits.
    BadEscape,
    /// Mutation: an `unwise` character.
    Unwise(u8),
    /// Mutation: `<`, `>` or `"`.
    Delims(u8),
    /// Mutation: a space, tab, newline or other control.
    Whitespace(u8),
    /// Mutation: a non-ASCII character.
    NonAscii(char),
    /// Mutation: a backslash.
    Backslash,
}

impl<'a> Arbitrary<'a> for Piece {
    /// Mostly valid characters: about one piece in seven is a mutation, so
    /// that whole valid references are common and each mutation stands out.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let selector: u8 = u.arbitrary()?;
        let value: u8 = u.arbitrary()?;
        Ok(match selector {
            0..=99 => Piece::Alpha(value),
            100..=139 => Piece::Digit(value),
            140..=169 => Piece::Mark(value),
            170..=199 => Piece::Reserved(value),
            200..=219 => Piece::Escaped(value),
            220..=225 => Piece::BadEscape,
            226..=231 => Piece::Unwise(value),
            232..=236 => Piece::Delims(value),
            237..=242 => Piece::Whitespace(value),
            243..=249 => Piece::NonAscii(u.arbitrary()?),
            _ => Piece::Backslash,
        })
    }
}

fn pick(table: &[u8], i: u8) -> char {
    let len = table.len().max(1);
    char::from(table.get(usize::from(i) % len).copied().unwrap_or(b'a'))
}

impl Piece {
    fn render(self, out: &mut String) {
        match self {
            Piece::Alpha(i) => out.push(pick(
                b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                i,
            )),
            Piece::Digit(i) => out.push(pick(b"0123456789", i)),
            Piece::Mark(i) => out.push(pick(b"-_.!~*'()", i)),
            Piece::Reserved(i) => out.push(pick(b";/?:@&=+$,", i)),
            Piece::Escaped(b) => {
                let _ = write!(out, "%{b:02X}");
            }
            Piece::BadEscape => out.push_str("%z"),
            Piece::Unwise(i) => out.push(pick(b"{}|\\^[]`", i)),
            Piece::Delims(i) => out.push(pick(b"<>\"", i)),
            Piece::Whitespace(i) => out.push(pick(b" \t\n\r\x00\x1f\x7f\x0b", i)),
            Piece::NonAscii(c) if c.is_ascii() => out.push('é'),
            Piece::NonAscii(c) => out.push(c),
            Piece::Backslash => out.push('\\'),
        }
    }
}

impl Text {
    fn render(&self, out: &mut String) {
        for p in self.0.iter().take(24) {
            p.render(out);
        }
    }
}

/// A scheme.
#[derive(Arbitrary, Clone, Debug)]
pub enum SchemeModel {
    /// `http`
    Http,
    /// `https`
    Https,
    /// `ftp`
    Ftp,
    /// `file`
    File,
    /// `mailto`
    Mailto,
    /// `ws`
    Ws,
    /// `HTTP`
    UpperHttp,
    /// A scheme of letters, digits and `+-.` (possibly invalid: a leading digit).
    Other(Vec<u8>),
}

impl SchemeModel {
    fn render(&self, out: &mut String) {
        match self {
            SchemeModel::Http => out.push_str("http"),
            SchemeModel::Https => out.push_str("https"),
            SchemeModel::Ftp => out.push_str("ftp"),
            SchemeModel::File => out.push_str("file"),
            SchemeModel::Mailto => out.push_str("mailto"),
            SchemeModel::Ws => out.push_str("ws"),
            SchemeModel::UpperHttp => out.push_str("HTTP"),
            SchemeModel::Other(bytes) => {
                for &b in bytes.iter().take(8) {
                    out.push(pick(b"abcxyzABC019+-.", b));
                }
                if bytes.is_empty() {
                    out.push('x');
                }
            }
        }
    }
}

/// A host.
#[derive(Arbitrary, Clone, Debug)]
pub enum HostModel {
    /// A hostname of labels (`a-b.example`), maybe with a trailing dot.
    Hostname(Vec<Text>, bool),
    /// Dotted decimal, each part 0..=999 (RFC 2396 has no range check).
    Ipv4([u16; 4]),
    /// A WHATWG number form: hex, octal or fewer parts.
    Ipv4Number(u32, u8),
    /// An IPv6-like literal in brackets.
    IpLiteral([u16; 8], u8),
    /// Any text (a reg_name, or worse).
    RegName(Text),
    /// A percent-encoded hostname.
    Percent(Vec<u8>),
    /// Nothing.
    Empty,
}

impl HostModel {
    fn render(&self, out: &mut String) {
        match self {
            HostModel::Hostname(labels, dot) => {
                for (i, label) in labels.iter().take(4).enumerate() {
                    if i > 0 {
                        out.push('.');
                    }
                    let start = out.len();
                    label.render(out);
                    if out.len() == start {
                        out.push('h');
                    }
                }
                if labels.is_empty() {
                    out.push_str("example.com");
                }
                if *dot {
                    out.push('.');
                }
            }
            HostModel::Ipv4(parts) => {
                let parts: Vec<String> = parts.iter().map(|p| (p % 1000).to_string()).collect();
                out.push_str(&parts.join("."));
            }
            HostModel::Ipv4Number(n, form) => {
                let _ = match form % 4 {
                    0 => write!(out, "0x{n:x}"),
                    1 => write!(out, "0{:o}.1", n % 256),
                    2 => write!(out, "{}.{}", n >> 24, n & 0xff_ffff),
                    _ => write!(out, "{n}"),
                };
            }
            HostModel::IpLiteral(groups, zeros) => {
                out.push('[');
                let cut = usize::from(*zeros % 9);
                let shown: Vec<String> = groups
                    .iter()
                    .take(8 - cut.min(8))
                    .map(|g| format!("{g:x}"))
                    .collect();
                out.push_str(&shown.join(":"));
                if cut > 0 {
                    out.push_str("::");
                }
                out.push(']');
            }
            HostModel::RegName(text) => text.render(out),
            HostModel::Percent(bytes) => {
                for &b in bytes.iter().take(12) {
                    let c = pick(b"abcdexyz.-019", b);
                    let _ = write!(out, "%{:02X}", c as u32);
                }
                out.push_str("example");
            }
            HostModel::Empty => {}
        }
    }
}

/// A port.
#[derive(Arbitrary, Clone, Debug)]
pub enum PortModel {
    /// `host:`
    Empty,
    /// A port number.
    Number(u16),
    /// Out of range.
    Big(u32),
    /// With a sign (`+80`, `-1`).
    Signed(i16),
    /// With leading zeros.
    LeadingZeros(u16),
}

impl PortModel {
    fn render(&self, out: &mut String) {
        let _ = match self {
            PortModel::Empty => Ok(()),
            PortModel::Number(n) => write!(out, "{n}"),
            PortModel::Big(n) => write!(out, "{}", u64::from(*n) + 65_536),
            PortModel::Signed(n) => write!(out, "{n:+}"),
            PortModel::LeadingZeros(n) => write!(out, "00{n}"),
        };
    }
}

/// An authority.
#[derive(Arbitrary, Clone, Debug)]
pub struct AuthorityModel {
    /// `user[:password]@`, with `Some(None)` for an empty userinfo.
    pub userinfo: Option<Option<(Text, Option<Text>)>>,
    /// The host.
    pub host: HostModel,
    /// `:port`.
    pub port: Option<PortModel>,
}

/// A path segment with its `;params`, or a dot segment.
#[derive(Arbitrary, Clone, Debug)]
pub enum SegmentModel {
    /// `name;param;param`
    Named(Text, Vec<Text>),
    /// `.`
    Dot,
    /// `..`
    DotDot,
    /// An empty segment (`//`).
    Empty,
}

/// A whole URI reference.
#[derive(Arbitrary, Clone, Debug)]
pub struct UriModel {
    /// `scheme:`; `None` for a relative reference.
    pub scheme: Option<SchemeModel>,
    /// `//authority`.
    pub authority: Option<AuthorityModel>,
    /// Path segments.
    pub segments: Vec<SegmentModel>,
    /// Whether the path starts with `/` (forced when there is an authority).
    pub absolute_path: bool,
    /// Mutation: `\` instead of `/` after the scheme.
    pub backslashes: bool,
    /// `?query`.
    pub query: Option<Text>,
    /// `#fragment`.
    pub fragment: Option<Text>,
    /// Mutation: leading or trailing whitespace.
    pub padding: Option<u8>,
}

impl UriModel {
    /// Renders the model as a URI reference string.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if let Some(p) = self.padding.filter(|p| p % 2 == 0) {
            out.push(pick(b" \t\n", p));
        }
        if let Some(scheme) = &self.scheme {
            scheme.render(&mut out);
            out.push(':');
        }
        let slash = if self.backslashes { '\\' } else { '/' };
        if let Some(a) = &self.authority {
            out.push(slash);
            out.push(slash);
            match &a.userinfo {
                Some(Some((user, password))) => {
                    user.render(&mut out);
                    if let Some(p) = password {
                        out.push(':');
                        p.render(&mut out);
                    }
                    out.push('@');
                }
                Some(None) => out.push('@'),
                None => {}
            }
            a.host.render(&mut out);
            if let Some(port) = &a.port {
                out.push(':');
                port.render(&mut out);
            }
        }
        for (i, segment) in self.segments.iter().take(8).enumerate() {
            if i > 0 || self.absolute_path || self.authority.is_some() {
                out.push(slash);
            }
            match segment {
                SegmentModel::Named(name, params) => {
                    name.render(&mut out);
                    for p in params.iter().take(3) {
                        out.push(';');
                        p.render(&mut out);
                    }
                }
                SegmentModel::Dot => out.push('.'),
                SegmentModel::DotDot => out.push_str(".."),
                SegmentModel::Empty => {}
            }
        }
        if let Some(q) = &self.query {
            out.push('?');
            q.render(&mut out);
        }
        if let Some(f) = &self.fragment {
            out.push('#');
            f.render(&mut out);
        }
        if let Some(p) = self.padding.filter(|p| p % 2 == 1) {
            out.push(pick(b" \t\n", p));
        }
        out
    }
}

/// Decodes a `resolve` fuzzer input into its (base, reference) pair, as
/// libfuzzer-sys does for the target's `(&str, &str)` argument.
pub fn decode_resolve_pair(data: &[u8]) -> Option<(&str, &str)> {
    <(&str, &str)>::arbitrary_take_rest(Unstructured::new(data)).ok()
}

/// Encodes a (base, reference) pair as a `resolve` fuzzer input, so that
/// [`decode_resolve_pair`] gives it back; `None` if no encoding is found
/// (the pair is longer than one length byte can describe).
pub fn encode_resolve_pair(base: &str, reference: &str) -> Option<Vec<u8>> {
    // `arbitrary` reads the first string's length from the end of the data
    // and the last string from the rest; search that length byte.
    let mut data = Vec::with_capacity(base.len() + reference.len() + 1);
    data.extend_from_slice(base.as_bytes());
    data.extend_from_slice(reference.as_bytes());
    data.push(0);
    for byte in 0..=u8::MAX {
        if let Some(last) = data.last_mut() {
            *last = byte;
        }
        if decode_resolve_pair(&data) == Some((base, reference)) {
            return Some(data);
        }
    }
    None
}
