//! Jetty's `HttpURI` (9.4): the request-target parser of a server, which
//! refuses what it cannot route (read with Debian's libjetty9-java
//! 9.4.57, each answer checked through `HttpURI(String)` directly).

use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::triage::Ctx;
use crate::triage::text::decoded;

/// `HttpURI` refuses an authority not ended by `/` (`http://a?b`, `//a#b`:
/// "Bad authority", or a `NumberFormatException` from the port
/// `80?b`), a `;` in its userinfo or host ("Bad authority":
/// `ws://a;b@h/`, where RFC 2396 section 3.2.2's userinfo takes `;`), a
/// path whose dot segments (`..`, `%2e%2e`) climb above its
/// first segment ("Bad URI": its canonical path is null), and an encoded
/// NUL in a path ("Illegal character in path"); RFC 2396 takes all three
/// (sections 3.2, 3.3 and 2.4.1). Claims the verdict.
pub(crate) fn jetty_refusal(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs.accepted() || !ctx.ours.accepted() {
        return Diff::NONE;
    }
    if refused_by_http_uri(ctx.input) {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// Does `HttpURI` refuse `input` for one of the three reasons above?
fn refused_by_http_uri(input: &str) -> bool {
    let split = appendix_b_split(input);
    let authority_unended = split.authority.is_some()
        && split.path.is_empty()
        && (split.query.is_some() || split.fragment.is_some());
    authority_unended
        || split.authority.is_some_and(semicolon_in_host)
        || climbs_above_root(split.path)
        || split.path.contains("%00")
}

/// Does `HttpURI`'s `HOST` state meet a `;` in `authority`? It reads the
/// userinfo and the host in that state and throws "Bad authority" on a `;`
/// (9.4.57, `case '#': case ';'`); after a `:` it is in its `PORT` state,
/// which a `@` ends (the `:` was a password's), and which takes a `;`.
fn semicolon_in_host(authority: &str) -> bool {
    let mut host_state = true;
    for c in authority.chars() {
        match c {
            ';' if host_state => return true,
            ':' if host_state => host_state = false,
            '@' => host_state = true,
            _ => {}
        }
    }
    false
}

/// Do `path`'s `..` segments (with `%2e` decoded) remove more segments
/// than came before them?
fn climbs_above_root(path: &str) -> bool {
    let mut depth: usize = 0;
    for segment in path.split('/') {
        let segment = decoded(segment);
        match &*segment {
            b".." => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return true,
            },
            b"." | b"" => {}
            _ => depth += 1,
        }
    }
    false
}

/// Jetty 9.4's `HttpURI` gives the port 0 for an empty port (`//h:`),
/// where RFC 3986 section 3.2.3 reads none ("URI producers and normalizers
/// should omit the port component and its ':' delimiter if port is
/// empty"): a request would go to port 0. Jetty 12 made an unset port -1
/// (jetty/jetty.project#11488). Claims the port.
pub(crate) fn empty_port_zero(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.ours(Component::Port) == Some("") && ctx.theirs(Component::Port) == Some("0") {
        ctx.claim(ComponentSet::of(&[Component::Port]))
    } else {
        Diff::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::refused_by_http_uri;

    /// Each answer checked with Jetty 9.4.57's `HttpURI` through its adapter.
    #[test]
    fn the_refusals_jetty_9_4_gives() {
        for refused in [
            "http://a?b",
            "http://a#b",
            "http://a?@b",
            "//a?b",
            "http://a:80?b",
            "http://h:8#",
            "http://a/../x",
            "http://a/%2e%2e/x",
            "/..",
            "..",
            "a/../..",
            "h:/a/../..",
            "h:/.%2e",
            "http://a/%00",
            "%00",
            "ws://a;b@example.com/",
            "x://&%DB;:l@1.2.3.4:22",
            "//h;/",
        ] {
            assert!(refused_by_http_uri(refused), "{refused}");
        }
        for taken in [
            "http://a",
            "http://a/?@b",
            "http://a/b/../x",
            "http://a/b/%2E./x",
            "http://a/?%00",
            "http://a/#%00",
            "a/..",
            "/a/..",
            "h:/a",
            "h:/.a",
            "http://a/%01",
            "x://a:b;c@h/",
            "x://h/;p",
        ] {
            assert!(!refused_by_http_uri(taken), "{taken}");
        }
    }
}
