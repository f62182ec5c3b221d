//! The ordered rule table. Earlier rules win: specific explanations (an IP
//! literal, an IPv4 number form) come before general ones (a reg_name
//! authority, a case difference). Each rule names the spec sections behind
//! it and has at least one input in `tests/triage.rs` that triggers it.

use std::borrow::Cow;

use percent_encoding::percent_decode_str;

use super::{Class, Ctx, Explains};
use crate::components::{Component, ComponentSet, component_name};
use crate::oracle::{OracleId, Verdict};
use crate::rfc2396::{AuthorityKind, ErrorKind, Production, RefKind, remove_dot_segments};

/// One row of the table. The class's basis, severity and spec sections are
/// in its catalogue row (`classes.rs`); the rule says when it applies.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// The class a claim is filed under.
    pub class: Class,
    /// What of the open disagreement this rule explains.
    pub explain: fn(&Ctx<'_, '_>) -> Explains,
}

/// The rules, in the order they are tried.
pub const RULES: &[Rule] = &[
    rule(Class::LengthLimit, length_limit),
    rule(Class::CurlLenientCharacters, curl_lenient_characters),
    rule(Class::CurlFileHost, curl_file_host),
    rule(Class::CurlHostRequired, curl_host_required),
    rule(Class::CurlSlashes, curl_slashes),
    rule(Class::WhitespaceOrControl, whitespace_or_control),
    rule(Class::NonAscii, non_ascii),
    rule(Class::IpLiteral, ip_literal),
    rule(Class::Backslash, backslash),
    rule(Class::UnwiseCharacter, unwise_character),
    rule(Class::DelimsCharacter, delims_character),
    rule(Class::InvalidEscape, invalid_escape),
    rule(Class::EmptyOpaquePart, empty_opaque_part),
    rule(Class::QueryOnlyReference, query_only_reference),
    rule(Class::SchemeSyntax, scheme_syntax),
    rule(Class::AuthorityForm, authority_form),
    rule(Class::AuthorityColons, authority_colons),
    rule(Class::NetworkPathReference, network_path_reference),
    rule(Class::SameSchemeReference, same_scheme_reference),
    rule(Class::BaseFragment, base_fragment),
    rule(Class::BaseIgnored, base_ignored),
    rule(Class::BaseRefused, base_refused),
    rule(Class::OpaqueBase, opaque_base),
    rule(Class::AmbiguousResolvedPath, ambiguous_resolved_path),
    rule(Class::QueryOnlyResolution, query_only_resolution),
    rule(Class::FileScheme, file_scheme),
    rule(Class::SpecialSchemeSlashes, special_scheme_slashes),
    rule(Class::MissingAuthority, missing_authority),
    rule(Class::RelativeReference, relative_reference),
    rule(Class::FragmentDropped, fragment_dropped),
    rule(Class::PercentEncodedHost, percent_encoded_host),
    rule(Class::Ipv4NumberForm, ipv4_number_form),
    rule(Class::IdnaHost, idna_host),
    rule(Class::PortOutOfRange, port_out_of_range),
    rule(Class::RegNameAuthority, reg_name_authority),
    rule(Class::JavaEmptyAuthority, java_empty_authority),
    rule(Class::EmptyHost, empty_host),
    rule(Class::EmptyUserinfo, empty_userinfo),
    rule(Class::EmptyPassword, empty_password),
    rule(Class::EmptyPort, empty_port),
    rule(Class::DefaultPort, default_port),
    rule(Class::PortNormalized, port_normalized),
    rule(Class::OpaquePartQuery, opaque_part_query),
    rule(Class::CaseNormalized, case_normalized),
    rule(Class::EmptyPathSlash, empty_path_slash),
    rule(Class::DotSegments, dot_segments),
    rule(Class::WindowsDriveLetter, windows_drive_letter),
    rule(Class::PercentEncoding, percent_encoding),
    // Last: with a base, what is left once every rule about the resolved
    // URI itself has had its say comes from how the pair was resolved.
    rule(Class::EncodedDotSegment, encoded_dot_segment),
    rule(Class::NormalizedBase, normalized_base),
];

const fn rule(class: Class, explain: fn(&Ctx<'_, '_>) -> Explains) -> Rule {
    Rule { class, explain }
}

/// Fields that belong to the authority.
const AUTHORITY_PARTS: ComponentSet = ComponentSet::of(&[
    Component::Authority,
    Component::Userinfo,
    Component::Host,
    Component::Port,
]);

/// The verdict, when rfc2396 rejected the input with an error for which `pick` holds.
fn rejected_with(ctx: &Ctx<'_, '_>, pick: impl Fn(ErrorKind, Production) -> bool) -> Explains {
    match ctx.error() {
        Some(e) if pick(e.kind(), e.production()) => Explains::VERDICT,
        _ => Explains::NOTHING,
    }
}

/// `http::Uri` refuses request targets over 65 534 bytes (its `MAX_LEN`)
/// and schemes over 64 bytes (`MAX_SCHEME_LEN`); libcurl refuses input over
/// 8 000 000 bytes (`CURL_MAX_INPUT_LENGTH`) and schemes over 40 bytes
/// (`MAX_SCHEME_LEN`, lib/urlapi.c); RFC 2396 sets no limits.
fn length_limit(ctx: &Ctx<'_, '_>) -> Explains {
    let (max_len, max_scheme_len) = match ctx.oracle {
        OracleId::Http => (u16::MAX as usize - 1, 64),
        OracleId::Curl => (8_000_000, 40),
        _ => return Explains::NOTHING,
    };
    // With a base, libcurl reads a reference whose "scheme" is too long
    // for it as a relative reference, and resolves it against the base.
    if let Some((_, reference)) = ctx.resolution
        && ctx.oracle == OracleId::Curl
        && ctx.other.accepted()
        && has_scheme(reference)
        && reference
            .split(':')
            .next()
            .is_some_and(|s| s.len() > max_scheme_len)
    {
        return Explains {
            verdict: false,
            fields: ComponentSet::ALL,
        };
    }
    let too_long = ctx.input.len() > max_len
        || ctx
            .ours(Component::Scheme)
            .is_some_and(|s| s.len() > max_scheme_len);
    if too_long && !ctx.other.accepted() {
        Explains::VERDICT
    } else {
        Explains::NOTHING
    }
}

/// curl "only does limited checks of the format" and passes illegal
/// characters on (everything.curl.dev, "URLs"); it percent-encodes bytes
/// outside printable ASCII (curl docs/URL-SYNTAX.md, "non-ASCII"). So it
/// accepts what RFC 2396 section 2.4.3 calls unwise or delims, stray `%`
/// and non-ASCII text.
fn curl_lenient_characters(ctx: &Ctx<'_, '_>) -> Explains {
    if ctx.oracle != OracleId::Curl || !ctx.other.accepted() {
        return Explains::NOTHING;
    }
    rejected_with(ctx, |k, _| {
        matches!(
            k,
            ErrorKind::Unwise(_)
                | ErrorKind::Delims(_)
                | ErrorKind::InvalidEscape
                | ErrorKind::NonAscii(_)
        )
    })
}

/// Is this the `file` scheme?
fn is_file(ctx: &Ctx<'_, '_>) -> bool {
    ctx.scheme().is_some_and(|s| s.eq_ignore_ascii_case("file"))
}

/// curl's `file://` URLs take only `localhost`, `127.0.0.1` or no host
/// (everything.curl.dev, "The scheme separator"; curl's test 1145), report
/// the host as none, and refuse what names no local file (libcurl's
/// `CURLUE_BAD_FILE_URL`: `file:/`, a drive letter off Windows).
fn curl_file_host(ctx: &Ctx<'_, '_>) -> Explains {
    if ctx.oracle != OracleId::Curl || !is_file(ctx) {
        return Explains::NOTHING;
    }
    let local = |h: &str| h.is_empty() || h.eq_ignore_ascii_case("localhost") || h == "127.0.0.1";
    let ours = ctx.ours(Component::Host).or_else(|| our_host_text(ctx));
    if !ctx.other.accepted() {
        // A host other than those, or no path to a local file at all
        // (`file:/`, or a drive letter, which curl takes only on Windows:
        // CURLUE_BAD_FILE_URL).
        return Explains::VERDICT;
    }
    if ctx.theirs(Component::Host).is_none_or(str::is_empty) && ours.is_none_or(local) {
        Explains::fields(ComponentSet::of(&[Component::Host, Component::Authority]))
    } else {
        Explains::NOTHING
    }
}

