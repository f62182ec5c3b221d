//! The `structured` fuzz target's input: an `arbitrary` model of a URI
//! reference (scheme, userinfo, host forms, port forms, segments with
//! params, query, fragment) with controlled mutations, and its rendering.
//!
//! The decoding is a contract with the saved corpus: a corpus/structured/
//! file means a URI only through it, and tests/it/fuzzing.rs pins it. So each
//! choice reads exactly the bytes it always read: a weighted choice one
//! byte (its `Weights` table), a length one `int_in_range` (its `MAX_*`
//! cap), the derived types what `arbitrary`'s derive reads.

use std::fmt::Write as _;

use arbitrary::{Arbitrary, Unstructured};

mod host;
pub use host::{HostModel, Ipv4NumberForm, Label};

// Length caps, one per collection, applied where it is decoded (and only
// there: rendering takes what the model holds). Short runs keep bytes for
// the later parts of the model, so that whole references (scheme,
// authority, path, query, fragment) are common.

/// Pieces in one [`Text`].
const MAX_TEXT_PIECES: usize = 10;
/// Characters in one [`Label`].
const MAX_LABEL_CHARS: usize = 8;
/// Labels in a [`HostModel::Hostname`].
const MAX_HOSTNAME_LABELS: usize = 4;
/// Encoded characters in a [`HostModel::Percent`].
const MAX_PERCENT_HOST_CHARS: usize = 8;
/// Characters after the first in a [`SchemeModel::Other`] or
/// [`SchemeModel::LeadingDigit`]. These are read as `arbitrary` reads any
/// `Vec<u8>` (the saved corpus was made that way) and cut to the cap.
const MAX_SCHEME_TAIL: usize = 8;
/// `;params` of one [`SegmentModel`].
const MAX_SEGMENT_PARAMS: usize = 2;
/// Segments of a [`UriModel`]'s path.
const MAX_PATH_SEGMENTS: usize = 5;

/// A choice drawn from one byte: the options in byte order, each with its
/// weight. The byte modulo the total weight picks the option, so an option
/// of weight `w` in a table of total `t` is drawn `w` times in `t`. The
/// total divides 256, so that every share is exact over all byte values;
/// the tables are const items, so that is checked when compiled.
struct Weights<T: 'static> {
    options: &'static [(T, u16)],
    total: u16,
}

impl<T: Copy> Weights<T> {
    const fn new(options: &'static [(T, u16)]) -> Self {
        let mut total: u16 = 0;
        let mut rest = options;
        while let [(_, weight), tail @ ..] = rest {
            total += *weight;
            rest = tail;
        }
        assert!(
            total > 0 && 256 % total == 0,
            "weights must total a divisor of 256"
        );
        Weights { options, total }
    }

    /// The option `byte` picks, and what is left of the byte (the quotient
    /// by the total weight) for the option's own choice.
    fn pick(&self, byte: u8) -> arbitrary::Result<(T, u8)> {
        let byte = u16::from(byte);
        let (Some(mut at), Some(rest)) =
            (byte.checked_rem(self.total), byte.checked_div(self.total))
        else {
            return Err(arbitrary::Error::IncorrectFormat);
        };
        let rest = u8::try_from(rest).map_err(|_| arbitrary::Error::IncorrectFormat)?;
        for &(option, weight) in self.options {
            if at < weight {
                return Ok((option, rest));
            }
            at -= weight;
        }
        Err(arbitrary::Error::IncorrectFormat)
    }
}

/// A character of `table`, chosen by `i`.
fn pick(table: &[u8], i: u8) -> char {
    let len = table.len().max(1);
    char::from(table.get(usize::from(i) % len).copied().unwrap_or(b'a'))
}

/// `len` values of `T`, `len` read first and at most `max`.
fn short_vec<'a, T: Arbitrary<'a>>(
    u: &mut Unstructured<'a>,
    max: usize,
) -> arbitrary::Result<Vec<T>> {
    let len = u.int_in_range(0..=max)?;
    (0..len).map(|_| u.arbitrary()).collect()
}

// The characters each piece and part is drawn from.

const ALPHA: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT: &[u8] = b"0123456789";
/// RFC 2396's `mark`.
const MARK: &[u8] = b"-_.!~*'()";
/// RFC 2396's `reserved` but for the delimiters below.
const RESERVED: &[u8] = b";:&=+$,";
/// Characters that end or split a component.
const DELIMITER: &[u8] = b"/?#@";
/// RFC 2396's `unwise`.
const UNWISE: &[u8] = b"{}|\\^[]`";
/// RFC 2396's `delims` but for `%` and `#` (a bad escape and a delimiter of
/// their own).
const DELIMS: &[u8] = b"<>\"";
const WHITESPACE: &[u8] = b" \t\n\r\x00\x1f\x7f\x0b";
const SCHEME_FIRST: &[u8] = b"abcxyzABC";
const SCHEME_TAIL: &[u8] = b"abcxyzABC019+-.";
const LEADING_DIGIT_TAIL: &[u8] = b"abcxyz019+-.";
const LABEL: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789-ABCXYZ";
/// The characters a percent-encoded hostname encodes.
const PERCENT_HOST: &[u8] = b"abcdexyz.-019";
/// What a URI is padded with: what people paste around URLs.
const PADDING: &[u8] = b" \t\n";

