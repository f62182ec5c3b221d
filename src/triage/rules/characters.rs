//! Characters RFC 2396 refuses or reads literally, which the other parser
//! strips, encodes or tolerates (RFC 2396 sections 2.1 and 2.4).

use super::rejected_with;
use crate::diff::Diff;
use crate::rfc2396::ErrorKind;
use crate::triage::Ctx;
use crate::triage::text::same_octets;

/// RFC 2396 section 2.4.3 excludes `control` and `space`; WHATWG (URL
/// Standard, basic URL parser) strips leading and trailing C0 controls and
/// spaces and removes tabs and newlines anywhere.
pub(crate) fn whitespace_or_control(ctx: &Ctx<'_, '_>) -> Diff {
    rejected_with(ctx, |k, _| {
        matches!(k, ErrorKind::Control(_) | ErrorKind::Space)
    })
}

/// RFC 2396 section 2.1: non-ASCII characters must be escaped; WHATWG
/// percent-encodes them (or maps a host through IDNA, UTS #46).
pub(crate) fn non_ascii(ctx: &Ctx<'_, '_>) -> Diff {
    rejected_with(ctx, |k, _| matches!(k, ErrorKind::NonAscii(_)))
}

/// `\` is `unwise` (RFC 2396 section 2.4.3); WHATWG reads it as `/` in
/// special schemes (URL Standard, "special scheme" path state).
pub(crate) fn backslash(ctx: &Ctx<'_, '_>) -> Diff {
    rejected_with(ctx, |k, _| k == ErrorKind::Unwise(b'\\'))
}

/// Other `unwise` characters (RFC 2396 section 2.4.3), which RFC 3986 still
/// excludes but WHATWG percent-encodes or tolerates.
pub(crate) fn unwise_character(ctx: &Ctx<'_, '_>) -> Diff {
    rejected_with(ctx, |k, _| matches!(k, ErrorKind::Unwise(_)))
}

/// `delims` (RFC 2396 section 2.4.3): `<`, `>`, `"`, and `#` after the
/// fragment delimiter.
pub(crate) fn delims_character(ctx: &Ctx<'_, '_>) -> Diff {
    rejected_with(ctx, |k, _| matches!(k, ErrorKind::Delims(_)))
}

/// `escaped = "%" hex hex` (RFC 2396 section 2.4.1); WHATWG keeps a stray `%`.
pub(crate) fn invalid_escape(ctx: &Ctx<'_, '_>) -> Diff {
    rejected_with(ctx, |k, _| k == ErrorKind::InvalidEscape)
}

/// The same octets, percent-encoded differently: WHATWG encodes characters
/// its percent-encode sets name (`'` in special queries, for one).
pub(crate) fn percent_encoding(ctx: &Ctx<'_, '_>) -> Diff {
    Diff::of_fields(ctx.fields_where(|ours, theirs| match (ours, theirs) {
        (Some(a), Some(b)) => same_octets(a, b),
        _ => false,
    }))
}

/// Addressable documents RFC 3987 beside RFC 3986: an IRI takes `ucschar`
/// (RFC 3987 section 2.2) where a URI takes only ASCII. Claimed when
/// rfc2396 refused the input first for a character outside ASCII and every
/// character is one an IRI may hold: RFC 3986's (unreserved, reserved,
/// `%`) or a `ucschar` (not `iprivate`, which only a query may hold, nor a
/// control or a non-character).
pub(crate) fn iri_characters(ctx: &Ctx<'_, '_>) -> Diff {
    let iri = ctx.input.chars().all(|c| {
        (c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=%".contains(c)) || is_ucschar(c)
    });
    if iri {
        rejected_with(ctx, |k, _| matches!(k, ErrorKind::NonAscii(_)))
    } else {
        Diff::NONE
    }
}

/// RFC 3987 section 2.2, `ucschar`.
pub(crate) fn is_ucschar(c: char) -> bool {
    let n = u32::from(c);
    let low = n & 0xFFFF;
    matches!(n, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
        || ((0x1_0000..=0xD_FFFF).contains(&n) && low <= 0xFFFD)
}