/// curl needs a host in every URL but `file://` (libcurl's
/// `CURLUE_NO_HOST`, "no host part in the URL"; curl docs/URL-SYNTAX.md,
/// "Hostname"), where RFC 2396 allows `scheme:/path`, an empty authority
/// and opaque URIs (section 3).
fn curl_host_required(ctx: &Ctx<'_, '_>) -> Explains {
    if ctx.oracle != OracleId::Curl || ctx.other.accepted() || is_file(ctx) {
        return Explains::NOTHING;
    }
    match ctx.parsed {
        Ok(r) if r.kind().is_absolute() && r.host().is_none_or(str::is_empty) => Explains::VERDICT,
        _ => Explains::NOTHING,
    }
}

/// curl "understands and accepts URLs with one or three slashes" after the
/// scheme (everything.curl.dev, "The scheme separator"): `a:/h/p` and
/// `a:///h/p` reach host `h`, where RFC 2396 reads an `abs_path` or an empty
/// authority (section 3). Claimed when curl's host is the first segment
/// rfc2396 read as its path.
fn curl_slashes(ctx: &Ctx<'_, '_>) -> Explains {
    if ctx.oracle != OracleId::Curl || !ctx.other.accepted() {
        return Explains::NOTHING;
    }
    let Ok(r) = ctx.parsed else {
        return Explains::NOTHING;
    };
    if r.authority().is_some_and(|a| !a.is_empty()) {
        return Explains::NOTHING;
    }
    // With a base, curl may have found its host in the base's path.
    let base_path = ctx
        .resolution
        .filter(|(_, reference)| !has_scheme(reference))
        .and_then(|_| base_parsed(ctx))
        .filter(|b| b.authority().is_none_or(str::is_empty))
        .map(|b| b.path().to_owned());
    // The first segment of a path, as curl would read it as a host.
    let first_segment = |path: &str| -> String {
        let first = path
            .trim_start_matches('/')
            .split(['/', '?'])
            .next()
            .unwrap_or_default();
        let first = first.rsplit_once('@').map_or(first, |(_, h)| h);
        first.split(':').next().unwrap_or_default().to_owned()
    };
    let ours = ctx.ours(Component::Path).unwrap_or_default();
    let candidates = [
        base_path.as_deref().map(first_segment),
        Some(first_segment(ours)),
    ];
    let found = ctx.theirs(Component::Host).is_some_and(|h| {
        candidates
            .iter()
            .flatten()
            .any(|first| h.eq_ignore_ascii_case(first) || same_address(first, h))
    });
    if found {
        Explains::fields(
            AUTHORITY_PARTS
                .with(Component::Path)
                .union(opaque_query(ctx)),
        )
    } else {
        Explains::NOTHING
    }
}

/// RFC 2396 section 2.4.3 excludes `control` and `space`; WHATWG (URL
/// Standard, basic URL parser) strips leading and trailing C0 controls and
/// spaces and removes tabs and newlines anywhere.
fn whitespace_or_control(ctx: &Ctx<'_, '_>) -> Explains {
    rejected_with(ctx, |k, _| {
        matches!(k, ErrorKind::Control(_) | ErrorKind::Space)
    })
}

/// RFC 2396 section 2.1: non-ASCII characters must be escaped; WHATWG
/// percent-encodes them (or maps a host through IDNA, UTS #46).
fn non_ascii(ctx: &Ctx<'_, '_>) -> Explains {
    rejected_with(ctx, |k, _| matches!(k, ErrorKind::NonAscii(_)))
}

/// `[` and `]` are `unwise` in RFC 2396 section 2.4.3; RFC 2732 and RFC 3986
/// section 3.2.2 use them for IP literals.
///
/// Claimed only when the accepting parser's host is what RFC 3986 section
/// 3.2.2 prescribes, an `IP-literal`: anything else bracketed is the
/// parser's own defect (`invalid-ip-literal`), not this spec difference.
fn ip_literal(ctx: &Ctx<'_, '_>) -> Explains {
    let host_is_ip_literal = ctx
        .theirs(Component::Host)
        .is_some_and(super::ip_literal::is_ip_literal);
    if !host_is_ip_literal {
        return Explains::NOTHING;
    }
    rejected_with(ctx, |k, r| {
        matches!(k, ErrorKind::Unwise(b'[' | b']')) && r == Production::Authority
    })
}

/// `\` is `unwise` (RFC 2396 section 2.4.3); WHATWG reads it as `/` in
/// special schemes (URL Standard, "special scheme" path state).
fn backslash(ctx: &Ctx<'_, '_>) -> Explains {
    if !ctx.whatwg() {
        return Explains::NOTHING;
    }
    rejected_with(ctx, |k, _| k == ErrorKind::Unwise(b'\\'))
}

/// Other `unwise` characters (RFC 2396 section 2.4.3), which RFC 3986 still
/// excludes but WHATWG percent-encodes or tolerates.
fn unwise_character(ctx: &Ctx<'_, '_>) -> Explains {
    rejected_with(ctx, |k, _| matches!(k, ErrorKind::Unwise(_)))
}

/// `delims` (RFC 2396 section 2.4.3): `<`, `>`, `"`, and `#` after the
/// fragment delimiter.
fn delims_character(ctx: &Ctx<'_, '_>) -> Explains {
    rejected_with(ctx, |k, _| matches!(k, ErrorKind::Delims(_)))
}

/// `escaped = "%" hex hex` (RFC 2396 section 2.4.1); WHATWG keeps a stray `%`.
fn invalid_escape(ctx: &Ctx<'_, '_>) -> Explains {
    rejected_with(ctx, |k, _| k == ErrorKind::InvalidEscape)
}

/// `opaque_part = uric_no_slash *uric` cannot be empty (RFC 2396 section 3);
/// RFC 3986 section 3 (`path-empty`) and WHATWG allow `about:`.
fn empty_opaque_part(ctx: &Ctx<'_, '_>) -> Explains {
    rejected_with(ctx, |k, _| k == ErrorKind::EmptyOpaquePart)
}

/// `rel_segment = 1*(...)` makes `?y` underivable (RFC 2396 Appendix A),
/// though Appendix C resolves it; RFC 3986 section 4.2 allows it.
fn query_only_reference(ctx: &Ctx<'_, '_>) -> Explains {
    rejected_with(ctx, |k, _| k == ErrorKind::MissingRelSegment)
}

/// `scheme = alpha *( alpha | digit | "+" | "-" | "." )` (RFC 2396 section
/// 3.1): text before `:` that is not a scheme leaves a relative path whose
/// first segment may not hold `:` (section 5). Also covers a parser that
/// takes such text as a scheme where rfc2396 read a relative path: then
/// the scheme, and the path that rfc2396 read from the same text, differ
/// because of it (claimed only when rfc2396's path starts with their
/// scheme and `:`).
fn scheme_syntax(ctx: &Ctx<'_, '_>) -> Explains {
    let rejected = rejected_with(ctx, |k, _| k == ErrorKind::ColonInRelSegment);
    if !rejected.is_empty() {
        return rejected;
    }
    let (None, Some(theirs)) = (ctx.ours(Component::Scheme), ctx.theirs(Component::Scheme)) else {
        return Explains::NOTHING;
    };
    let read_as_path = ctx.ours(Component::Path).is_some_and(|p| {
        p.get(..theirs.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(theirs))
            && p.as_bytes().get(theirs.len()) == Some(&b':')
    });
    if !read_as_path {
        return Explains::fields(ComponentSet::of(&[Component::Scheme]));
    }
    // The rest of rfc2396's path is what the other split into its parts.
    Explains::fields(
        ComponentSet::ALL.difference(ComponentSet::of(&[Component::Query, Component::Fragment])),
    )
}

