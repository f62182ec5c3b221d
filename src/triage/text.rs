//! Text the rules read: schemes, percent-encoded octets, dot segments and
//! Windows drive letters, each as the standard that gives it meaning reads
//! it.

use std::borrow::Cow;

use percent_encoding::percent_decode_str;

use crate::components::Component;
use crate::rfc2396::chars;

/// Does `text` start with a scheme and `:`? `scheme = alpha *( alpha |
/// digit | "+" | "-" | "." )` (RFC 2396 section 3.1; RFC 3986 section 3.1
/// has the same rule), read with rfc2396's own character tables.
pub(crate) fn has_scheme(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else {
        return false;
    };
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| chars::ALPHA.contains(b))
        && bytes.all(|b| chars::SCHEME.contains(b))
}

/// Percent-decodes `s`, with ASCII letters of escapes in one case.
pub(crate) fn decoded(s: &str) -> Cow<'_, [u8]> {
    percent_decode_str(s).into()
}

/// Percent-decoded (lossily) and lower-cased.
pub(crate) fn decoded_lower(s: &str) -> String {
    String::from_utf8_lossy(&decoded(s)).to_ascii_lowercase()
}

/// The same octets once percent-decoded (RFC 2396 section 2.4.2: an escaped
/// octet and the octet stand for the same character, for unreserved ones).
pub(crate) fn same_octets(a: &str, b: &str) -> bool {
    a == b || decoded(a) == decoded(b)
}

/// Writes segments that WHATWG reads as dot segments (`%2e`, `.%2E`, …:
/// URL Standard, "single-dot" and "double-dot URL path segment") as `.`
/// and `..`.
pub(crate) fn decode_dot_segments(path: &str) -> Cow<'_, str> {
    if !path.contains('%') {
        return Cow::Borrowed(path);
    }
    // Written straight into one string (the segments joined by `/`), not
    // collected and joined: triage asks it of both sides of a path.
    let mut decoded = String::with_capacity(path.len());
    for (i, segment) in path.split('/').enumerate() {
        if i > 0 {
            decoded.push('/');
        }
        decoded.push_str(if is_double_dot(segment) {
            ".."
        } else if segment.eq_ignore_ascii_case("%2e") {
            "."
        } else {
            segment
        });
    }
    Cow::Owned(decoded)
}

/// A segment WHATWG reads as `..`: the URL Standard's "double-dot URL path
/// segment", `..` with either dot written `%2e` in any case.
pub(crate) fn is_double_dot(segment: &str) -> bool {
    ["..", ".%2e", "%2e.", "%2e%2e"]
        .iter()
        .any(|form| segment.eq_ignore_ascii_case(form))
}

/// `text` (a URI reference rfc2396 parses) with its path's `%2e` segments
/// written as the dot segments WHATWG and RFC 3986 parsers read them as.
pub(crate) fn with_dot_segments_decoded(text: &str) -> Option<Cow<'_, str>> {
    let parsed = crate::rfc2396::parse(text).ok()?;
    let span = parsed.span(Component::Path)?;
    let path = text.get(span.clone())?;
    match decode_dot_segments(path) {
        Cow::Borrowed(_) => Some(Cow::Borrowed(text)),
        Cow::Owned(decoded) => {
            let (head, tail) = (text.get(..span.start)?, text.get(span.end..)?);
            Some(Cow::Owned(format!("{head}{decoded}{tail}")))
        }
    }
}

/// The path with the `..` segments that climb above the root dropped (RFC
/// 3986 section 5.2.4 and the URL Standard), where RFC 2396 keeps them
/// (section 5.2 step 6g).
pub(crate) fn drop_above_root(path: &str) -> &str {
    let mut rooted = path;
    while let Some(rest) = rooted.strip_prefix("/..") {
        if rest.is_empty() || rest.starts_with('/') {
            rooted = if rest.is_empty() { "/" } else { rest };
        } else {
            break;
        }
    }
    rooted
}

/// Does `s` begin with what the URL Standard calls a Windows drive letter,
/// an ASCII letter then `:` or `|`? (Only those two code points: the
/// standard's "starts with a Windows drive letter" also looks at the
/// third, which the rules do not need.)
pub(crate) fn begins_with_drive_letter(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(u8::is_ascii_alphabetic) && matches!(b.get(1), Some(b':' | b'|'))
}

/// Is `segment` a Windows drive letter and nothing else (URL Standard:
/// "two code points, of which the first is an ASCII alpha and the second is
/// either U+003A (:) or U+007C (|)")?
pub(crate) fn is_drive_letter(segment: &str) -> bool {
    segment.len() == 2 && begins_with_drive_letter(segment)
}

/// `text` with RFC 3986 section 6.2.2.1's and 6.2.2.2's normalisations:
/// percent-encoded unreserved characters decoded, other hex digits upper
/// case.
pub(crate) fn pct_normalized(text: &str) -> String {
    pct_normalized_with(text, &[])
}

/// [`pct_normalized`], with the octets `unreserved` decoded as well: RFC
/// 2396 section 2.3's marks `!*'()`, unreserved there, where RFC 3986
/// makes them sub-delims.
pub(crate) fn pct_normalized_with(text: &str, unreserved: &[u8]) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let escape = (b == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match escape {
            Some(o)
                if o.is_ascii_alphanumeric()
                    || matches!(o, b'-' | b'.' | b'_' | b'~')
                    || unreserved.contains(&o) =>
            {
                out.push(char::from(o));
                i += 3;
            }
            Some(o) => {
                out.push_str(&format!("%{o:02X}"));
                i += 3;
            }
            None => {
                let ch = text
                    .get(i..)
                    .and_then(|t| t.chars().next())
                    .unwrap_or('\u{fffd}');
                out.push(ch);
                i += ch.len_utf8().max(1);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scheme_starts_with_a_letter_then_letters_digits_plus_minus_dot() {
        assert!(has_scheme("http://h/"));
        assert!(has_scheme("a+b-c.9:x"));
        assert!(!has_scheme("1http://h/"));
        assert!(!has_scheme("a_b:x"));
        assert!(!has_scheme(":x"));
        assert!(!has_scheme("no-colon"));
    }

    #[test]
    fn drive_letters_are_a_letter_then_colon_or_bar() {
        assert!(is_drive_letter("c:") && is_drive_letter("Z|"));
        assert!(!is_drive_letter("c:x") && !is_drive_letter("1:") && !is_drive_letter("c"));
        assert!(begins_with_drive_letter("c:/x") && begins_with_drive_letter("c|"));
        assert!(!begins_with_drive_letter("/c:"));
    }

    #[test]
    fn encoded_dots_are_read_as_dot_segments() {
        assert!(is_double_dot(".%2E") && is_double_dot("%2e%2E") && is_double_dot(".."));
        assert!(!is_double_dot("%2e") && !is_double_dot("..."));
        assert_eq!(decode_dot_segments("/a/%2e/%2E%2e/b"), "/a/./../b");
        assert_eq!(drop_above_root("/../../g"), "/g");
        assert_eq!(drop_above_root("/../"), "/");
    }

    #[test]
    fn rfc_2396_marks_decode_only_where_asked() {
        assert_eq!(pct_normalized("a%27%7e%2f"), "a%27~%2F");
        assert_eq!(pct_normalized_with("a%27%7e%2f", b"!*'()"), "a'~%2F");
        assert_eq!(pct_normalized_with("777707%27", b"!*'()"), "777707'");
    }
}
