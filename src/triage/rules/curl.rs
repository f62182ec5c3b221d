//! libcurl's URL dialect: "only limited checks of the format"
//! (everything.curl.dev, "URLs"), one or three slashes, a host in every
//! URL but `file://`, and its own `file://` hosts.

use super::{
    AUTHORITY_PARTS, authorityless_base_path, host_in_path, is_file, opaque_query, our_host_text,
    rejected_with,
};
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::rfc2396::ErrorKind;
use crate::triage::Ctx;
use crate::triage::host::same_address;
use crate::triage::ip_literal::is_ip_literal;

/// curl "only does limited checks of the format" and passes illegal
/// characters on (everything.curl.dev, "URLs"); it percent-encodes bytes
/// outside printable ASCII (curl docs/URL-SYNTAX.md, "non-ASCII"). So it
/// accepts what RFC 2396 section 2.4.3 calls unwise or delims, stray `%`
/// and non-ASCII text.
pub(crate) fn curl_lenient_characters(ctx: &Ctx<'_, '_>) -> Diff {
    if !ctx.theirs.accepted() {
        return Diff::NONE;
    }
    // RFC 2396 stopped at the bracket of a host that is a valid IP
    // literal: no leniency, curl parsed an RFC 3986 IP-literal, as
    // `ip-literal` says. The literal is the input's, valid as written:
    // curl writes a valid IPv6 literal in its own form
    // (`[0:0:0:0:0:0:0d01:4403]` as `[::13.1.68.3]`, the same address),
    // which is still that literal; it rewrites a raw `%` zone ID to RFC
    // 6874's `%25`, which makes an invalid literal valid: a leniency.
    let at_bracket = matches!(
        ctx.error().map(|e| e.kind()),
        Some(ErrorKind::Unwise(b'[' | b']'))
    );
    if at_bracket
        && ctx.theirs(Component::Host).is_some_and(|h| {
            h.starts_with('[')
                && is_ip_literal(h)
                && (ctx.input.contains(h)
                    || input_literal(ctx.input)
                        .is_some_and(|l| is_ip_literal(l) && same_address(l, h)))
        })
    {
        return Diff::NONE;
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

/// The input's bracketed text: from the first `[` to the next `]`.
fn input_literal(input: &str) -> Option<&str> {
    let rest = input.get(input.find('[')?..)?;
    rest.get(..=rest.find(']')?)
}

/// curl's `file://` URLs take only `localhost`, `127.0.0.1` or no host
/// (everything.curl.dev, "The scheme separator"; curl's test 1145), report
/// the host as none, and refuse what names no local file (libcurl's
/// `CURLUE_BAD_FILE_URL`: `file:/`, a drive letter off Windows).
pub(crate) fn curl_file_host(ctx: &Ctx<'_, '_>) -> Diff {
    if !is_file(ctx) {
        return Diff::NONE;
    }
    let local = |h: &str| h.is_empty() || h.eq_ignore_ascii_case("localhost") || h == "127.0.0.1";
    let ours = ctx.ours(Component::Host).or_else(|| our_host_text(ctx));
    if !ctx.theirs.accepted() {
        // A host other than those, or no path to a local file at all
        // (`file:/`, or a drive letter, which curl takes only on Windows:
        // CURLUE_BAD_FILE_URL).
        return Diff::VERDICT;
    }
    if ctx.theirs(Component::Host).is_none_or(str::is_empty) && ours.is_none_or(local) {
        Diff::of_fields(ComponentSet::of(&[Component::Host, Component::Authority]))
    } else {
        Diff::NONE
    }
}

/// curl needs a host in every URL but `file://` (libcurl's
/// `CURLUE_NO_HOST`, "no host part in the URL"; curl docs/URL-SYNTAX.md,
/// "Hostname"), where RFC 2396 allows `scheme:/path`, an empty authority
/// and opaque URIs (section 3).
pub(crate) fn curl_host_required(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs.accepted()
        || is_file(ctx)
        || curl_error_is(ctx, "CURLUE_BAD_HOSTNAME")
        || curl_error_is(ctx, "CURLUE_BAD_PORT_NUMBER")
    {
        return Diff::NONE;
    }
    match ctx.parsed {
        Ok(r) if r.kind().is_absolute() && r.host().is_none_or(str::is_empty) => Diff::VERDICT,
        _ => Diff::NONE,
    }
}

/// curl "understands and accepts URLs with one or three slashes" after the
/// scheme (everything.curl.dev, "The scheme separator"): `a:/h/p` and
/// `a:///h/p` reach host `h`, where RFC 2396 reads an `abs_path` or an empty
/// authority (section 3). Claimed when curl's host is the first segment
/// rfc2396 read as its path.
pub(crate) fn curl_slashes(ctx: &Ctx<'_, '_>) -> Diff {
    if !ctx.theirs.accepted() {
        return Diff::NONE;
    }
    let Ok(r) = ctx.parsed else {
        return Diff::NONE;
    };
    if r.authority().is_some_and(|a| !a.is_empty()) {
        return Diff::NONE;
    }
    // The first segment of a path, as curl would read it as a host.
    let first_segment = |path| host_in_path(path, &['/'], &['/', '?']);
    let ours = ctx.ours(Component::Path).unwrap_or_default();
    // With a base, curl may have found its host in the base's path.
    let candidates = [
        authorityless_base_path(ctx).map(first_segment),
        Some(first_segment(ours)),
    ];
    let found = ctx.theirs(Component::Host).is_some_and(|h| {
        candidates
            .iter()
            .flatten()
            .any(|first| h.eq_ignore_ascii_case(first) || same_address(first, h))
    });
    if found {
        Diff::of_fields(
            AUTHORITY_PARTS
                .with(Component::Path)
                .union(opaque_query(ctx)),
        )
    } else {
        Diff::NONE
    }
}

/// Did libcurl refuse with this `CURLUcode` (its name, as the curl oracle's
/// message carries it)?
fn curl_error_is(ctx: &Ctx<'_, '_>, code: &str) -> bool {
    ctx.theirs
        .message
        .as_deref()
        .is_some_and(|m| names_code(m, code))
}

/// Does `message` hold `code` not followed by another character of a name
/// (`_`, an ASCII letter or digit)? Looked for as `str::match_indices`
/// finds it (leftmost, then after the end of each occurrence), but without
/// the substring searcher it builds per call: every code is `CURLUE_`
/// and a few letters, found by its first byte in a message of a few dozen
/// (the triage of every libcurl refusal asks it).
fn names_code(message: &str, code: &str) -> bool {
    let (m, c) = (message.as_bytes(), code.as_bytes());
    let Some(&first) = c.first() else {
        // The empty code occurs everywhere: as `match_indices` finds it.
        return message
            .match_indices(code)
            .any(|(at, _)| !name_byte_at(m, at));
    };
    let mut from = 0;
    while let Some(at) = m
        .get(from..)
        .and_then(|rest| rest.iter().position(|&b| b == first))
        .map(|i| from + i)
    {
        if m.get(at..).is_some_and(|rest| rest.starts_with(c)) {
            let end = at + c.len();
            if !name_byte_at(m, end) {
                return true;
            }
            from = end;
        } else {
            from = at + 1;
        }
    }
    false
}

/// Is the byte at `at` one of a name (`_`, an ASCII letter or digit)? A
/// character is one exactly when its first byte is (the others are not
/// ASCII).
fn name_byte_at(m: &[u8], at: usize) -> bool {
    m.get(at)
        .is_some_and(|&b| b == b'_' || b.is_ascii_alphanumeric())
}

/// libcurl refuses a port that is not a decimal number below 65536
/// (`CURLUE_BAD_PORT_NUMBER`: `-80`, `80x`), where RFC 2396 section 3.2
/// reads the whole authority as a `reg_name` and accepts the input. RFC
/// 3986 section 3.2.3 (`port = *DIGIT`) has no such port either.
pub(crate) fn curl_bad_port(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs.accepted() || !curl_error_is(ctx, "CURLUE_BAD_PORT_NUMBER") {
        return Diff::NONE;
    }
    // Digits RFC 2396 reads as a port, too large for curl: the general
    // `port-out-of-range` explains it.
    if ctx
        .ours(Component::Port)
        .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Diff::NONE;
    }
    if ctx.ours.accepted() {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// libcurl refuses a host name with a character its host name check does
/// not take (`CURLUE_BAD_HOSTNAME`: `,` and other punctuation), where RFC
/// 2396 section 3.2.1 reads a `reg_name` authority.
pub(crate) fn curl_bad_hostname(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs.accepted() || !curl_error_is(ctx, "CURLUE_BAD_HOSTNAME") {
        return Diff::NONE;
    }
    if ctx.ours.accepted() {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As `str::match_indices` finds a code not followed by a name's
    /// character.
    #[test]
    fn a_code_is_found_as_match_indices_finds_it() {
        let old = |m: &str, code: &str| {
            m.match_indices(code).any(|(at, _)| {
                !m[at + code.len()..].starts_with(|c: char| c == '_' || c.is_ascii_alphanumeric())
            })
        };
        let codes = [
            "CURLUE_BAD_HOSTNAME",
            "CURLUE_BAD_PORT_NUMBER",
            "AA",
            "A",
            "",
        ];
        let messages = [
            "CURLUE_BAD_HOSTNAME (21): Bad hostname",
            "a relative reference and no base URL (CURLUE_BAD_PORT_NUMBER (4): x)",
            "CURLUE_BAD_HOSTNAMEX CURLUE_BAD_HOSTNAME",
            "CURLUE_BAD_HOSTNAME_2",
            "CURLUE_BAD_HOSTNAMEé",
            "AAA",
            "AAAb A",
            "AAB",
            "",
            "é",
        ];
        for m in messages {
            for code in codes {
                assert_eq!(names_code(m, code), old(m, code), "{m:?} {code:?}");
            }
        }
    }
}