/// `http::Uri` accepts the authority-form request target of RFC 9112
/// section 3.2.3 (`host:port`, used by CONNECT), so `mailto:a@b`,
/// `localhost:8080` and even `g` become an authority where RFC 2396 sees a
/// scheme and an `opaque_part` (section 3), or a `rel_path` (section 5).
fn authority_form(ctx: &Ctx<'_, '_>) -> Explains {
    if ctx.oracle != OracleId::Http {
        return Explains::NOTHING;
    }
    let Ok(r) = ctx.parsed else {
        return Explains::NOTHING;
    };
    if ctx.other.accepted() {
        // Justified only when the whole input is the authority, as
        // authority-form prescribes (`uri-host ":" port`, nothing else).
        let read_as_authority = ctx.theirs(Component::Scheme).is_none()
            && ctx.theirs(Component::Authority) == Some(ctx.input);
        if read_as_authority && r.authority().is_none() {
            return Explains::fields(ComponentSet::ALL);
        }
        Explains::NOTHING
    } else if r.kind() == RefKind::AbsoluteOpaque {
        // Rejected as an authority-form target that is not a valid authority.
        Explains::VERDICT
    } else {
        Explains::NOTHING
    }
}

/// `http::Uri` refuses an authority in which more than eight `:` come
/// before the host (http 1.5 `validate_authority_bytes`, `MAX_COLONS`: a
/// bound meant for IPv6 literals that also counts userinfo colons, resetting
/// only at `@` and `]`). RFC 2396 `userinfo` takes any number (section 3.2.2).
fn authority_colons(ctx: &Ctx<'_, '_>) -> Explains {
    const HTTP_MAX_COLONS: usize = 8;
    let Some(authority) = ctx.ours(Component::Authority) else {
        return Explains::NOTHING;
    };
    let mut run = 0;
    let mut too_many = false;
    for b in authority.bytes() {
        match b {
            b':' => {
                run += 1;
                too_many |= run > HTTP_MAX_COLONS;
            }
            b'@' | b']' => run = 0,
            _ => {}
        }
    }
    if ctx.oracle == OracleId::Http && too_many && !ctx.other.accepted() {
        Explains::VERDICT
    } else {
        Explains::NOTHING
    }
}

/// `//g` is a network-path reference (RFC 2396 section 5: `net_path`) with
/// host `g`; `http::Uri` reads it as an origin-form path (RFC 9112 section
/// 3.2.1: `absolute-path`), so the same text names another server for one
/// and a local path for the other: the shape of open redirects.
///
/// With a base, a client holding `http::Uri` follows such a reference as an
/// origin-form path on the base's host, where every resolver goes to the
/// host the reference names (RFC 2396 and RFC 3986 section 5.2.2).
fn network_path_reference(ctx: &Ctx<'_, '_>) -> Explains {
    if let Some((_, reference)) = ctx.resolution {
        let path = reference.split(['?', '#']).next();
        let followed_as_path = reference.starts_with("//")
            && ctx.oracle == OracleId::Http
            && ctx.other.accepted()
            && ctx.theirs(Component::Path) == path;
        return if followed_as_path {
            Explains {
                verdict: true,
                fields: ComponentSet::ALL,
            }
        } else {
            Explains::NOTHING
        };
    }
    let net_path = matches!(ctx.parsed, Ok(r) if r.kind() == RefKind::NetPath);
    // Origin-form: the text up to `?` is their path, whole.
    let origin_form = ctx.theirs(Component::Authority).is_none()
        && ctx.theirs(Component::Path) == ctx.input.split(['?', '#']).next();
    if ctx.oracle == OracleId::Http && net_path && origin_form {
        Explains {
            verdict: true,
            fields: ComponentSet::ALL,
        }
    } else {
        Explains::NOTHING
    }
}

/// Does `text` start with an RFC 3986 scheme and `:` (section 3.1)?
fn has_scheme(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else {
        return false;
    };
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// `http:g` against an `http` base: RFC 2396 (section 5.2 step 3, Appendix
/// C.2) and RFC 3986 (section 5.2.2, strict) take a reference with a scheme
/// as absolute, `http:g`; the URL Standard reads a special scheme equal to
/// the base's as a relative reference (scheme state, "special relative or
/// authority state"): `http://a/b/c/g`. Claimed when the other's result is
/// on the base's host.
fn same_scheme_reference(ctx: &Ctx<'_, '_>) -> Explains {
    let Some((base, reference)) = ctx.resolution else {
        return Explains::NOTHING;
    };
    let (Some((scheme, rest)), Some((base_scheme, _))) =
        (reference.split_once(':'), base.split_once(':'))
    else {
        return Explains::NOTHING;
    };
    let same_scheme = has_scheme(reference) && scheme.eq_ignore_ascii_case(base_scheme);
    if !same_scheme || rest.starts_with("//") || !ctx.whatwg() {
        return Explains::NOTHING;
    }
    // The base's host as rfc2396 reads it, or as the other parser does: the
    // URL Standard gives `ws:7` the host `0.0.0.7` (special authority
    // slashes state), where RFC 2396 reads an `opaque_part`.
    let base_host = base_parsed(ctx).and_then(|b| b.host().map(str::to_owned));
    let their_base = their_reading_of_base(ctx);
    let their_base_host = their_base.and_then(|o| o.components.get(Component::Host));
    let on_base_host = match ctx.theirs(Component::Host) {
        Some(t) => [base_host.as_deref(), their_base_host]
            .into_iter()
            .flatten()
            .any(|b| b.eq_ignore_ascii_case(t)),
        None => false,
    };
    if on_base_host || !ctx.other.accepted() {
        Explains {
            verdict: true,
            fields: ComponentSet::ALL,
        }
    } else {
        Explains::NOTHING
    }
}

/// rfc2396's resolution error, when it refused the pair.
fn resolve_error<'c>(ctx: &Ctx<'c, '_>) -> Option<&'c crate::rfc2396::ResolveError> {
    ctx.resolved?.error.as_ref()
}

/// rfc2396's parse of the base, when there is a base and it parses.
fn base_parsed<'c>(ctx: &Ctx<'c, '_>) -> Option<&'c crate::rfc2396::UriRef<'c>> {
    ctx.resolved?.base_parsed.as_ref().ok()
}

/// A reference with a scheme against a base RFC 2396 refuses (not absolute,
/// or no URI reference at all): this crate refuses the pair (section 5.2
/// needs an absolute base), where RFC 3986 section 5.2.2 and the URL
/// Standard take an absolute reference as it is whatever the base ("If
/// R.scheme is defined ... T = R"), and http::Uri and libcurl read it as a
/// URL of its own.
fn base_ignored(ctx: &Ctx<'_, '_>) -> Explains {
    let Some((_, reference)) = ctx.resolution else {
        return Explains::NOTHING;
    };
    let refused_base = matches!(
        resolve_error(ctx),
        Some(
            crate::rfc2396::ResolveError::InvalidBase(_)
                | crate::rfc2396::ResolveError::RelativeBase
        )
    );
    if refused_base && has_scheme(reference) && ctx.other.accepted() {
        Explains::VERDICT
    } else {
        Explains::NOTHING
    }
}

/// The other parser refuses the base itself (what `uridiff check BASE`
/// shows and explains), so it resolves nothing against it.
fn base_refused(ctx: &Ctx<'_, '_>) -> Explains {
    if ctx.resolution.is_none() || ctx.other.accepted() || base_parsed(ctx).is_none() {
        return Explains::NOTHING;
    }
    let refuses_base = ctx.their_base().is_some_and(|o| !o.accepted());
    if refuses_base {
        Explains::VERDICT
    } else {
        Explains::NOTHING
    }
}

