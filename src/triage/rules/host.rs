//! The host: IP literals, IPv4 number forms, IDNA, percent-encoding, case,
//! and an empty host where RFC 2396 has none.

use super::{AUTHORITY_PARTS, our_host_text, rejected_with};
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::rfc2396::{ErrorKind, Production};
use crate::triage::Ctx;
use crate::triage::host::{ends_in_a_number, is_dotted_quad};
use crate::triage::ip_literal::is_documented_literal;

/// `[` and `]` are `unwise` in RFC 2396 section 2.4.3; RFC 2732 and RFC 3986
/// section 3.2.2 use them for IP literals.
///
/// Claimed only when the accepting parser's host is what RFC 3986 section
/// 3.2.2 prescribes, an `IP-literal`: anything else bracketed is the
/// parser's own defect (`invalid-ip-literal`), not this spec difference.
pub(crate) fn ip_literal(ctx: &Ctx<'_, '_>) -> Diff {
    // Or the input's valid literal written as the parser's documentation
    // says it writes one (a zone ID after a single `%`: uri-js, fast-uri).
    let host_is_ip_literal = ctx.theirs(Component::Host).is_some_and(|h| {
        is_documented_literal(ctx.oracle, h)
            || crate::triage::reading::writes_input_literal(ctx.oracle, ctx.input, h)
    });
    if !host_is_ip_literal {
        return Diff::NONE;
    }
    rejected_with(ctx, |k, r| {
        matches!(k, ErrorKind::Unwise(b'[' | b']')) && r == Production::Authority
    })
}

/// An `escaped` octet in a host: RFC 2396 `hostname` has none (section
/// 3.2.2), so the authority is a `reg_name`; WHATWG and RFC 3986 section
/// 3.2.2 decode or keep it.
pub(crate) fn percent_encoded_host(ctx: &Ctx<'_, '_>) -> Diff {
    if our_host_text(ctx).is_some_and(|h| h.contains('%')) {
        Diff {
            verdict: true,
            fields: AUTHORITY_PARTS,
        }
    } else {
        Diff::NONE
    }
}

/// RFC 2396 `IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit`
/// has no range and no other forms (section 3.2.2); WHATWG's IPv4 parser
/// reads hex, octal and short forms (`0x7f.1` is 127.0.0.1) and rejects what
/// is out of range. `127.1` or `1.2.3.4.5` is a `reg_name` for RFC 2396.
/// curl's parser reads the same forms: it "parses and normalizes everything
/// that appears to be a numerical IPv4 address" (curl docs/URL-SYNTAX.md,
/// "Numerical IPv4 addresses").
pub(crate) fn ipv4_number_form(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(ours) = our_host_text(ctx) else {
        return Diff::NONE;
    };
    if !ends_in_a_number(ours) {
        return Diff::NONE;
    }
    let theirs = ctx.theirs(Component::Host);
    let reads_ipv4 = theirs.is_some_and(|t| is_dotted_quad(t) && t != ours);
    Diff {
        verdict: !ctx.theirs.accepted(),
        fields: if reads_ipv4 {
            AUTHORITY_PARTS
        } else {
            ComponentSet::EMPTY
        },
    }
}

/// WHATWG maps a domain through UTS #46 (IDNA) processing (URL Standard,
/// host parsing, "domain to ASCII"): a label starting `xn--` must be valid
/// Punycode, and some characters are mapped or refused. RFC 2396 hostnames
/// are plain `alphanum` and `-` labels (section 3.2.2).
pub(crate) fn idna_host(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(ours) = our_host_text(ctx) else {
        return Diff::NONE;
    };
    let punycode = ours
        .split('.')
        .any(|l| l.len() >= 4 && l.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("xn--")));
    if punycode {
        Diff {
            verdict: true,
            fields: ComponentSet::of(&[Component::Host]),
        }
    } else {
        Diff::NONE
    }
}

/// An empty `server` (RFC 2396 section 3.2.2: `server = [ ... ]`) has no
/// host; RFC 3986 section 3.2.2 (`reg-name = *(...)`) and WHATWG for
/// non-special schemes give it an empty one.
pub(crate) fn empty_host(ctx: &Ctx<'_, '_>) -> Diff {
    let f = ctx.fields_where(|ours, theirs| ours.is_none() && theirs == Some(""));
    Diff::of_fields(f.intersection(ComponentSet::of(&[Component::Host])))
}