/// Text built from pieces: mostly characters a URI component may hold, with
/// the occasional character that breaks some parser.
#[derive(Clone, Debug)]
pub struct Text(Vec<Piece>);

impl<'a> Arbitrary<'a> for Text {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        short_vec(u, MAX_TEXT_PIECES).map(Text)
    }
}

impl Text {
    fn render(&self, out: &mut String) {
        for p in &self.0 {
            p.render(out);
        }
    }
}

/// One piece of [`Text`]. The `u8` of a variant picks its character.
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

/// What a piece is drawn as.
#[derive(Clone, Copy, Debug)]
enum PieceKind {
    Alpha,
    Digit,
    Mark,
    Reserved,
    Escaped,
    Mutation,
}

/// Valid pieces 250 times in 256, mutations the rest: about one piece in
/// forty is a mutation, so that whole valid references are common and each
/// mutation stands out.
const PIECE_KINDS: Weights<PieceKind> = Weights::new(&[
    (PieceKind::Alpha, 110),
    (PieceKind::Digit, 40),
    (PieceKind::Mark, 30),
    (PieceKind::Reserved, 40),
    (PieceKind::Escaped, 30),
    (PieceKind::Mutation, 6),
]);

/// Which mutation a mutation piece is.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    Delimiter,
    BadEscape,
    Unwise,
    Delims,
    Whitespace,
    NonAscii,
    Backslash,
}

/// The mutations share alike, but non-ASCII characters have two shares.
const MUTATIONS: Weights<Mutation> = Weights::new(&[
    (Mutation::Delimiter, 1),
    (Mutation::BadEscape, 1),
    (Mutation::Unwise, 1),
    (Mutation::Delims, 1),
    (Mutation::Whitespace, 1),
    (Mutation::NonAscii, 2),
    (Mutation::Backslash, 1),
]);

impl<'a> Arbitrary<'a> for Piece {
    /// Two bytes: the kind, then the character (a mutation's kind and its
    /// character share the second byte); a non-ASCII character reads its
    /// own `char` after them.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let selector: u8 = u.arbitrary()?;
        let value: u8 = u.arbitrary()?;
        let (kind, _) = PIECE_KINDS.pick(selector)?;
        Ok(match kind {
            PieceKind::Alpha => Piece::Alpha(value),
            PieceKind::Digit => Piece::Digit(value),
            PieceKind::Mark => Piece::Mark(value),
            PieceKind::Reserved => Piece::Reserved(value),
            PieceKind::Escaped => Piece::Escaped(value),
            PieceKind::Mutation => {
                let (mutation, index) = MUTATIONS.pick(value)?;
                match mutation {
                    Mutation::Delimiter => Piece::Delimiter(index),
                    Mutation::BadEscape => Piece::BadEscape,
                    Mutation::Unwise => Piece::Unwise(index),
                    Mutation::Delims => Piece::Delims(index),
                    Mutation::Whitespace => Piece::Whitespace(index),
                    Mutation::NonAscii => Piece::NonAscii(u.arbitrary()?),
                    Mutation::Backslash => Piece::Backslash,
                }
            }
        })
    }
}

