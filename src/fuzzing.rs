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
            if e.index() > input.len() || !input.is_char_boundary(e.index()) {
                return Err(format!(
                    "error index {} outside the input or off a char boundary",
                    e.index()
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
    corpus_entry_with(case, origin, &[])
}

/// The defect findings of `case` whose signature `known` lacks: what a fuzz
/// target reports as a new defect.
pub fn new_defects<'c>(
    case: &'c Case<'_>,
    known: &std::collections::BTreeSet<String>,
) -> Vec<&'c crate::triage::Finding> {
    case.defects()
        .filter(|f| !known.contains(&f.signature()))
        .collect()
}

/// A corpus entry that also names the new defects found.
pub fn corpus_entry_with(
    case: &Case<'_>,
    origin: &str,
    new_defects: &[&crate::triage::Finding],
) -> String {
    let mut entry = format!("# {origin}:");
    for f in &case.findings {
        let _ = write!(entry, " {}/{}", f.class, f.oracle);
    }
    for f in case.unexplained() {
        let _ = write!(
            entry,
            "\n#   unexplained {}: {}",
            f.oracle,
            case.effect(f).replace('\n', "\\n")
        );
    }
    for f in new_defects {
        let _ = write!(
            entry,
            "\n#   new defect {}: {}",
            f.signature(),
            case.effect(f).replace('\n', "\\n")
        );
    }
    if let Some(base) = case.base {
        let base = serde_json::to_string(base).unwrap_or_default();
        let _ = write!(entry, "\n#   resolved against the base {base}");
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
#[derive(Clone, Debug)]
pub struct Text(Vec<Piece>);

/// Short runs keep the bytes for the later parts of the model, so that whole
/// references (scheme, authority, path, query, fragment) are common.
fn short_vec<'a, T: Arbitrary<'a>>(
    u: &mut Unstructured<'a>,
    max: usize,
) -> arbitrary::Result<Vec<T>> {
    let len = u.int_in_range(0..=max)?;
    (0..len).map(|_| u.arbitrary()).collect()
}

impl<'a> Arbitrary<'a> for Text {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        short_vec(u, 10).map(Text)
    }
}

/// One piece of [`Text`].
#[derive(Clone, Copy, Debug)]
pub enum Piece {
    /// A letter.
    Alpha(u8),
    /// A digit.
    Digit(u8),
    /// One of RFC 2396's `mark` characters.
    Mark(u8),
    /// One of RFC 2396's `reserved` characters that no component ends at.
    Reserved(u8),
    /// Mutation: a delimiter that ends or splits a component (`/ ? # @`).
    Delimiter(u8),
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
    /// Mostly valid characters: about one piece in forty is a mutation, so
    /// that whole valid references are common and each mutation stands out.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let selector: u8 = u.arbitrary()?;
        let value: u8 = u.arbitrary()?;
        // Valid pieces 250 times in 256; mutations share the rest.
        Ok(match selector {
            0..=109 => Piece::Alpha(value),
            110..=149 => Piece::Digit(value),
            150..=179 => Piece::Mark(value),
            180..=219 => Piece::Reserved(value),
            220..=249 => Piece::Escaped(value),
            _ => match value % 8 {
                0 => Piece::Delimiter(value / 8),
                1 => Piece::BadEscape,
                2 => Piece::Unwise(value / 8),
                3 => Piece::Delims(value / 8),
                4 => Piece::Whitespace(value / 8),
                5 | 6 => Piece::NonAscii(u.arbitrary()?),
                _ => Piece::Backslash,
            },
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
            Piece::Reserved(i) => out.push(pick(b";:&=+$,", i)),
            Piece::Delimiter(i) => out.push(pick(b"/?#@", i)),
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
    /// A scheme of a letter, then letters, digits and `+-.`.
    Other(u8, Vec<u8>),
    /// Mutation: a scheme that starts with a digit.
    LeadingDigit(Vec<u8>),
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
            SchemeModel::Other(first, rest) => {
                out.push(pick(b"abcxyzABC", *first));
                for &b in rest.iter().take(8) {
                    out.push(pick(b"abcxyzABC019+-.", b));
                }
            }
            SchemeModel::LeadingDigit(rest) => {
                out.push('1');
                for &b in rest.iter().take(8) {
                    out.push(pick(b"abcxyz019+-.", b));
                }
            }
        }
    }
}

/// A domain label: letters, digits and `-`.
#[derive(Clone, Debug)]
pub struct Label(Vec<u8>);

impl<'a> Arbitrary<'a> for Label {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        short_vec(u, 8).map(Label)
    }
}

