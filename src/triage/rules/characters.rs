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

/// java.net.URI's "other" characters (its class javadoc, Java SE 17,
/// "Character categories": the Unicode characters outside US-ASCII that
/// are neither ISO controls, `Character.isISOControl`, nor space
/// characters, `Character.isSpaceChar`) "are permitted wherever RFC 2396
/// permits escaped octets, that is, in the user-information, path, query,
/// and fragment components, as well as in the authority component if the
/// authority is registry-based". Claimed when rfc2396 refused the input
/// (with a base, the pair) first for a character outside ASCII, every
/// such character is "other", and the text with each of them written as
/// its escaped UTF-8 octets is one rfc2396 accepts: then each stood where
/// RFC 2396 permits an escaped octet (a server-based host takes none, so
/// `http://測試/` is a registry-based authority, as java.net.URI reads
/// it). Checked with OpenJDK 17.0.15: `new URI(s)`.
pub(crate) fn java_other_characters(ctx: &Ctx<'_, '_>) -> Diff {
    let first_non_ascii =
        matches!(ctx.error(), Some(e) if matches!(e.kind(), ErrorKind::NonAscii(_)));
    if !first_non_ascii || !ctx.theirs.accepted() {
        return Diff::NONE;
    }
    let (base, reference) = match ctx.resolved {
        Some(r) => (Some(r.base), r.reference),
        None => (None, ctx.input),
    };
    let other = |t: &str| t.chars().all(|c| c.is_ascii() || is_java_other(c));
    if !other(reference) || !base.is_none_or(other) {
        return Diff::NONE;
    }
    let reference = escaped_non_ascii(reference);
    let permitted = match base {
        None => crate::rfc2396::parse(&reference).is_ok(),
        Some(base) => crate::rfc2396::resolve(&escaped_non_ascii(base), &reference).is_ok(),
    };
    if permitted { Diff::VERDICT } else { Diff::NONE }
}

/// Is `c`, outside US-ASCII, in java.net.URI's "other" category: no ISO
/// control (U+0080 to U+009F, `Character.isISOControl`) and no space
/// character (`Character.isSpaceChar`: Unicode's `Zs`, `Zl` and `Zp`)?
fn is_java_other(c: char) -> bool {
    !c.is_ascii()
        && !matches!(
            c,
            '\u{80}'..='\u{a0}'
                | '\u{1680}'
                | '\u{2000}'..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
        )
}

/// `text` with every character outside ASCII written as its UTF-8 octets,
/// each escaped (RFC 2396 section 2.4.1).
fn escaped_non_ascii(text: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(text.len() * 3);
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// java.net.URI's categories, as OpenJDK 17.0.15 answered `new
    /// URI("http://h/" + c)`: U+00A0, U+3000 and U+2028 refused ("Illegal
    /// character in path"), U+0085 too (an ISO control); U+00AD, U+200B,
    /// U+FFFE and U+E000 accepted.
    #[test]
    fn java_other_characters_are_neither_iso_controls_nor_space_characters() {
        for c in ['\u{85}', '\u{a0}', '\u{2028}', '\u{3000}', 'a', ' '] {
            assert!(!is_java_other(c), "{c:?}");
        }
        for c in [
            '\u{ad}', '\u{e9}', '\u{200b}', '\u{fffe}', '\u{e000}', '\u{2764}',
        ] {
            assert!(is_java_other(c), "{c:?}");
        }
        assert_eq!(
            escaped_non_ascii("i\u{2764}.ws/\u{e9}"),
            "i%E2%9D%A4.ws/%C3%A9"
        );
    }
}