/// A base with an opaque part (`mailto:a@b`, `t:x`): RFC 2396 resolves only
/// a fragment or an empty reference against it (section 5.2 steps 2 and 3;
/// this crate refuses the rest), RFC 3986 merges even with a rootless path
/// (section 5.2.3; fluent-uri refuses, its `ResolveError`), and the URL
/// Standard refuses all but a fragment-only reference against an opaque-path
/// base (basic URL parser, no scheme state).
fn opaque_base(ctx: &Ctx<'_, '_>) -> Explains {
    let Some((_, reference)) = ctx.resolution else {
        return Explains::NOTHING;
    };
    let opaque = base_parsed(ctx).is_some_and(|b| b.kind() == RefKind::AbsoluteOpaque)
        || matches!(
            resolve_error(ctx),
            Some(crate::rfc2396::ResolveError::OpaqueBase)
        );
    let whatwg_refuses = ctx.whatwg() && !reference.starts_with('#') && !has_scheme(reference);
    let rfc3986 = ctx.oracle.standard() == Some(crate::oracle::Standard::Rfc3986);
    let refused_here = ctx.reference.accepted() != ctx.other.accepted();
    if opaque && refused_here && (whatwg_refuses || rfc3986 || ctx.oracle == OracleId::Curl) {
        Explains::VERDICT
    } else {
        Explains::NOTHING
    }
}

/// The merged path starts with `//` and the result has no authority: RFC
/// 2396 and RFC 3986 cannot write it (it would re-parse as an authority;
/// this crate refuses, iri-string's `ensure_rfc3986_normalizable` too),
/// where the URL Standard writes `/.` before it (URL serializing).
fn ambiguous_resolved_path(ctx: &Ctx<'_, '_>) -> Explains {
    match resolve_error(ctx) {
        Some(crate::rfc2396::ResolveError::AmbiguousPath(_)) if ctx.other.accepted() => {
            Explains::VERDICT
        }
        _ => Explains::NOTHING,
    }
}

/// A base with a fragment: RFC 3986 wants an `absolute-URI` as base
/// (sections 4.3 and 5.1; fluent-uri's `ResolveError::BaseWithFragment`,
/// iri-string's `UriAbsoluteStr`), where RFC 2396 section 5.2 and the URL
/// Standard ignore the base's fragment.
fn base_fragment(ctx: &Ctx<'_, '_>) -> Explains {
    match ctx.resolution {
        Some((base, _))
            if base.contains('#')
                && ctx.oracle.standard() == Some(crate::oracle::Standard::Rfc3986)
                && !ctx.other.accepted() =>
        {
            Explains::VERDICT
        }
        _ => Explains::NOTHING,
    }
}

/// `?y` against `http://a/b/c/d;p?q`: RFC 2396 (Appendix C.1; section 5.2
/// step 6 merges the base path's directory with the empty path) gives
/// `http://a/b/c/?y`, RFC 3986 section 5.2.2 and the URL Standard keep the
/// base's path: `http://a/b/c/d;p?y`. Claimed when the other's path is the
/// base's.
fn query_only_resolution(ctx: &Ctx<'_, '_>) -> Explains {
    let Some((_, reference)) = ctx.resolution else {
        return Explains::NOTHING;
    };
    if !reference.starts_with('?') {
        return Explains::NOTHING;
    }
    let base_path = base_parsed(ctx)
        .map(|b| b.path().to_owned())
        .unwrap_or_default();
    // The base's path as written, or as the other reads it (WHATWG and
    // libcurl remove its dot segments first: see `normalized_base`).
    let their_base = their_reading_of_base(ctx);
    let their_base_path = their_base.and_then(|o| o.components.get(Component::Path));
    let keeps_base_path = ctx.theirs(Component::Path).is_some_and(|p| {
        [Some(base_path.as_str()), their_base_path]
            .into_iter()
            .flatten()
            .any(|b| p == b || same_octets(p, b))
    });
    if keeps_base_path {
        Explains::fields(ComponentSet::of(&[Component::Path]))
    } else {
        Explains::NOTHING
    }
}

/// The other parser's own reading of the base, when it accepts it.
fn their_reading_of_base<'c>(ctx: &'c Ctx<'_, '_>) -> Option<&'c crate::oracle::Outcome<'c>> {
    ctx.their_base().filter(|o| o.accepted())
}

/// `text` (a URI reference rfc2396 parses) with its path's `%2e` segments
/// written as the dot segments WHATWG and RFC 3986 parsers read them as.
fn with_dot_segments_decoded(text: &str) -> Option<Cow<'_, str>> {
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
fn drop_above_root(path: &str) -> &str {
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

/// The open fields whose value in rfc2396's resolution of `reference`
/// against `base` is the other's (the path also with the `..` above the
/// root dropped) where rfc2396's own result differs.
fn fields_resolved_as_theirs(ctx: &Ctx<'_, '_>, base: &str, reference: &str) -> ComponentSet {
    // A merged path that starts with `//` and has no authority is refused
    // (this crate's `AmbiguousPath`); the URL Standard writes it with `/.`
    // before it, and its path is still comparable.
    let (resolved, ambiguous_path) = match crate::rfc2396::resolve(base, reference) {
        Ok(resolved) => (resolved, None),
        Err(crate::rfc2396::ResolveError::AmbiguousPath(path)) => (String::new(), Some(path)),
        Err(_) => return ComponentSet::EMPTY,
    };
    let parsed = crate::rfc2396::parse(&resolved).ok();
    let value_of = |c: Component| match (&ambiguous_path, &parsed) {
        (Some(path), _) => (c == Component::Path).then_some(path.as_str()),
        (None, Some(parsed)) => parsed.get(c),
        (None, None) => None,
    };
    ctx.open
        .fields
        .iter()
        .filter(|&c| {
            let Some(theirs) = ctx.theirs(c) else {
                return false;
            };
            let Some(value) = value_of(c) else {
                return false;
            };
            let same = |v: &str| v == theirs || same_octets(v, theirs);
            let matches = same(value) || (c == Component::Path && same(drop_above_root(value)));
            matches && ctx.ours(c).is_none_or(|ours| !same(ours))
        })
        .fold(ComponentSet::EMPTY, ComponentSet::with)
}

/// A `%2e` segment in a path being resolved (`1/%2e/..` against `h://t`):
/// the URL Standard reads `%2e` as `.` ("single-dot URL path segment") and
/// `.%2e` as `..`, so `1/%2e/..` climbs out of `1`. RFC 2396 section 5.2
/// step 6, and RFC 3986 section 5.2.4 as written, remove only a literal `.`
/// or `..`: `%2e` is a segment like any other, and `%2e/..` removes it
/// (`/1/`). The RFC 3986 implementations normalise first, as sections 2.3
/// and 6.2.2.2 allow (`%2E` is equivalent to `.`): fluent-uri 0.4
/// `classify_segment`, iri-string 0.7 (its `resolve` docs: "`%2e%2e` is
/// recognized as `..`"), and libcurl's `is_dot` (lib/urlapi.c). Claimed
/// when rfc2396, resolving with those segments written as dots, gives the
/// other's result.
fn encoded_dot_segment(ctx: &Ctx<'_, '_>) -> Explains {
    let Some((base, reference)) = ctx.resolution else {
        return Explains::NOTHING;
    };
    let (Some(base_dots), Some(reference_dots)) = (
        with_dot_segments_decoded(base),
        with_dot_segments_decoded(reference),
    ) else {
        return Explains::NOTHING;
    };
    if matches!(
        (&base_dots, &reference_dots),
        (Cow::Borrowed(_), Cow::Borrowed(_))
    ) {
        return Explains::NOTHING;
    }
    let fields = fields_resolved_as_theirs(ctx, &base_dots, &reference_dots);
    Explains::fields(fields.intersection(ComponentSet::of(&[Component::Path])))
}

/// The other parser resolves against the base as it reads it, normalised:
/// in the URL Standard the base is a URL record, parsed before the
/// reference, its path already shortened by its `..` and `%2e` segments
/// (path state) and its special-scheme host found; libcurl removes the
/// dot segments of the base when it is set (`dedotdotify`, lib/urlapi.c,
/// unless `CURLU_PATH_AS_IS`). RFC 2396 section 5.2 step 6 merges with the
/// base's path as written, dropping its last segment, dot segment or not
/// (`i` against `r:/f//..`: `r:/f//i`, WHATWG `r:/f/i`). Claimed for the
/// fields rfc2396's resolution against the other's reading of the base
/// gives as the other does.
fn normalized_base(ctx: &Ctx<'_, '_>) -> Explains {
    if !(ctx.whatwg() || ctx.oracle == OracleId::Curl) {
        return Explains::NOTHING;
    }
    let (Some((base, reference)), Some(theirs)) = (ctx.resolution, their_reading_of_base(ctx))
    else {
        return Explains::NOTHING;
    };
    let their_base = theirs.serialization.as_deref().unwrap_or(base);
    if their_base == base {
        return Explains::NOTHING;
    }
    let mut fields = fields_resolved_as_theirs(ctx, their_base, reference);
    if let Some(Cow::Owned(reference_dots)) = with_dot_segments_decoded(reference) {
        fields = fields.union(fields_resolved_as_theirs(ctx, their_base, &reference_dots));
    }
    // Their serialization of the base may hold what RFC 2396 refuses (url
    // writes the host `%22el` as `"el`): the merge of paths does not depend
    // on the rest, so their base's path alone, under a stand-in authority,
    // still settles the path.
    if crate::rfc2396::parse(their_base).is_err()
        && let Some(path) = theirs
            .components
            .get(Component::Path)
            .filter(|p| p.starts_with('/'))
    {
        let stand_in = format!("x://h{path}");
        let path_only = ComponentSet::of(&[Component::Path]);
        fields = fields
            .union(fields_resolved_as_theirs(ctx, &stand_in, reference).intersection(path_only));
    }
    Explains::fields(fields)
}

/// The URL Standard's special schemes and their default ports.
pub(crate) fn scheme_default_port(scheme: &str) -> Option<u16> {
    const DEFAULTS: [(&str, u16); 5] = [
        ("http", 80),
        ("ws", 80),
        ("https", 443),
        ("wss", 443),
        ("ftp", 21),
    ];
    DEFAULTS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(scheme))
        .map(|&(_, port)| port)
}

