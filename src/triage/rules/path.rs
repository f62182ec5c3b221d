//! The path: an empty one written `/`, dot segments, and rust-url's
//! Windows drive letters outside `file`.

use std::borrow::Cow;
use std::cell::OnceCell;

use super::{Target, is_file};
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::rfc2396::remove_dot_segments;
use crate::triage::Ctx;
use crate::triage::text::{
    decode_dot_segments, decoded as decoded_octets, drop_above_root, is_double_dot,
    is_drive_letter, same_octets,
};

/// An empty path written `/`: WHATWG special URLs and `http::Uri`
/// absolute-form always have a path (RFC 9110 section 4.2.3).
pub(crate) fn empty_path_slash(ctx: &Ctx<'_, '_>) -> Diff {
    let f = ctx.fields_where(|ours, theirs| ours == Some("") && theirs == Some("/"));
    Diff::of_fields(f.intersection(ComponentSet::of(&[Component::Path])))
}

/// RFC 2396 removes `.` and `..` segments only while resolving (section
/// 5.2 step 6); WHATWG removes them from every path (and RFC 3986 section
/// 5.2.4 from every resolved one). A rootless path (RFC 2396's
/// `opaque_part`, RFC 3986's `path-rootless`) is one too for RFC 3986:
/// section 5.2.2 removes its dot segments when it is resolved (`T.path =
/// remove_dot_segments(R.path)`), and section 6.2.2.3 has a normaliser
/// remove them from any path (httpx's `normalize_path`: `http:a/./b` has
/// the path `a/b`).
pub(crate) fn dot_segments(ctx: &Ctx<'_, '_>) -> Diff {
    // RFC 2396's `opaque_part` holds the query the other splits off
    // (`opaque-part-query`): the path is what precedes it.
    let their_query = ctx.theirs(Component::Query);
    let opaque = super::opaque(ctx);
    let without_query = |a: &'_ str| -> usize {
        match (opaque, a.split_once('?'), their_query) {
            (true, Some((path, query)), Some(theirs)) if same_octets(query, theirs) => path.len(),
            _ => a.len(),
        }
    };
    // Only the path is claimed: the other fields are not looked at (each
    // look copies the text without its dot segments).
    let f = ctx.field_where(Component::Path, |ours, theirs| match (ours, theirs) {
        // Without a `.` there is no dot segment to remove (and without a
        // `%` none to decode): the path stays as it is, so it cannot be
        // the reason the two differ.
        (Some(a), Some(_)) if !a.contains('.') && !a.contains('%') => false,
        (Some(a), Some(b)) if !a.is_empty() && !a.starts_with('/') => {
            let a = &a[..without_query(a)];
            let removed = grammar::rfc3986::remove_dot_segments(a);
            removed != a && (removed == b || same_octets(&removed, b))
        }
        (Some(a), Some(b)) if a.starts_with('/') => {
            // Section 5.2.4 on the text as written, or after decoding
            // `%2E` (RFC 3986 section 6.2.2.2 makes it `.`): parsers do
            // either. Without a `%` the two are one text, removed once;
            // `b`'s octets are decoded once for the four comparisons.
            let literal = remove_dot_segments(a);
            let decoded = match decode_dot_segments(a) {
                Cow::Borrowed(_) => None,
                Cow::Owned(path) => Some(remove_dot_segments(&path)),
            };
            let theirs = OnceCell::new();
            let explains = |r: &str| {
                r != a && (r == b || decoded_octets(r) == *theirs.get_or_init(|| decoded_octets(b)))
            };
            decoded
                .as_deref()
                .is_some_and(|d| explains(d) || explains(drop_above_root(d)))
                || explains(&literal)
                || explains(drop_above_root(&literal))
        }
        _ => false,
    });
    Diff::of_fields(f)
}

/// rust-url (2.5.8, `last_slash_can_be_removed`) keeps a segment that looks
/// like a Windows drive letter (`r:`, `c|`) when a later `..` would remove
/// it, in every scheme; the URL Standard ("shorten a URL's path") protects it
/// only in `file` URLs. It also empties the host of a `file` URL whose path
/// starts with a drive letter (`file://1.2.3.4/C:/`), which the URL Standard
/// no longer does (file host state keeps it; WPT urltestdata expects host
/// `1.2.3.4`). Bugs of rust-url only (ada keeps both), recorded in FUZZING.md.
pub(crate) fn windows_drive_letter(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(path) = ctx.ours(Component::Path) else {
        return Diff::NONE;
    };
    let starts_with_drive = path
        .strip_prefix('/')
        .and_then(|p| p.split('/').next())
        .is_some_and(is_drive_letter);
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
        if is_drive_letter(segment) {
            seen_drive = true;
        } else if seen_drive && is_double_dot(segment) {
            climbs_over = true;
        }
    }
    if climbs_over {
        Diff::of_fields(host.with(Component::Path))
    } else {
        Diff::of_fields(host)
    }
}