impl Label {
    fn render(&self, out: &mut String) {
        for &b in self.0.iter().take(12) {
            out.push(pick(b"abcdefghijklmnopqrstuvwxyz0123456789-ABCXYZ", b));
        }
        if self.0.is_empty() {
            out.push('h');
        }
    }
}

/// A host.
#[derive(Clone, Debug)]
pub enum HostModel {
    /// A hostname of labels (`a-b.example`), maybe with a trailing dot.
    Hostname(Vec<Label>, bool),
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

impl<'a> Arbitrary<'a> for HostModel {
    /// Hostnames most of the time, the other forms less often.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let selector: u8 = u.arbitrary()?;
        Ok(match selector {
            0..=149 => HostModel::Hostname(short_vec(u, 4)?, u.ratio(1, 8)?),
            150..=179 => HostModel::Ipv4(u.arbitrary()?),
            180..=199 => HostModel::Ipv4Number(u.arbitrary()?, u.arbitrary()?),
            200..=214 => HostModel::IpLiteral(u.arbitrary()?, u.arbitrary()?),
            215..=234 => HostModel::RegName(u.arbitrary()?),
            235..=244 => HostModel::Percent(short_vec(u, 8)?),
            _ => HostModel::Empty,
        })
    }
}

impl HostModel {
    fn render(&self, out: &mut String) {
        match self {
            HostModel::Hostname(labels, dot) => {
                for (i, label) in labels.iter().take(4).enumerate() {
                    if i > 0 {
                        out.push('.');
                    }
                    label.render(out);
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

/// A path segment with its `;params`, or (one time in six) a dot or empty
/// segment.
#[derive(Arbitrary, Clone, Debug)]
pub struct SegmentModel {
    /// 0-212 named, 213-226 `.`, 227-240 `..`, 241-255 empty.
    pub kind: u8,
    /// The segment's name.
    pub name: Text,
    /// Its `;params`.
    #[arbitrary(with = |u: &mut Unstructured<'_>| short_vec(u, 2))]
    pub params: Vec<Text>,
}

impl SegmentModel {
    fn render(&self, out: &mut String) {
        match self.kind {
            0..=212 => {
                self.name.render(out);
                for p in self.params.iter().take(3) {
                    out.push(';');
                    p.render(out);
                }
            }
            213..=226 => out.push('.'),
            227..=240 => out.push_str(".."),
            _ => {}
        }
    }
}

/// A whole URI reference.
#[derive(Arbitrary, Clone, Debug)]
pub struct UriModel {
    /// `scheme:`; `None` for a relative reference.
    pub scheme: Option<SchemeModel>,
    /// `//authority`.
    pub authority: Option<AuthorityModel>,
    /// Path segments.
    #[arbitrary(with = |u: &mut Unstructured<'_>| short_vec(u, 5))]
    pub segments: Vec<SegmentModel>,
    /// Whether the path starts with `/` (forced when there is an authority).
    pub absolute_path: bool,
    /// Mutation: `\` instead of `/` (when 255).
    pub backslashes: u8,
    /// `?query`.
    pub query: Option<Text>,
    /// `#fragment`.
    pub fragment: Option<Text>,
    /// Mutation: leading (250-252) or trailing (253-255) whitespace.
    pub padding: u8,
}

impl UriModel {
    /// Renders the model as a URI reference string.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if (250..=252).contains(&self.padding) {
            out.push(pick(b" \t\n", self.padding));
        }
        if let Some(scheme) = &self.scheme {
            scheme.render(&mut out);
            out.push(':');
        }
        let slash = if self.backslashes == u8::MAX {
            '\\'
        } else {
            '/'
        };
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
            segment.render(&mut out);
        }
        if let Some(q) = &self.query {
            out.push('?');
            q.render(&mut out);
        }
        if let Some(f) = &self.fragment {
            out.push('#');
            f.render(&mut out);
        }
        if self.padding >= 253 {
            out.push(pick(b" \t\n", self.padding));
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