fn is_special(scheme: &str) -> bool {
    scheme_default_port(scheme).is_some() || scheme.eq_ignore_ascii_case("file")
}

/// WHATWG file URLs (URL Standard, file host state): `localhost` becomes
/// the empty host, a Windows drive letter (`c:`) moves into the path,
/// credentials and ports are refused, and empty leading segments collapse.
/// RFC 2396 has no rules of its own for `file` (RFC 1738 section 3.10).
///
/// Each field is claimed only when the other's value is what those rules
/// give: no credentials or port, an empty host for `localhost`, for none,
/// or where a drive letter stood, a path that starts with `/` and ends with
/// rfc2396's (or holds the drive letter).
fn file_scheme(ctx: &Ctx<'_, '_>) -> Explains {
    if !ctx.whatwg() || !ctx.scheme().is_some_and(|s| s.eq_ignore_ascii_case("file")) {
        return Explains::NOTHING;
    }
    if !ctx.other.accepted() {
        return Explains::VERDICT;
    }
    let ours_host = ctx.ours(Component::Host).or_else(|| our_host_text(ctx));
    let drive = |s: &str| {
        let b = s.as_bytes();
        b.first().is_some_and(u8::is_ascii_alphabetic) && matches!(b.get(1), Some(b':' | b'|'))
    };
    let ours_authority = ctx.ours(Component::Authority).unwrap_or_default();
    let mut fields = ComponentSet::EMPTY;
    let theirs_path = ctx.theirs(Component::Path).unwrap_or_default();
    let drive_moved =
        ours_host.is_some_and(drive) || theirs_path.strip_prefix('/').is_some_and(drive);
    if ctx.theirs(Component::Host) == Some("")
        && (ours_host.is_none_or(|h| h.is_empty() || h.eq_ignore_ascii_case("localhost"))
            || drive(ours_authority))
    {
        fields = fields.with(Component::Host).with(Component::Authority);
    }
    for c in [Component::Userinfo, Component::Port] {
        if ctx.theirs(c).is_none() {
            fields = fields.with(c);
        }
    }
    let ours_path = ctx.ours(Component::Path).unwrap_or_default();
    let tail = ours_path.trim_start_matches('/');
    if theirs_path.starts_with('/')
        && (drive_moved || theirs_path.trim_start_matches('/').ends_with(tail) || opaque(ctx))
    {
        fields = fields.with(Component::Path);
    }
    Explains::fields(fields.union(opaque_query(ctx)))
}

/// Did rfc2396 read an `opaque_part`?
fn opaque(ctx: &Ctx<'_, '_>) -> bool {
    matches!(ctx.parsed, Ok(r) if r.kind() == RefKind::AbsoluteOpaque)
}

/// WHATWG special schemes always have a host: `http:evil.com/`,
/// `http:/evil.com/` and `http:///evil.com/` all reach `evil.com`, where RFC
/// 2396 sees an `opaque_part`, an `abs_path`, or an empty authority
/// (section 3). A special URL with no host at all is rejected.
fn special_scheme_slashes(ctx: &Ctx<'_, '_>) -> Explains {
    if !ctx.whatwg() || !ctx.scheme().is_some_and(is_special) {
        return Explains::NOTHING;
    }
    let Ok(r) = ctx.parsed else {
        return Explains::NOTHING;
    };
    let no_authority = r.authority().is_none_or(str::is_empty);
    if !no_authority {
        return Explains::NOTHING;
    }
    if !ctx.other.accepted() {
        return Explains::VERDICT;
    }
    // Justified when the host they found is text rfc2396 read as its path
    // (or opaque part): the slashes, not the characters, differ. With a
    // base, WHATWG may have found its host in the base's path (`http:/h`).
    let base_path = ctx
        .resolution
        .filter(|(_, reference)| !has_scheme(reference))
        .and_then(|_| base_parsed(ctx))
        .filter(|b| b.authority().is_none_or(str::is_empty))
        .map(|b| b.path().to_owned());
    let ours_path = base_path
        .as_deref()
        .unwrap_or_else(|| ctx.ours(Component::Path).unwrap_or_default());
    // The host WHATWG would take from rfc2396's path: after the leading
    // slashes, before the next delimiter, without userinfo and port.
    let written = ours_path
        .trim_start_matches(['/', '\\'])
        .split(['/', '\\', '?', '#'])
        .next()
        .unwrap_or_default();
    let written = written.rsplit_once('@').map_or(written, |(_, h)| h);
    let written = written.split(':').next().unwrap_or_default();
    let found_in_path = ctx.theirs(Component::Host).is_some_and(|h| {
        let h = h.to_ascii_lowercase();
        ours_path.to_ascii_lowercase().contains(&h)
            || decoded_lower(ours_path).contains(&h)
            // Read by WHATWG's IPv4 parser (`0.0.0.7` from `07`), or
            // mapped by IDNA (non-ASCII or `xn--`).
            || same_address(written, &h)
            || !written.is_ascii()
            || !decoded_lower(written).is_ascii()
            || h.contains("xn--")
    });
    if !found_in_path {
        return Explains::NOTHING;
    }
    Explains::fields(
        AUTHORITY_PARTS
            .with(Component::Path)
            .union(opaque_query(ctx)),
    )
}

/// Percent-decoded (lossily) and lower-cased.
fn decoded_lower(s: &str) -> String {
    String::from_utf8_lossy(&decoded(s)).to_ascii_lowercase()
}

/// The query, when rfc2396 read an `opaque_part`: its `?` stays in the path
/// (RFC 2396 section 3), so a query on the other side follows from reading
/// the same text as hierarchical.
fn opaque_query(ctx: &Ctx<'_, '_>) -> ComponentSet {
    if matches!(ctx.parsed, Ok(r) if r.kind() == RefKind::AbsoluteOpaque) {
        ComponentSet::of(&[Component::Query])
    } else {
        ComponentSet::EMPTY
    }
}