impl Piece {
    fn render(self, out: &mut String) {
        match self {
            Piece::Alpha(i) => out.push(pick(ALPHA, i)),
            Piece::Digit(i) => out.push(pick(DIGIT, i)),
            Piece::Mark(i) => out.push(pick(MARK, i)),
            Piece::Reserved(i) => out.push(pick(RESERVED, i)),
            Piece::Delimiter(i) => out.push(pick(DELIMITER, i)),
            Piece::Escaped(b) => {
                let _ = write!(out, "%{b:02X}");
            }
            Piece::BadEscape => out.push_str("%z"),
            Piece::Unwise(i) => out.push(pick(UNWISE, i)),
            Piece::Delims(i) => out.push(pick(DELIMS, i)),
            Piece::Whitespace(i) => out.push(pick(WHITESPACE, i)),
            // An ASCII `char` would be no mutation: take a non-ASCII one.
            Piece::NonAscii(c) if c.is_ascii() => out.push('é'),
            Piece::NonAscii(c) => out.push(c),
            Piece::Backslash => out.push('\\'),
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
    Other(u8, #[arbitrary(with = scheme_tail)] Vec<u8>),
    /// Mutation: a scheme that starts with a digit.
    LeadingDigit(#[arbitrary(with = scheme_tail)] Vec<u8>),
}

/// The characters of a scheme after its first.
fn scheme_tail(u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<u8>> {
    let mut tail: Vec<u8> = u.arbitrary()?;
    tail.truncate(MAX_SCHEME_TAIL);
    Ok(tail)
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
            SchemeModel::Other(first, tail) => {
                out.push(pick(SCHEME_FIRST, *first));
                for &b in tail {
                    out.push(pick(SCHEME_TAIL, b));
                }
            }
            SchemeModel::LeadingDigit(tail) => {
                out.push('1');
                for &b in tail {
                    out.push(pick(LEADING_DIGIT_TAIL, b));
                }
            }
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
    /// Out of range: 65536 and up.
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
            PortModel::Big(n) => write!(out, "{}", u64::from(*n) + u64::from(u16::MAX) + 1),
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

/// What a path segment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentKind {
    /// A name with its `;params`.
    Named,
    /// `.`
    Dot,
    /// `..`
    DotDot,
    /// Nothing between two slashes.
    Empty,
}

/// Named segments most of the time; a dot, a dot-dot or an empty segment
/// each about one time in eighteen, so that resolution's dot-segment
/// removal has work to do.
const SEGMENT_KINDS: Weights<SegmentKind> = Weights::new(&[
    (SegmentKind::Named, 213),
    (SegmentKind::Dot, 14),
    (SegmentKind::DotDot, 14),
    (SegmentKind::Empty, 15),
]);

impl<'a> Arbitrary<'a> for SegmentKind {
    /// One byte.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        SEGMENT_KINDS.pick(u.arbitrary()?).map(|(kind, _)| kind)
    }
}

/// A path segment with its `;params`, or a dot or empty segment.
#[derive(Arbitrary, Clone, Debug)]
pub struct SegmentModel {
    /// Named, `.`, `..` or empty.
    pub kind: SegmentKind,
    /// The segment's name (when named).
    pub name: Text,
    /// Its `;params` (when named).
    #[arbitrary(with = |u: &mut Unstructured<'_>| short_vec(u, MAX_SEGMENT_PARAMS))]
    pub params: Vec<Text>,
}

impl SegmentModel {
    fn render(&self, out: &mut String) {
        match self.kind {
            SegmentKind::Named => {
                self.name.render(out);
                for p in &self.params {
                    out.push(';');
                    p.render(out);
                }
            }
            SegmentKind::Dot => out.push('.'),
            SegmentKind::DotDot => out.push_str(".."),
            SegmentKind::Empty => {}
        }
    }
}

/// The separator of a [`UriModel`]'s authority and path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slash {
    /// `/`
    Forward,
    /// Mutation: `\`, which WHATWG reads as `/` in special URLs.
    Back,
}

/// Backslashes one time in 256: the choice turns every separator of the
/// URI at once.
const SLASHES: Weights<Slash> = Weights::new(&[(Slash::Forward, 255), (Slash::Back, 1)]);

impl<'a> Arbitrary<'a> for Slash {
    /// One byte.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        SLASHES.pick(u.arbitrary()?).map(|(slash, _)| slash)
    }
}

/// Whitespace around a [`UriModel`]'s rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Padding {
    /// None.
    None,
    /// Mutation: this character before the URI.
    Leading(char),
    /// Mutation: this character after the URI.
    Trailing(char),
}

/// Which side is padded.
#[derive(Clone, Copy, Debug)]
enum PaddingSide {
    None,
    Leading,
    Trailing,
}

/// Padding one time in about forty, either side alike.
const PADDINGS: Weights<PaddingSide> = Weights::new(&[
    (PaddingSide::None, 250),
    (PaddingSide::Leading, 3),
    (PaddingSide::Trailing, 3),
]);

impl<'a> Arbitrary<'a> for Padding {
    /// One byte: it picks the side, and the character too.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let byte: u8 = u.arbitrary()?;
        let (side, _) = PADDINGS.pick(byte)?;
        Ok(match side {
            PaddingSide::None => Padding::None,
            PaddingSide::Leading => Padding::Leading(pick(PADDING, byte)),
            PaddingSide::Trailing => Padding::Trailing(pick(PADDING, byte)),
        })
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
    #[arbitrary(with = |u: &mut Unstructured<'_>| short_vec(u, MAX_PATH_SEGMENTS))]
    pub segments: Vec<SegmentModel>,
    /// Whether the path starts with `/` (forced when there is an authority).
    pub absolute_path: bool,
    /// `/` or, as a mutation, `\` after the scheme and between segments.
    pub slash: Slash,
    /// `?query`.
    pub query: Option<Text>,
    /// `#fragment`.
    pub fragment: Option<Text>,
    /// Mutation: leading or trailing whitespace.
    pub padding: Padding,
}

impl UriModel {
    /// Renders the model as a URI reference string.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if let Padding::Leading(c) = self.padding {
            out.push(c);
        }
        if let Some(scheme) = &self.scheme {
            scheme.render(&mut out);
            out.push(':');
        }
        let slash = match self.slash {
            Slash::Forward => '/',
            Slash::Back => '\\',
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
        for (i, segment) in self.segments.iter().enumerate() {
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
        if let Padding::Trailing(c) = self.padding {
            out.push(c);
        }
        out
    }
}