/// An `ftp` path reported without its leading `/` (RFC 1738 section 3.2.2:
/// the url-path is relative to the login directory), and without the
/// `;type=` typecode that section puts after it, which Ruby's URI::FTP keeps
/// apart (`#typecode`: uri/ftp.rb cuts the path at the first `;type=`;
/// `ftp://h/baz.gif;type=a` has the path `baz.gif`, uri 0.11.0 run
/// directly).
pub(crate) fn ftp_relative_path(ctx: &Ctx<'_, '_>) -> Diff {
    if !ctx.scheme().is_some_and(|s| s.eq_ignore_ascii_case("ftp")) {
        return Diff::NONE;
    }
    let f =
        ctx.fields_where(
            |ours, theirs| match (ours.and_then(|o| o.strip_prefix('/')), theirs) {
                (Some(ours), Some(theirs)) => {
                    ours == theirs
                        || ours
                            .split_once(";type=")
                            .is_some_and(|(path, _)| path == theirs)
                }
                _ => false,
            },
        );
    Diff::of_fields(f.intersection(ComponentSet::of(&[Component::Path])))
}

/// urllib3's `Url` puts a `/` before a path that lacks one
/// (`urllib3/util/url.py`, `Url.__new__`: "Data structure for representing
/// an HTTP URL"), and its `parse_url` splits a query out of an
/// `opaque_part` (`mailto:a@b?subject=x`: path `/a@b`, query `subject=x`).
/// The path it puts the `/` before is the one it normalised: for http,
/// https and no scheme, dot segments removed and the hex digits of escapes
/// upper-cased ([`urllib3_path`]).
pub(crate) fn slash_before_path(ctx: &Ctx<'_, '_>) -> Diff {
    let (Some(ours), Some(theirs)) = (ctx.ours(Component::Path), ctx.theirs(Component::Path))
    else {
        return Diff::NONE;
    };
    // `Url` adds no `/` to an empty path (`if path and not
    // path.startswith("/")`).
    let slashed = |path: &str| {
        !path.starts_with('/')
            && match theirs.strip_prefix('/') {
                Some(rest) => urllib3_path(path, rest),
                None => theirs.is_empty() && urllib3_path(path, ""),
            }
    };
    if slashed(ours) {
        return Diff::of_fields(
            ctx.open
                .fields
                .intersection(ComponentSet::of(&[Component::Path])),
        );
    }
    // RFC 2396's opaque_part holds the `?`; urllib3 splits it off.
    match (ours.split_once('?'), ctx.theirs(Component::Query)) {
        (Some((path, query)), Some(their_query))
            if slashed(path) && same_escapes(query, their_query) =>
        {
            Diff::of_fields(
                ctx.open
                    .fields
                    .intersection(ComponentSet::of(&[Component::Path, Component::Query])),
            )
        }
        _ => Diff::NONE,
    }
}

/// Is `theirs` the path `written` as urllib3's `parse_url` gives it: as
/// written, or with its dot segments removed (RFC 3986 sections 5.2.4 and
/// 6.2.2.3; urllib3's `_remove_path_dot_segments` cites section 5.2.4), the
/// hex digits of its escapes in either case (section 6.2.2.1:
/// `_encode_invalid_chars` upper-cases them)?
pub(crate) fn urllib3_path(written: &str, theirs: &str) -> bool {
    same_escapes(written, theirs)
        || same_escapes(&grammar::rfc3986::remove_dot_segments(written), theirs)
}

/// `a` and `b` are the same text but for the case of the hex digits of
/// their percent-encodings (RFC 3986 section 6.2.2.1).
fn same_escapes(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && crate::triage::variation::normalized_escapes(a, false)
            == crate::triage::variation::normalized_escapes(b, false)
}

