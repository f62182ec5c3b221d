//! PHP's `parse_url`: the inputs it refuses ("On seriously malformed URLs,
//! parse_url() may return false", PHP manual), read in
//! `php_url_parse_ex2` (ext/standard/url.c, PHP 8.2).

use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::triage::Ctx;

/// `parse_url` returns false for an authority whose host is empty (`w://`,
/// `//?`, `http://:80/`; `file:///path` is its one exception) and for a
/// port of more than five digits or above 65535 (`h:0014949`, `h:65536`),
/// where RFC 2396 reads an empty `reg_name` or a port of any length
/// (section 3.2.2: `port = *digit`). Claims the verdict.
pub(crate) fn php_refusal(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs.accepted() || !ctx.ours.accepted() {
        return Diff::NONE;
    }
    if refused_by_parse_url(ctx.input) {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// Does `parse_url` refuse `input` for its host or its port?
fn refused_by_parse_url(input: &str) -> bool {
    let split = appendix_b_split(input);
    let Some(authority) = split.authority else {
        return false;
    };
    let file = split.scheme.is_some_and(|s| s.eq_ignore_ascii_case("file"));
    if file && authority.is_empty() && !split.path.is_empty() {
        return false;
    }
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    // The port follows the last `:` after a bracketed literal's `]`.
    let after_literal = host_port.rfind(']').map_or(0, |i| i + 1);
    let (host, port) = match host_port.get(after_literal..).and_then(|t| t.rfind(':')) {
        Some(i) => (
            host_port.get(..after_literal + i).unwrap_or_default(),
            host_port.get(after_literal + i + 1..),
        ),
        None => (host_port, None),
    };
    let digits = port.map_or("", |p| {
        let end = p.find(|c: char| !c.is_ascii_digit()).unwrap_or(p.len());
        p.get(..end).unwrap_or_default()
    });
    let bad_port = digits.len() > 5 || digits.parse::<u32>().is_ok_and(|n| n > 65_535);
    host.is_empty() || bad_port
}

#[cfg(test)]
mod tests {
    use super::refused_by_parse_url;

    /// Each answer checked with PHP 8.2.36's `parse_url` directly.
    #[test]
    fn the_refusals_php_8_2_gives() {
        for refused in [
            "w://",
            "//",
            "//?",
            "///x",
            "http:///x",
            "file://",
            "http://@/x",
            "http://:80/x",
            "http://u@:80/",
            "//h:123456/",
            "//h:99999/",
            "//h:65536",
            "http://[::1]:123456/",
            "http://zue5llll.Xn--pedu:0014949?a",
            "http://h:000080/",
        ] {
            assert!(refused_by_parse_url(refused), "{refused}");
        }
        for taken in [
            "file:///x",
            "FILE:///x",
            "file:///",
            "http://h:/",
            "http://h:0/",
            "http://h:00000/",
            "x://h:1a/",
            "http://h:65535/",
            "http://h:00080/",
            "mailto:a@b",
            "/p",
        ] {
            assert!(!refused_by_parse_url(taken), "{taken}");
        }
    }
}