/// `http::Uri` takes a scheme only in absolute-form, which needs an
/// authority (RFC 9112 section 3.2.2: `absolute-URI` with `//`); RFC 2396
/// allows `scheme:/path` and an empty authority (section 3).
///
/// With a base, the same holds of the base a client would hold.
fn missing_authority(ctx: &Ctx<'_, '_>) -> Explains {
    let without_authority = |r: &crate::rfc2396::UriRef<'_>| {
        r.kind() == RefKind::AbsoluteHierarchical && r.authority().is_none_or(str::is_empty)
    };
    let base_without_authority =
        ctx.resolution.is_some() && base_parsed(ctx).is_some_and(without_authority);
    let hier_without_authority =
        base_without_authority || matches!(ctx.parsed, Ok(r) if without_authority(r));
    if ctx.oracle == OracleId::Http && hier_without_authority && !ctx.other.accepted() {
        Explains::VERDICT
    } else {
        Explains::NOTHING
    }
}

/// A relative reference (RFC 2396 section 5) is out of the domain of a
/// parser without a base (`url`), and only origin-form (`/path`) is an HTTP
/// request target.
///
/// With a base, the same holds of the reference: `http::Uri` follows only
/// origin-form (`/path`) and absolute-form references.
fn relative_reference(ctx: &Ctx<'_, '_>) -> Explains {
    let relative = match ctx.resolution {
        Some((_, reference)) => {
            !reference.starts_with('/') && !has_scheme(reference) && ctx.oracle == OracleId::Http
        }
        None => matches!(ctx.parsed, Ok(r) if !r.kind().is_absolute()),
    };
    let refused = ctx.other.verdict == Verdict::OutOfDomain
        || (ctx.oracle == OracleId::Http && ctx.other.verdict == Verdict::Reject);
    if relative && refused {
        Explains::VERDICT
    } else {
        Explains::NOTHING
    }
}

/// `http::Uri` keeps no fragment (RFC 9112 section 3.2: request targets
/// have none).
fn fragment_dropped(ctx: &Ctx<'_, '_>) -> Explains {
    if ctx.oracle == OracleId::Http && ctx.theirs(Component::Fragment).is_none() {
        Explains::fields(ComponentSet::of(&[Component::Fragment]))
    } else {
        Explains::NOTHING
    }
}

/// The host part of an authority: after the last `@`, before a final
/// `:digits`. Used where rfc2396 has no host (a `reg_name`).
fn host_text(authority: &str) -> &str {
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    match host.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    }
}

/// rfc2396's authority, as the host part.
fn our_host_text<'a>(ctx: &Ctx<'_, 'a>) -> Option<&'a str> {
    match ctx.parsed {
        Ok(r) => r.authority().map(host_text),
        Err(_) => None,
    }
}

/// An `escaped` octet in a host: RFC 2396 `hostname` has none (section
/// 3.2.2), so the authority is a `reg_name`; WHATWG and RFC 3986 section
/// 3.2.2 decode or keep it.
fn percent_encoded_host(ctx: &Ctx<'_, '_>) -> Explains {
    if our_host_text(ctx).is_some_and(|h| h.contains('%')) {
        Explains {
            verdict: true,
            fields: AUTHORITY_PARTS,
        }
    } else {
        Explains::NOTHING
    }
}

/// WHATWG maps a domain through UTS #46 (IDNA) processing (URL Standard,
/// host parsing, "domain to ASCII"): a label starting `xn--` must be valid
/// Punycode, and some characters are mapped or refused. RFC 2396 hostnames
/// are plain `alphanum` and `-` labels (section 3.2.2).
fn idna_host(ctx: &Ctx<'_, '_>) -> Explains {
    let Some(ours) = our_host_text(ctx) else {
        return Explains::NOTHING;
    };
    let punycode = ours
        .split('.')
        .any(|l| l.len() >= 4 && l.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("xn--")));
    if ctx.whatwg() && punycode {
        Explains {
            verdict: true,
            fields: ComponentSet::of(&[Component::Host]),
        }
    } else {
        Explains::NOTHING
    }
}

/// Is `host` four dotted decimal numbers of at most 255, as WHATWG serialises IPv4?
fn is_dotted_quad(host: &str) -> bool {
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 3 && p.parse::<u8>().is_ok())
}

/// Does the host end in a number, so WHATWG's IPv4 parser takes it (URL
/// Standard, "ends in a number checker")?
fn ends_in_a_number(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let last = host.rsplit('.').next().unwrap_or("");
    !last.is_empty()
        && (last.bytes().all(|b| b.is_ascii_digit())
            || last
                .strip_prefix("0x")
                .or_else(|| last.strip_prefix("0X"))
                .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit())))
}

/// RFC 2396 `IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit`
/// has no range and no other forms (section 3.2.2); WHATWG's IPv4 parser
/// reads hex, octal and short forms (`0x7f.1` is 127.0.0.1) and rejects what
/// is out of range. `127.1` or `1.2.3.4.5` is a `reg_name` for RFC 2396.
fn ipv4_number_form(ctx: &Ctx<'_, '_>) -> Explains {
    let Some(ours) = our_host_text(ctx) else {
        return Explains::NOTHING;
    };
    // WHATWG's IPv4 parser, and curl's, which "parses and normalizes
    // everything that appears to be a numerical IPv4 address" (curl
    // docs/URL-SYNTAX.md, "Numerical IPv4 addresses").
    let reads_ipv4_forms = ctx.whatwg() || ctx.oracle == OracleId::Curl;
    if !reads_ipv4_forms || !ends_in_a_number(ours) {
        return Explains::NOTHING;
    }
    let theirs = ctx.theirs(Component::Host);
    let reads_ipv4 = theirs.is_some_and(|t| is_dotted_quad(t) && t != ours);
    Explains {
        verdict: !ctx.other.accepted(),
        fields: if reads_ipv4 {
            AUTHORITY_PARTS
        } else {
            ComponentSet::EMPTY
        },
    }
}

/// RFC 2396 `port = *digit` has no bound (section 3.2.2); WHATWG rejects
/// ports over 65535, and `http::Uri` keeps the authority but reports no port.
fn port_out_of_range(ctx: &Ctx<'_, '_>) -> Explains {
    let big = ctx
        .ours(Component::Port)
        .is_some_and(|p| !p.is_empty() && p.parse::<u16>().is_err());
    if big {
        Explains {
            verdict: true,
            fields: ComponentSet::of(&[Component::Port]),
        }
    } else {
        Explains::NOTHING
    }
}

/// `authority = server | reg_name` (RFC 2396 section 3.2): what is not a
/// `server` is a naming authority with no host, userinfo or port; RFC 3986
/// and WHATWG find a host in it (`a_b.example`, `a@b@c`).
fn reg_name_authority(ctx: &Ctx<'_, '_>) -> Explains {
    match ctx.parsed {
        Ok(r) if r.authority_kind() == Some(AuthorityKind::RegName) => Explains {
            verdict: true,
            fields: AUTHORITY_PARTS,
        },
        _ => Explains::NOTHING,
    }
}

/// java.net.URI takes `file:///p` although RFC 2396's grammar does not
/// derive an empty authority, and then leaves the authority (with its
/// user-information, host and port) undefined: its javadoc, "an empty
/// authority component is permitted as long as it is followed by a
/// non-empty path, a query component, or a fragment component". Applies to
/// the shipped `java-uri` external oracle.
fn java_empty_authority(ctx: &Ctx<'_, '_>) -> Explains {
    let f = ctx.fields_where(|ours, theirs| ours == Some("") && theirs.is_none());
    if ctx.oracle.as_str() == "java-uri" {
        Explains::fields(f.intersection(ComponentSet::of(&[Component::Authority])))
    } else {
        Explains::NOTHING
    }
}

/// An empty `server` (RFC 2396 section 3.2.2: `server = [ ... ]`) has no
/// host; RFC 3986 section 3.2.2 (`reg-name = *(...)`) and WHATWG for
/// non-special schemes give it an empty one.
fn empty_host(ctx: &Ctx<'_, '_>) -> Explains {
    let f = ctx.fields_where(|ours, theirs| ours.is_none() && theirs == Some(""));
    Explains::fields(f.intersection(ComponentSet::of(&[Component::Host])))
}