/// Schemes and hosts are case-insensitive (RFC 2396 sections 3.1 and
/// 3.2.2); WHATWG lower-cases them.
pub(crate) fn case_normalized(ctx: &Ctx<'_, '_>) -> Diff {
    let f = ctx.fields_where(|ours, theirs| match (ours, theirs) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
        _ => false,
    });
    Diff::of_fields(f.intersection(ComponentSet::of(&[
        Component::Scheme,
        Component::Host,
        Component::Authority,
    ])))
}

/// `file://localhost` read as the local machine's empty host (RFC 8089
/// section 2).
pub(crate) fn file_localhost(ctx: &Ctx<'_, '_>) -> Diff {
    if !super::is_file(ctx) {
        return Diff::NONE;
    }
    let f = ctx.fields_where(|ours, theirs| {
        ours.is_some_and(|h| h.eq_ignore_ascii_case("localhost")) && theirs == Some("")
    });
    Diff::of_fields(f.intersection(ComponentSet::of(&[Component::Host])))
}

/// Perl's `URI::file` has no userinfo or port: its `host` is the whole
/// authority, unescaped (`sub host { uri_unescape(shift->authority(@_)) }`,
/// URI 5.17 URI/file.pm), which its documentation reads as a host or as a
/// device or volume specification ("it makes sense to map them to the
/// authority field"): `file://c:/path` has host `c:`, `file://u@h:1/` host
/// `u@h:1`. Claims the host where theirs is the file URI's authority so
/// unescaped.
pub(crate) fn file_authority_as_host(ctx: &Ctx<'_, '_>) -> Diff {
    let file = super::is_file(ctx);
    let (Some(authority), Some(theirs)) =
        (ctx.ours(Component::Authority), ctx.theirs(Component::Host))
    else {
        return Diff::NONE;
    };
    // The adapter writes the unescaped octets as their UTF-8 reading, or
    // one character each when they are no UTF-8 (perl's utf8::decode).
    let unescaped = match String::from_utf8(crate::triage::text::decoded(authority).into_owned()) {
        Ok(text) => text,
        Err(e) => e.into_bytes().into_iter().map(char::from).collect(),
    };
    if file && unescaped == theirs {
        ctx.claim(ComponentSet::of(&[Component::Host]))
    } else {
        Diff::NONE
    }
}

/// Perl's URI reads the host as the authority after its last `@` less a
/// `:` and one or more digits (URI::_server's host), so an empty port
/// (`ftp://h:/`, `file://c:/`) leaves its `:` in the host: `h:`, where the
/// host is `h` and the port empty (RFC 3986 section 3.2.3, `port =
/// *DIGIT`). `host` is documented to return "the unescaped hostname": a
/// defect, not a reading.
pub(crate) fn host_keeps_port_colon(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.ours(Component::Port) != Some("") {
        return Diff::NONE;
    }
    let f = ctx.fields_where(|ours, theirs| match (ours, theirs) {
        (Some(ours), Some(theirs)) => theirs.strip_suffix(':') == Some(ours),
        _ => false,
    });
    Diff::of_fields(f.intersection(ComponentSet::of(&[Component::Host])))
}

/// httpx refuses a host of four dot-separated digit runs that Python's
/// `ipaddress.IPv4Address` does not take (an octet above 255, a leading
/// zero: `999.1.1.1`, `125.025.062.125`; httpx/_urlparse.py, encode_host,
/// "Invalid IPv4 address"), where RFC 2396 reads a `hostname` or an
/// `IPv4address` of any digits (section 3.2.2). With a base, the base's
/// host counts too. Claims the verdict.
pub(crate) fn dotted_host_refused(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs.accepted() || !ctx.ours.accepted() {
        return Diff::NONE;
    }
    let texts = [Some(ctx.input), ctx.resolved.map(|r| r.base)];
    let refused = texts
        .into_iter()
        .flatten()
        .any(|t| host_of(t).is_some_and(is_dotted_but_not_ipv4));
    if refused { Diff::VERDICT } else { Diff::NONE }
}

/// The host of `text`'s authority as Appendix B splits it.
fn host_of(text: &str) -> Option<&str> {
    crate::oracle::appendix_b_split(text)
        .authority
        .map(crate::triage::host::host_text)
}

/// Four dot-separated runs of digits that are no dotted quad Python's
/// `ipaddress` takes (each 0-255, no leading zero).
fn is_dotted_but_not_ipv4(host: &str) -> bool {
    let parts: Vec<&str> = host.split('.').collect();
    let dotted = parts.len() == 4
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let octet = |p: &&str| (p.len() == 1 || !p.starts_with('0')) && p.parse::<u8>().is_ok();
    dotted && !parts.iter().all(octet)
}
