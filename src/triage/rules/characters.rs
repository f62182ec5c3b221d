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