/// `ftp://@host/` has an empty userinfo (RFC 2396 section 3.2.2; RFC 1738
/// section 3.1 tells it apart from none); WHATWG drops the `@`.
fn empty_userinfo(ctx: &Ctx<'_, '_>) -> Explains {
    let f = ctx.fields_where(|ours, theirs| ours == Some("") && theirs.is_none());
    Explains::fields(f.intersection(ComponentSet::of(&[Component::Userinfo])))
}

/// `user:@host`: an empty password (RFC 1738 section 3.1); WHATWG drops the `:`.
fn empty_password(ctx: &Ctx<'_, '_>) -> Explains {
    let f = ctx.fields_where(|ours, theirs| {
        ours.and_then(|o| o.strip_suffix(':'))
            .is_some_and(|o| match theirs {
                // WHATWG also percent-encodes userinfo characters (`;`, `=`).
                Some(t) => same_octets(o, t),
                None => o.is_empty(),
            })
    });
    Explains::fields(f.intersection(ComponentSet::of(&[Component::Userinfo])))
}

/// `port = *digit` allows `host:` (RFC 2396 section 3.2.2); WHATWG and
/// `http::Uri` treat it as no port.
fn empty_port(ctx: &Ctx<'_, '_>) -> Explains {
    let f = ctx.fields_where(|ours, theirs| ours == Some("") && theirs.is_none());
    Explains::fields(f.intersection(ComponentSet::of(&[Component::Port])))
}

/// The scheme's default port written out; WHATWG elides it (URL Standard,
/// port state).
fn default_port(ctx: &Ctx<'_, '_>) -> Explains {
    let Some(default) = ctx.scheme().and_then(scheme_default_port) else {
        return Explains::NOTHING;
    };
    let f = ctx.fields_where(|ours, theirs| {
        theirs.is_none() && ours.and_then(|p| p.parse::<u32>().ok()) == Some(u32::from(default))
    });
    Explains::fields(f.intersection(ComponentSet::of(&[Component::Port])))
}

/// The same port number with other digits (leading zeros), which WHATWG
/// serialises canonically.
fn port_normalized(ctx: &Ctx<'_, '_>) -> Explains {
    let f = ctx.fields_where(|ours, theirs| {
        let n = |p: Option<&str>| p.and_then(|p| p.parse::<u32>().ok());
        n(ours).is_some() && n(ours) == n(theirs)
    });
    Explains::fields(f.intersection(ComponentSet::of(&[Component::Port])))
}

/// `?` in an `opaque_part` is part of it: the grammar gives an opaque URI no
/// query (RFC 2396 section 3); RFC 3986, WHATWG and Appendix B split it off.
fn opaque_part_query(ctx: &Ctx<'_, '_>) -> Explains {
    let opaque = matches!(ctx.parsed, Ok(r) if r.kind() == RefKind::AbsoluteOpaque);
    let (Some(ours), Some(path), Some(query)) = (
        ctx.ours(Component::Path),
        ctx.theirs(Component::Path),
        ctx.theirs(Component::Query),
    ) else {
        return Explains::NOTHING;
    };
    let split_here = ours
        .split_once('?')
        .is_some_and(|(p, q)| same_octets(p, path) && same_octets(q, query));
    if opaque && split_here {
        Explains::fields(ComponentSet::of(&[Component::Path, Component::Query]))
    } else {
        Explains::NOTHING
    }
}

/// Schemes and hosts are case-insensitive (RFC 2396 sections 3.1 and
/// 3.2.2); WHATWG lower-cases them.
fn case_normalized(ctx: &Ctx<'_, '_>) -> Explains {
    let f = ctx.fields_where(|ours, theirs| match (ours, theirs) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
        _ => false,
    });
    Explains::fields(f.intersection(ComponentSet::of(&[
        Component::Scheme,
        Component::Host,
        Component::Authority,
    ])))
}

/// An empty path written `/`: WHATWG special URLs and `http::Uri`
/// absolute-form always have a path (RFC 9110 section 4.2.3).
fn empty_path_slash(ctx: &Ctx<'_, '_>) -> Explains {
    let f = ctx.fields_where(|ours, theirs| ours == Some("") && theirs == Some("/"));
    Explains::fields(f.intersection(ComponentSet::of(&[Component::Path])))
}

/// RFC 2396 removes `.` and `..` segments only while resolving (section
/// 5.2 step 6); WHATWG removes them from every path (and RFC 3986 section
/// 5.2.4 from every resolved one).
fn dot_segments(ctx: &Ctx<'_, '_>) -> Explains {
    let f = ctx.fields_where(|ours, theirs| match (ours, theirs) {
        (Some(a), Some(b)) if a.starts_with('/') => {
            let removed = remove_dot_segments(&decode_dot_segments(a));
            let rooted = drop_above_root(&removed);
            [removed.as_str(), rooted]
                .iter()
                .any(|r| *r != a && (*r == b || same_octets(r, b)))
        }
        _ => false,
    });
    Explains::fields(f.intersection(ComponentSet::of(&[Component::Path])))
}

/// Writes segments that WHATWG reads as dot segments (`%2e`, `.%2E`, …:
/// URL Standard, "single-dot" and "double-dot URL path segment") as `.`
/// and `..`.
fn decode_dot_segments(path: &str) -> Cow<'_, str> {
    if !path.contains('%') {
        return Cow::Borrowed(path);
    }
    let segments: Vec<&str> = path
        .split('/')
        .map(|segment| {
            if is_double_dot(segment) {
                ".."
            } else if segment.eq_ignore_ascii_case("%2e") {
                "."
            } else {
                segment
            }
        })
        .collect();
    Cow::Owned(segments.join("/"))
}

/// A segment WHATWG reads as `..`: the URL Standard's "double-dot URL path
/// segment", `..` with either dot written `%2e` in any case.
fn is_double_dot(segment: &str) -> bool {
    ["..", ".%2e", "%2e.", "%2e%2e"]
        .iter()
        .any(|form| segment.eq_ignore_ascii_case(form))
}

/// rust-url (2.5.8, `last_slash_can_be_removed`) keeps a segment that looks
/// like a Windows drive letter (`r:`, `c|`) when a later `..` would remove
/// it, in every scheme; the URL Standard ("shorten a URL's path") protects it
/// only in `file` URLs. It also empties the host of a `file` URL whose path
/// starts with a drive letter (`file://1.2.3.4/C:/`), which the URL Standard
/// no longer does (file host state keeps it; WPT urltestdata expects host
/// `1.2.3.4`). Bugs of rust-url only (ada keeps both), recorded in FUZZING.md.
fn windows_drive_letter(ctx: &Ctx<'_, '_>) -> Explains {
    if ctx.oracle != OracleId::Url {
        return Explains::NOTHING;
    }
    let Some(path) = ctx.ours(Component::Path) else {
        return Explains::NOTHING;
    };
    let starts_with_drive = path
        .strip_prefix('/')
        .and_then(|p| p.split('/').next())
        .is_some_and(|s| {
            let b = s.as_bytes();
            b.len() == 2
                && b.first().is_some_and(u8::is_ascii_alphabetic)
                && matches!(b.get(1), Some(b':' | b'|'))
        });
    let host_emptied = is_file(ctx)
        && starts_with_drive
        && ctx.ours(Component::Host).is_some_and(|h| !h.is_empty())
        && ctx.theirs(Component::Host) == Some("");
    let host = if host_emptied {
        ComponentSet::of(&[Component::Host])
    } else {
        ComponentSet::EMPTY
    };
    let mut seen_drive = false;
    let mut climbs_over = false;
    for segment in path.split('/') {
        if let [letter, b':' | b'|'] = segment.as_bytes()
            && letter.is_ascii_alphabetic()
        {
            seen_drive = true;
        } else if seen_drive && is_double_dot(segment) {
            climbs_over = true;
        }
    }
    if climbs_over {
        Explains::fields(host.with(Component::Path))
    } else {
        Explains::fields(host)
    }
}

