//! What a standard permits a parser to answer besides its reference's
//! answer: the variations that make a departure from the reference a
//! `spec` finding rather than a defect. Triage's reading of the
//! reference's answer, kept here so that the reference (which only
//! answers) does not depend on triage's classes.

use crate::components::Component;
use crate::diff::diff;
use crate::oracle::{OracleId, Outcome, Standard};
use crate::triage::Class;

/// What the standard permits a parser to answer besides its reference's
/// answer `r`: the class that explains `theirs` (the answer of `id`), if
/// any. `pair` is the base and reference of a resolution, `input` the text
/// the case parsed.
pub(crate) fn variation(
    standard: Standard,
    (pair, input): (Option<(&str, &str)>, &str),
    (id, theirs): (OracleId, &Outcome<'_>),
    r: &Outcome<'_>,
) -> Option<Class> {
    if case_only(r, theirs) {
        return Some(Class::CaseNormalized);
    }
    // The reference's host as `id` writes it: another text form of one
    // IPv6 address, or the host reading its documentation gives
    // (`triage::reading`).
    if let Some(class) = super::reading::host_variation(id, r, theirs) {
        return Some(class);
    }
    // RFC 2396 section 6 says the same of a default port ("a URL with an
    // explicit ":port", where the port is the default for the scheme, is
    // equivalent to one where the port is elided").
    if let Some(class) = port_normalization(r, theirs)
        && (standard == Standard::Rfc3986
            || (standard == Standard::Rfc2396 && class == Class::DefaultPort))
    {
        return Some(class);
    }
    // With a base, only the case of the hexadecimal digits: a `%2E` the
    // resolution left (or took as a dot segment) is the question of the
    // resolution variations and the known deviations (fluent-uri's and
    // iri-string's `%2e`), not of how the result is written.
    if standard == Standard::Rfc3986 && percent_normalized(r, theirs, pair.is_none()) {
        return Some(Class::PercentEncoding);
    }
    if standard == Standard::Rfc3986
        && pair.is_none()
        && let Some(class) = super::reading::zone_variation(id, input, r, theirs)
    {
        return Some(class);
    }
    // java.net.URI's javadoc permits a single-label host that starts with
    // a digit, where RFC 2396's grammar reads a `reg_name`
    // (`java-single-label-host`).
    // The class's own scope says whose reading it is (no name here).
    let java_reading = || {
        super::classes::RULES
            .iter()
            .any(|rule| rule.class == Class::JavaSingleLabelHost && rule.scope.covers(id))
    };
    if standard == Standard::Rfc2396
        && r.components.get(Component::Host).is_none()
        && theirs
            .components
            .get(Component::Host)
            .is_some_and(crate::triage::rules::authority::is_java_single_label)
        && java_reading()
    {
        return Some(Class::JavaSingleLabelHost);
    }
    let variation = match (standard, pair) {
        (Standard::Rfc3986, Some((base, input))) => rfc3986_variation(base, input, r, theirs),
        (Standard::Rfc2396, _) => rfc2396_variation(r, theirs),
        _ => None,
    };
    if variation.is_some() {
        return variation;
    }
    // A parser whose documentation says it writes what it parses as RFC
    // 3986 section 6.2.2 normalises it (`syntax_normalized`: uri-js) may
    // give the reference's path with its unreserved escapes decoded and
    // the dot segments they spell removed (sections 6.2.2.2, 6.2.2.3).
    if standard == Standard::Rfc3986
        && id.descriptor().syntax_normalized.is_some()
        && syntax_normalized_path(r, theirs)
    {
        return Some(Class::DotSegments);
    }
    None
}

/// Do `r` and `theirs` differ only in the ASCII case of the scheme or the
/// host? Both are case-insensitive (RFC 3986 sections 3.1 and 3.2.2, and
/// 6.2.2.1 normalises them to lower case; RFC 2396 section 3.1 and 3.2.2),
/// so a parser that lower-cases them gives the same URI.
fn case_only(r: &Outcome<'_>, theirs: &Outcome<'_>) -> bool {
    let d = diff(r, theirs);
    !d.verdict
        && !d.fields.is_empty()
        && d.fields.iter().all(|c| {
            matches!(c, Component::Scheme | Component::Host)
                && match (r.components.get(c), theirs.components.get(c)) {
                    (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                    _ => false,
                }
        })
}

/// RFC 2396 section 3.2, `authority = server | reg_name`: where the
/// grammar reads a registry-based authority (only, or beside a `server`
/// it chose by convention), the scheme decides what the authority holds
/// (section 3.2.1: "specific to the URI scheme"); a parser that reads no
/// server there, or (with no server reading at all) refuses the authority
/// its scheme does not allow, breaks nothing the generic syntax says.
fn rfc2396_variation(r: &Outcome<'_>, theirs: &Outcome<'_>) -> Option<Class> {
    use crate::components::ComponentSet;
    use crate::oracle::Note;
    let reg_name_only = r.notes.contains(&Note::RegNameAuthority);
    let ambiguous = r
        .notes
        .iter()
        .any(|n| matches!(n, Note::GrammarAmbiguity(_)));
    if !reg_name_only && !ambiguous {
        return None;
    }
    let d = diff(r, theirs);
    let parts = ComponentSet::of(&[Component::Userinfo, Component::Host, Component::Port]);
    // The other reading has no userinfo, host or port: a parser that reads
    // a server the grammar does not have (`http://%41/` with host `%41`)
    // departs.
    let explained = if d.verdict {
        reg_name_only && !theirs.accepted()
    } else {
        !d.fields.is_empty()
            && d.fields.difference(parts).is_empty()
            && theirs.components.get(Component::Host).is_none()
    };
    explained.then_some(Class::RegNameAuthority)
}

/// With a base, RFC 3986's permitted variations: what a parser may answer
/// besides the strict algorithm's target (`reference`).
///
/// - Section 5.2.1: "Normalization of the base URI, as described in
///   Sections 6.2.2 and 6.2.3, is optional": the target resolved against
///   the normalised base (fluent-uri, for `""` against `h:/.`, gives `h:/`).
/// - Sections 4.3 and 5.1: a base is an `absolute-URI`; one with a
///   fragment may be refused rather than stripped.
/// - Section 5.2.4 with section 3.3: a target without authority whose path
///   starts with `//` cannot be written (its recomposition would read as an
///   authority); a parser that writes `/.` before it (fluent-uri and
///   iri-string both document it) keeps the same path, and so does one
///   that writes `./` before it (uriparser, whose `FixAmbiguity` puts a `.`
///   segment in front of a merged relative path): remove_dot_segments
///   takes either away again.
fn rfc3986_variation(
    base: &str,
    input: &str,
    reference: &Outcome<'_>,
    theirs: &Outcome<'_>,
) -> Option<Class> {
    let dot_prefix = |r: &Outcome<'_>| {
        let (Some(path), Some(their_path)) = (
            r.components.get(Component::Path),
            theirs.components.get(Component::Path),
        ) else {
            return false;
        };
        r.accepted()
            && theirs.accepted()
            && r.components.get(Component::Authority).is_none()
            && path.starts_with("//")
            && (their_path.strip_prefix("/.") == Some(path)
                || their_path.strip_prefix("./") == Some(path))
            && diff(r, theirs).fields.iter().all(|c| c == Component::Path)
    };
    if dot_prefix(reference) {
        return Some(Class::AmbiguousResolvedPath);
    }
    // Section 5.1: a base taken from a reference is "stripped of any
    // fragment component prior to its use as a base URI", and section 4.3
    // makes a base an `absolute-URI` (no fragment): the reference strips
    // it, a parser may refuse the base instead.
    if base.contains('#') && reference.accepted() && !theirs.accepted() {
        return Some(Class::BaseFragment);
    }
    let normalized = crate::oracle::grammar_rfc3986_resolve_normalized_base(base, input);
    if diff(&normalized, theirs).is_empty() || dot_prefix(&normalized) {
        return Some(Class::OptionalBaseNormalization);
    }
    None
}

/// The fields among `fields` on which one of `a` and `b` answers RFC 3986's
/// strict resolution of `input` against `base` (`r`, the reference's) and
/// the other its resolution against the normalised base, where the two
/// differ: section 5.2.1 makes that normalisation optional
/// (`optional-base-normalization`), so the pair disputes nothing there,
/// whatever else (a lost port) it disputes.
pub(crate) fn base_normalization_fields(
    (base, input): (&str, &str),
    r: &Outcome<'_>,
    (a, b): (&Outcome<'_>, &Outcome<'_>),
    fields: crate::components::ComponentSet,
) -> crate::components::ComponentSet {
    let mut explained = crate::components::ComponentSet::EMPTY;
    if !(r.accepted() && a.accepted() && b.accepted()) {
        return explained;
    }
    let normalized = crate::oracle::grammar_rfc3986_resolve_normalized_base(base, input);
    for c in fields.iter() {
        let (strict, lenient) = (r.components.get(c), normalized.components.get(c));
        let (x, y) = (a.components.get(c), b.components.get(c));
        if strict != lenient && ((x, y) == (strict, lenient) || (x, y) == (lenient, strict)) {
            explained = explained.with(c);
        }
    }
    explained
}

/// Where no one variation explains all of `theirs`'s departure from `r`
/// on `fields`: the variations that explain some of them, each with its
/// fields (RFC 3986 section 5.2.1's optional base normalisation, from
/// [`base_normalization_fields`]; the reference's host as `id` documents
/// writing it, [`host_reading`](super::reading::host_reading)).
pub(crate) fn partial_variations(
    standard: Standard,
    pair: Option<(&str, &str)>,
    (id, theirs): (OracleId, &Outcome<'_>),
    r: &Outcome<'_>,
    fields: crate::components::ComponentSet,
) -> Vec<(Class, crate::components::ComponentSet)> {
    use crate::components::ComponentSet;
    let mut parts = Vec::new();
    if standard == Standard::Rfc3986
        && let Some(pair) = pair
    {
        let explained = base_normalization_fields(pair, r, (r, theirs), fields);
        if !explained.is_empty() {
            parts.push((Class::OptionalBaseNormalization, explained));
        }
    }
    if fields.contains(Component::Host)
        && let (Some(written), Some(host)) = (
            r.components.get(Component::Host),
            theirs.components.get(Component::Host),
        )
        && let Some(class) =
            super::reading::host_reading(id, super::host::scheme_of(theirs, r), written, host)
    {
        // The authority too, where it differs only in that host.
        let authority = match (
            r.components.get(Component::Authority),
            theirs.components.get(Component::Authority),
        ) {
            (Some(a), Some(b)) => {
                fields.contains(Component::Authority) && a.replacen(written, host, 1) == b
            }
            _ => false,
        };
        let mut explained = ComponentSet::of(&[Component::Host]);
        if authority {
            explained = explained.with(Component::Authority);
        }
        parts.push((class, explained));
    }
    parts
}

/// RFC 3986 section 6.2.3 (scheme-based normalization): "the port
/// component ... should be omitted" when it is empty, and "when the port
/// is the default for the scheme": a URI with an empty port or its
/// scheme's default port is equivalent to the one without. Where only the
/// port differs in that way, the parser wrote the same URI
/// (`empty-port`, `default-port`), whatever RFC 3986 parser it is (RFC
/// 2396 section 6 says the same of a default port).
fn port_normalization(r: &Outcome<'_>, theirs: &Outcome<'_>) -> Option<Class> {
    let d = diff(r, theirs);
    if d.verdict || d.fields.iter().any(|c| c != Component::Port) || d.fields.is_empty() {
        return None;
    }
    let (ours, their) = (
        r.components.get(Component::Port),
        theirs.components.get(Component::Port),
    );
    match (ours, their) {
        (Some(""), None) | (None, Some("")) => Some(Class::EmptyPort),
        (Some(p), None) | (None, Some(p)) => {
            let scheme = super::host::scheme_of(r, theirs)?;
            let default = super::host::scheme_default_port(scheme)?;
            (p.parse::<u32>().ok() == Some(u32::from(default))).then_some(Class::DefaultPort)
        }
        _ => None,
    }
}

/// RFC 3986 section 6.2.2 (syntax-based normalization): the hexadecimal
/// digits of a percent-encoding are case-insensitive (6.2.2.1, upper case
/// preferred) and a percent-encoded unreserved character is that character
/// (6.2.2.2; only where `decode_unreserved`). Where every field that
/// differs is the same once normalised so (`%5c` and `%5C`, `%7e` and
/// `~`), the parser wrote the same URI.
fn percent_normalized(r: &Outcome<'_>, theirs: &Outcome<'_>, decode_unreserved: bool) -> bool {
    let d = diff(r, theirs);
    !d.verdict
        && !d.fields.is_empty()
        && d.fields.iter().all(|c| {
            !matches!(c, Component::Scheme | Component::Port)
                && match (r.components.get(c), theirs.components.get(c)) {
                    (Some(a), Some(b)) => {
                        (a.contains('%') || b.contains('%'))
                            && normalized_escapes(a, decode_unreserved)
                                == normalized_escapes(b, decode_unreserved)
                    }
                    _ => false,
                }
        })
}

/// `text` with its percent-encodings normalised (RFC 3986 section 6.2.2.1
/// and, where `decode_unreserved`, 6.2.2.2): an encoded unreserved
/// character decoded, any other triplet's hexadecimal digits in upper case.
pub(crate) fn normalized_escapes(text: &str, decode_unreserved: bool) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let hex = |j: usize| b.get(j).and_then(|h| char::from(*h).to_digit(16));
        if c == b'%'
            && let (Some(hi), Some(lo)) = (hex(i + 1), hex(i + 2))
        {
            let octet = u8::try_from(hi * 16 + lo).unwrap_or(b'%');
            if decode_unreserved
                && (octet.is_ascii_alphanumeric() || matches!(octet, b'-' | b'.' | b'_' | b'~'))
            {
                out.push(char::from(octet));
            } else {
                out.push_str(&format!("%{octet:02X}"));
            }
            i += 3;
            continue;
        }
        // Not a triplet: copy the character whole.
        let ch = text
            .get(i..)
            .and_then(|rest| rest.chars().next())
            .unwrap_or('\u{fffd}');
        out.push(ch);
        i += ch.len_utf8().max(1);
    }
    out
}

/// Do `r` and `theirs` differ only in the path, and is `theirs`'s the
/// reference's after RFC 3986 section 6.2.2.2 (escaped unreserved octets
/// decoded) and section 6.2.2.3 (dot segments removed)?
fn syntax_normalized_path(r: &Outcome<'_>, theirs: &Outcome<'_>) -> bool {
    let d = diff(r, theirs);
    if d.verdict || d.fields.iter().any(|c| c != Component::Path) {
        return false;
    }
    let (Some(ours), Some(their_path)) = (
        r.components.get(Component::Path),
        theirs.components.get(Component::Path),
    ) else {
        return false;
    };
    grammar::rfc3986::remove_dot_segments(&normalized_escapes(ours, true))
        == normalized_escapes(their_path, true)
}