/// Node's legacy `url.parse` ends the host at the first character it does
/// not take in a hostname (a `:` whose port is not digits, a `%`) and puts
/// the rest of the authority into the path (`https://host:port` gives host
/// `host`, pathname `/:port`; `http://www.%70ython.org/` host `www.`,
/// pathname `%70ython.org/`): its documentation marks such URLs invalid
/// and deprecated (DEP0170), and parses them this way.
pub(crate) fn authority_rest_in_path(ctx: &Ctx<'_, '_>) -> Diff {
    let (Some(authority), Some(host), Some(theirs)) = (
        ctx.ours(Component::Authority),
        ctx.theirs(Component::Host),
        ctx.theirs(Component::Path),
    ) else {
        return Diff::NONE;
    };
    let ours = ctx.ours(Component::Path).unwrap_or_default();
    // Spring's USERINFO_PATTERN `([^@\[/?#]*)` ends the userinfo at the
    // first `@`, and its path builder then writes every `//` as `/`
    // (`path_slashes_collapsed`): both readings apply to the same path.
    let spring = Target::External("spring-uri").covers(ctx.oracle);
    // The host follows the userinfo, if any.
    let authority = if spring {
        authority.split_once('@').map_or(authority, |(_, h)| h)
    } else {
        authority.rsplit_once('@').map_or(authority, |(_, h)| h)
    };
    let Some(after_host) = authority
        .get(..host.len())
        .filter(|h| h.eq_ignore_ascii_case(host))
        .and_then(|_| authority.get(host.len()..))
        .filter(|rest| !rest.is_empty())
    else {
        return Diff::NONE;
    };
    // Node escapes a few characters anywhere in what it reads as a path
    // (lib/url.js, `autoEscapeChars`: `'` is `%27`).
    let moved = format!("{after_host}{ours}");
    let escaped = node_auto_escape(&moved);
    // Spring's UriComponentsBuilder (4.3) takes only digits after the `:`
    // for the port (PORT_PATTERN `(\d*(?:\{[^/]+?\})?)`) and the rest of
    // the authority for the path (PATH_PATTERN `([^?#]*)`): `//g:80f` has
    // the port 80 and the path `f`.
    let after_port = after_host
        .strip_prefix(':')
        .map(|rest| rest.trim_start_matches(|c: char| c.is_ascii_digit()))
        .filter(|rest| !rest.is_empty())
        .map(|rest| format!("{rest}{ours}"));
    let after_port = if spring {
        after_port.map(|p| collapse_slashes(&p))
    } else {
        after_port
    };
    let matches = |t: &str| t == moved || t == escaped || after_port.as_deref() == Some(t);
    if matches(theirs) || theirs.strip_prefix('/').is_some_and(matches) {
        return Diff::of_fields(
            ctx.open
                .fields
                .intersection(ComponentSet::of(&[Component::Path])),
        );
    }
    Diff::NONE
}

/// `text` with the characters Node's legacy `url.parse` escapes in a path
/// percent-encoded (lib/url.js, `autoEscapeChars`).
fn node_auto_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\'' | '{' | '}' | '|' | '\\' | '^' | '`' | '<' | '>' | '"' | ' ' | '\r' | '\n'
            | '\t' => out.push_str(&format!("%{:02X}", u32::from(c))),
            _ => out.push(c),
        }
    }
    out
}

/// Spring's `UriComponentsBuilder` replaces every `//` in a path by `/`
/// (its path builder's sanitising, deliberate since spring-framework#14904
/// and #17006; #34076 asked to make it optional): RFC 2396 keeps empty
/// segments (section 3.3). Claimed when their path is ours so collapsed.
pub(crate) fn path_slashes_collapsed(ctx: &Ctx<'_, '_>) -> Diff {
    // Only the path is claimed: the other fields are not looked at (each
    // look copies the text without its dot segments).
    let f = ctx.field_where(Component::Path, |ours, theirs| match (ours, theirs) {
        (Some(a), Some(b)) if a.contains("//") => collapse_slashes(a) == b,
        _ => false,
    });
    Diff::of_fields(f.intersection(ComponentSet::of(&[Component::Path])))
}

/// `path` with every run of `/` written as one.
pub(crate) fn collapse_slashes(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// urllib3 2.8.0's `parse_url`, run directly: `http:%CD%84c;K//..//`
    /// has the path `/%CD%84c;K//`, `https:a%ee` the path `/a%EE`,
    /// `HTTP:./..?q` the path "".
    #[test]
    fn a_path_as_urllib3_normalises_it() {
        assert!(urllib3_path("%CD%84c;K//..//", "%CD%84c;K//"));
        assert!(urllib3_path("a%ee", "a%EE"));
        assert!(urllib3_path("./..", ""));
        assert!(urllib3_path("a/b", "a/b"));
        assert!(
            !urllib3_path("a%41", "aA"),
            "urllib3 decodes no escape in a path"
        );
        assert!(!urllib3_path("a/../b", "a/b"));
    }
}