/// Percent-decodes `s`, with ASCII letters of escapes in one case.
fn decoded(s: &str) -> Cow<'_, [u8]> {
    percent_decode_str(s).into()
}

/// The same octets once percent-decoded (RFC 2396 section 2.4.2: an escaped
/// octet and the octet stand for the same character, for unreserved ones).
fn same_octets(a: &str, b: &str) -> bool {
    a == b || decoded(a) == decoded(b)
}

/// The same octets, percent-encoded differently: WHATWG encodes characters
/// its percent-encode sets name (`'` in special queries, for one).
fn percent_encoding(ctx: &Ctx<'_, '_>) -> Explains {
    Explains::fields(ctx.fields_where(|ours, theirs| match (ours, theirs) {
        (Some(a), Some(b)) => same_octets(a, b),
        _ => false,
    }))
}

/// Shows a value for an effect line: quoted and escaped, cut at 48 characters.
fn show(value: Option<&str>) -> String {
    match value {
        None => "none".to_owned(),
        Some(v) if v.chars().count() > 48 => {
            let head: String = v.chars().take(45).collect();
            format!("{:?}…", head)
        }
        Some(v) => format!("{v:?}"),
    }
}

/// The port a connection would use: the written one, else the scheme's default.
pub(crate) fn effective_port(port: Option<&str>, scheme: Option<&str>) -> Option<u32> {
    match port.filter(|p| !p.is_empty()) {
        Some(p) => p.parse::<u32>().ok(),
        None => scheme.and_then(scheme_default_port).map(u32::from),
    }
}

/// Are two hosts the same text after ASCII case folding? Nothing else is
/// folded: `ex%41mple.com` and `example.com`, or `0x7f.1` and `127.0.0.1`,
/// are the same address spelled so that an allowlist misses it, which is
/// what a host confusion is about. The one exception: for `file`, the
/// empty host and `localhost` are the same machine (RFC 8089 section 2;
/// URL Standard, file host state).
pub(crate) fn same_host(a: &str, b: &str, scheme: Option<&str>) -> bool {
    // The common case first: every parser reads the same bytes (a memcmp,
    // where the case-folding comparison goes byte by byte). This runs for
    // every pair of accepting parsers on every input.
    if a == b {
        return true;
    }
    if scheme.is_some_and(|s| s.eq_ignore_ascii_case("file"))
        && [a, b]
            .iter()
            .all(|h| h.is_empty() || h.eq_ignore_ascii_case("localhost"))
    {
        return true;
    }
    a.eq_ignore_ascii_case(b)
}

/// Whether a field claim is high severity by the facts: the two accepting
/// parsers see different hosts (one side having none counts; compared after
/// ASCII case folding only) or effective ports. Computed for every finding,
/// so it builds no strings.
pub(crate) fn is_high(ctx: &Ctx<'_, '_>, claimed: Explains) -> bool {
    let scheme = ctx.scheme();
    claimed.fields.iter().any(|c| match c {
        Component::Host => hosts_differ(ctx.ours(c), ctx.theirs(c), scheme),
        Component::Port => {
            effective_port(ctx.ours(c), scheme) != effective_port(ctx.theirs(c), scheme)
        }
        _ => false,
    })
}

pub(crate) fn hosts_differ(ours: Option<&str>, theirs: Option<&str>, scheme: Option<&str>) -> bool {
    match (ours, theirs) {
        (Some(a), Some(b)) => !same_host(a, b, scheme),
        (None, Some(h)) | (Some(h), None) => !same_host(h, "", scheme),
        (None, None) => false,
    }
}

/// The concrete effect of a claim, in one line: what differs, host and
/// port differences first. Built only when asked for (reports, the CLI).
pub(crate) fn effect(ctx: &Ctx<'_, '_>, claimed: Explains) -> String {
    let other = ctx.oracle.as_str();
    if claimed.verdict {
        let (accepting, accepted, refusing, refused) = if ctx.reference.accepted() {
            ("rfc2396", ctx.reference, other, ctx.other)
        } else {
            (other, ctx.other, "rfc2396", ctx.reference)
        };
        let how = match refused.verdict {
            Verdict::OutOfDomain => "finds it out of its domain",
            _ => "rejects it",
        };
        let host = accepted
            .components
            .get(Component::Host)
            .filter(|h| !h.is_empty());
        return match host {
            Some(h) => format!(
                "{accepting} accepts with host {}, {refusing} {how}",
                show(Some(h))
            ),
            None => format!("{accepting} accepts, {refusing} {how}"),
        };
    }
    let scheme = ctx.scheme();
    let mut first = Vec::new();
    let mut rest = Vec::new();
    for c in claimed.fields.iter() {
        let (ours, theirs) = (ctx.ours(c), ctx.theirs(c));
        match c {
            Component::Host if hosts_differ(ours, theirs, scheme) => first.push(format!(
                "rfc2396 and {other} see different hosts ({} vs {})",
                show(ours),
                show(theirs)
            )),
            Component::Port if effective_port(ours, scheme) != effective_port(theirs, scheme) => {
                let n = |p: Option<u32>| p.map_or("none".to_owned(), |p| p.to_string());
                first.push(format!(
                    "effective ports differ ({} vs {})",
                    n(effective_port(ours, scheme)),
                    n(effective_port(theirs, scheme))
                ));
            }
            _ => rest.push(format!(
                "{} {} vs {}",
                component_name(c),
                show(ours),
                show(theirs)
            )),
        }
    }
    first.extend(rest);
    first.join("; ")
}

/// Are two different host spellings the same address? Equal once
/// percent-decoded, lower-cased, without a final `.`, and with WHATWG's
/// IPv4 number forms (`0x7f.1`, `2130706433`) read as the dotted quad they
/// stand for (URL Standard, IPv4 parser).
pub fn same_address(a: &str, b: &str) -> bool {
    canonical_address(a) == canonical_address(b)
}

fn canonical_address(host: &str) -> String {
    let lower = decoded_lower(host);
    let bare = lower.strip_suffix('.').unwrap_or(&lower);
    if ends_in_a_number(bare)
        && let Some(n) = whatwg_ipv4(bare)
    {
        let [a, b, c, d] = n.to_be_bytes();
        return format!("{a}.{b}.{c}.{d}");
    }
    bare.to_owned()
}

/// The URL Standard's IPv4 parser: up to four parts, each decimal, octal
/// (leading `0`) or hex (`0x`); the last fills the remaining bytes.
fn whatwg_ipv4(host: &str) -> Option<u32> {
    let parts: Vec<&str> = host.split('.').collect();
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let mut numbers = Vec::with_capacity(parts.len());
    for part in &parts {
        let (digits, radix) =
            if let Some(h) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
                (h, 16)
            } else if part.len() > 1 && part.starts_with('0') {
                (part.get(1..).unwrap_or_default(), 8)
            } else {
                (*part, 10)
            };
        let n = if digits.is_empty() {
            if part.is_empty() {
                return None;
            }
            0
        } else {
            u64::from_str_radix(digits, radix).ok()?
        };
        numbers.push(n);
    }
    let (last, init) = numbers.split_last()?;
    if init.iter().any(|&n| n > 255) {
        return None;
    }
    let room = 8 * (5 - numbers.len() as u32);
    if *last >= 1u64 << room {
        return None;
    }
    let mut value = *last;
    for (i, n) in init.iter().enumerate() {
        value += n << (8 * (3 - i as u32));
    }
    u32::try_from(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_address_reads_ipv4_number_forms_and_escapes() {
        assert!(same_address("0x7f.1", "127.0.0.1"));
        assert!(same_address("2130706433", "127.0.0.1"));
        assert!(same_address("ex%41mple.com", "example.com"));
        assert!(same_address("Example.COM.", "example.com"));
        assert!(!same_address("0x7f.2", "127.0.0.1"));
        assert!(!same_address("evil.com", "example.com"));
    }
}
