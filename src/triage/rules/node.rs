//! Node's legacy `url.parse`: the inputs it throws on, as its documentation
//! says it does.

use super::AUTHORITY_PARTS;
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::appendix_b_split;
use crate::triage::Ctx;

/// `url.parse` throws a `URIError` when the userinfo does not
/// percent-decode as UTF-8 ("A URIError is thrown if the auth property is
/// present but cannot be decoded", Node.js docs, url.parse), and
/// `ERR_INVALID_URL` for a host its `domainToASCII` refuses (Node.js docs,
/// errors, ERR_INVALID_URL: "passed to ... the legacy url.parse()"; an
/// `xn--` label that is no Punycode): RFC 2396 takes both (sections 3.2.2
/// and 3.2.1). Claims the verdict where the adapter's message names that
/// error and the input has such a userinfo or host.
pub(crate) fn node_refusal(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.theirs.accepted() || !ctx.ours.accepted() {
        return Diff::NONE;
    }
    let message = ctx.theirs.message.as_deref().unwrap_or_default();
    let Some(authority) = appendix_b_split(ctx.input).authority else {
        return Diff::NONE;
    };
    let (userinfo, host) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    let undecodable_auth = message.starts_with("URIError")
        && userinfo.is_some_and(|u| {
            String::from_utf8(crate::triage::text::decoded(u).into_owned()).is_err()
        });
    let refused_idna =
        message.starts_with("TypeError: Invalid URL") && host.to_ascii_lowercase().contains("xn--");
    if undecodable_auth || refused_idna {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// url-parse resolves a relative path only against a base written with
/// `//` (index.js: `if (relative && location.slashes && …) url.pathname =
/// resolve(url.pathname, location.pathname)`): against any other base
/// (`p:/a/b`, `urn:x`) the reference's path is kept as written and the
/// base gives only its scheme (`q` against `p:/p:` is `p:q`; an empty
/// reference gives an empty path). url-parse claims no standard. Claims
/// the path where the base has no authority, the reference neither a
/// scheme nor an authority, and theirs is the reference's own path.
pub(crate) fn url_parse_slashless_base(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let base = appendix_b_split(resolved.base);
    let reference = appendix_b_split(resolved.reference);
    let kept = base.authority.is_none()
        && reference.scheme.is_none()
        && reference.authority.is_none()
        && ctx.theirs(Component::Path).unwrap_or_default() == reference.path;
    if kept {
        ctx.claim(ComponentSet::of(&[Component::Path]))
    } else {
        Diff::NONE
    }
}

/// url-parse reads a `file:` URL whose text after `//` starts with a letter
/// and `:` (its `windowsDriveLetter`, `/^[a-zA-Z]:/`) as a path with no host
/// (url-parse 1.5.10 index.js: "When the authority component is absent the
/// URL starts with a path component"): `file://c:/x` is host "" and path
/// `/c:/x`, as the URL Standard's file host state reads a Windows drive
/// letter, and by the same test `file://h:1/x` is path `/h:1/x`. Claims the
/// authority's parts and the path where theirs are that reading.
pub(crate) fn url_parse_file_drive_letter(ctx: &Ctx<'_, '_>) -> Diff {
    // Theirs has a host: not this reading (and no resolution to compute).
    if !ctx.theirs(Component::Host).is_none_or(str::is_empty) {
        return Diff::NONE;
    }
    // With a base, the authority and path RFC 3986 section 5.2.2 gives the
    // target: a base's drive-letter authority is read the same way.
    let strict;
    let (scheme, authority, path) = match ctx.resolved {
        None => {
            let split = appendix_b_split(ctx.input);
            (split.scheme, split.authority, split.path)
        }
        Some(r) => {
            strict = crate::oracle::grammar_rfc3986_resolve(r.base, r.reference);
            (
                strict.components.get(Component::Scheme),
                strict.components.get(Component::Authority),
                strict.components.get(Component::Path).unwrap_or_default(),
            )
        }
    };
    let file = scheme.is_some_and(crate::triage::host::is_file);
    let Some(authority) = authority else {
        return Diff::NONE;
    };
    let mut bytes = authority.bytes();
    let drive = bytes.next().is_some_and(|b| b.is_ascii_alphabetic()) && bytes.next() == Some(b':');
    let read_as_path = ctx
        .theirs(Component::Path)
        .and_then(|p| p.strip_prefix('/'))
        .and_then(|p| p.strip_prefix(authority))
        .is_some_and(|rest| rest == path);
    if file && drive && read_as_path {
        ctx.claim(AUTHORITY_PARTS.with(Component::Path))
    } else {
        Diff::NONE
    }
}

/// url-parse drops a port its `requires-port` dependency says is not
/// required (requires-port 1.0 index.js: `if (!port) return false`, so
/// port 0 in any spelling; `case 'file': return false`; and a scheme's
/// default port), where RFC 3986 section 3.2.3 keeps the port as written.
/// url-parse claims no standard. Claims the port where theirs is none and
/// ours is 0, a `file` URI's, or the scheme's default.
pub(crate) fn url_parse_port_not_required(ctx: &Ctx<'_, '_>) -> Diff {
    let (Some(port), None) = (ctx.ours(Component::Port), ctx.theirs(Component::Port)) else {
        return Diff::NONE;
    };
    if port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) {
        return Diff::NONE;
    }
    let value = port.trim_start_matches('0');
    let scheme = ctx
        .ours(Component::Scheme)
        .unwrap_or_default()
        .to_ascii_lowercase();
    let default = match scheme.as_str() {
        "http" | "ws" => "80",
        "https" | "wss" => "443",
        "ftp" => "21",
        "gopher" => "70",
        _ => "",
    };
    if value.is_empty() || scheme == "file" || value == default {
        ctx.claim(ComponentSet::of(&[Component::Port, Component::Authority]))
    } else {
        Diff::NONE
    }
}

/// url-parse takes from the base (its `location`) only what its rules mark
/// to be copied (index.js, `rules`: the host, hostname and port rows), never
/// the query: an empty or fragment-only reference loses the base's query
/// (`""` against `http://h/p?q` is `http://h/p`), where RFC 3986 section
/// 5.2.2 keeps it (`T.query = Base.query`). url-parse claims no standard.
/// Claims the query where the reference has no scheme, authority, path or
/// query, ours has one and theirs none.
pub(crate) fn url_parse_no_base_query(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let reference = appendix_b_split(resolved.reference);
    let bare = reference.scheme.is_none()
        && reference.authority.is_none()
        && reference.path.is_empty()
        && reference.query.is_none();
    if bare && ctx.ours(Component::Query).is_some() && ctx.theirs(Component::Query).is_none() {
        ctx.claim(ComponentSet::of(&[Component::Query]))
    } else {
        Diff::NONE
    }
}

/// url-parse's rules copy from the base only the host, hostname and port
/// rows (index.js, `rules`, the fourth element; `relative && instruction[3]
/// ? location[key] : ''`), never `['@', 'auth', 1]`: a reference without a
/// scheme or `//` loses the base's userinfo (`b` against `http://u:p@h/a`
/// is `http://h/b`), where RFC 3986 section 5.2.2 keeps `Base.authority`
/// whole. url-parse claims no standard. Claims the userinfo where the
/// reference has neither scheme nor authority, ours has userinfo and theirs
/// none.
pub(crate) fn url_parse_no_base_userinfo(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let reference = appendix_b_split(resolved.reference);
    let relative = reference.scheme.is_none() && reference.authority.is_none();
    if relative
        && ctx.ours(Component::Userinfo).is_some()
        && ctx.theirs(Component::Userinfo).is_none()
    {
        ctx.claim(ComponentSet::of(&[
            Component::Userinfo,
            Component::Authority,
        ]))
    } else {
        Diff::NONE
    }
}

/// The schemes Node's legacy `url.parse` knows always take `//` (lib/url.js,
/// `slashedProtocol`): without it, `http:a/b` keeps `a/b` as its path.
const SLASHED_PROTOCOLS: &[&str] = &["http", "https", "ftp", "gopher", "file", "ws", "wss"];

/// Is `scheme` one of [`SLASHED_PROTOCOLS`] in any case (as `url.resolve`
/// reads `result.protocol`, which `url.parse` lower-cased)?
fn slashed_in_any_case(scheme: &str) -> bool {
    SLASHED_PROTOCOLS
        .iter()
        .any(|p| p.eq_ignore_ascii_case(scheme))
}

/// `url.parse` looks a scheme up in `slashedProtocol` as written, not
/// lower-cased (lib/url.js: `slashedProtocol.has(proto)`, where the
/// hostless check uses `lowerProto`), so `http:evil.example/x` has no host
/// and `HTTP:evil.example/x` the host `evil.example`, although RFC 3986
/// section 3.1 makes schemes case-insensitive. url.parse claims no
/// standard. Claims the authority's parts and the path where the scheme is
/// such a one written in another case, no `//` follows it, and their host
/// is what follows up to `/`, `?` or `#`.
pub(crate) fn node_scheme_case_host(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.resolved.is_some() {
        return Diff::NONE;
    }
    let split = appendix_b_split(ctx.input);
    let Some(scheme) = split.scheme else {
        return Diff::NONE;
    };
    let slashed = slashed_in_any_case(scheme) && !SLASHED_PROTOCOLS.contains(&scheme);
    let Some(rest) = ctx.input.get(scheme.len() + 1..) else {
        return Diff::NONE;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = host.split(':').next().unwrap_or_default();
    let read_as_host = slashed
        && split.authority.is_none()
        && !host.is_empty()
        && ctx
            .theirs(Component::Host)
            .is_some_and(|h| h.eq_ignore_ascii_case(host));
    if read_as_host {
        ctx.claim(
            AUTHORITY_PARTS
                .with(Component::Path)
                .union(split_query(ctx, split.query)),
        )
    } else {
        Diff::NONE
    }
}

/// The query too, where theirs is the one RFC 3986 splits off (Appendix
/// B): rfc2396 keeps it in the `opaque_part` of an input without `//`
/// (section 3), which `opaque-part-query` explains only where the path is
/// the same, and here the host took the path's start.
fn split_query(ctx: &Ctx<'_, '_>, query: Option<&str>) -> ComponentSet {
    if query.is_some() && ctx.theirs(Component::Query) == query {
        ComponentSet::of(&[Component::Query])
    } else {
        ComponentSet::EMPTY
    }
}

/// The characters that end the host `url.parse` reads (lib/url.js:
/// `nonHostChars`, `%`, `/`, `?`, `;`, `#` and the `autoEscape` ones), and
/// the `:` before a port.
const NODE_HOST_END: &[char] = &[
    '%', '/', '?', ';', '#', '\'', '{', '}', '|', '\\', '^', '`', '<', '>', '"', ' ', '\r', '\n',
    '\t', ':',
];

/// Is `host` what `url.parse` keeps of `text` as a host: a prefix of it,
/// ASCII case aside (it lower-cases hostnames), that ends where `text`
/// does or at one of [`NODE_HOST_END`]?
fn node_host_prefix(host: &str, text: &str) -> bool {
    text.get(..host.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(host))
        && text
            .get(host.len()..)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(NODE_HOST_END))
}

/// `url.parse` reads a host after any scheme it does not list in
/// `slashedProtocol`, with or without `//` (lib/url.js, Url.prototype.parse:
/// `if (slashes || (proto && !slashedProtocol.has(proto)))` parses the host;
/// only `javascript:` is `hostlessProtocol`): `mailto:a@evil.example/x` has
/// the host `evil.example`, `urn:isbn:0` the host `isbn`, where RFC 3986
/// section 3 reads a path (no `//`, no authority). url.parse claims no
/// standard ("a lenient, non-standard algorithm", Node.js docs). Claims
/// the authority's parts and the path where the input (with a base: a
/// reference with a scheme, which `url.resolve` keeps with its host) has
/// such a scheme written in lower case with no `//`, and their host is
/// what `url.parse` keeps of the text after it and any userinfo.
/// `HTTP:` and the like are [`node_scheme_case_host`]'s. The rule of
/// `opaque-read-as-authority`, where the whole `opaque_part` is often
/// `auth@host` (`mailto:gnat@frii.com`).
pub(crate) fn node_host_without_slashes(ctx: &Ctx<'_, '_>) -> Diff {
    let text = match ctx.resolved {
        Some(resolved) => resolved.reference,
        None => ctx.input,
    };
    let split = appendix_b_split(text);
    let Some(scheme) = split.scheme else {
        return Diff::NONE;
    };
    let not_slashed = !slashed_in_any_case(scheme) && !scheme.eq_ignore_ascii_case("javascript");
    let Some(rest) = text.get(scheme.len() + 1..) else {
        return Diff::NONE;
    };
    let before_path = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_text = before_path.rsplit('@').next().unwrap_or_default();
    let read_as_host = not_slashed
        && split.authority.is_none()
        && ctx
            .theirs(Component::Host)
            .is_some_and(|h| !h.is_empty() && node_host_prefix(h, host_text));
    if read_as_host {
        ctx.claim(
            AUTHORITY_PARTS
                .with(Component::Path)
                .union(split_query(ctx, split.query)),
        )
    } else {
        Diff::NONE
    }
}

/// `url.resolve` against a base whose scheme is not in `slashedProtocol`
/// lets the reference's path "crawl up to the hostname": it puts the base's
/// host in front of the base's path segments, merges the reference's path
/// into them, and takes the first segment back as the host (lib/url.js,
/// Url.prototype.resolveObject: "If the url is a non-slashed url, then
/// relative links like ../.. should be able to crawl up to the hostname,
/// as well. This is strange. ... Later on, put the first path part into
/// the host field."). So `evil.example` against `app://trusted` is
/// `app://evil.example`, where RFC 3986 section 5.2.2 gives
/// `app://trusted/evil.example`. url.resolve claims no standard (legacy,
/// Node.js docs). Claims the authority's parts, the path and the query
/// where the base's scheme is such a one, the reference has no scheme, and
/// their host is empty, the base's, or what `url.parse` keeps of one of the
/// base's or the reference's path segments.
pub(crate) fn node_resolve_crawls_to_host(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let base = appendix_b_split(resolved.base);
    let reference = appendix_b_split(resolved.reference);
    let Some(base_scheme) = base.scheme else {
        return Diff::NONE;
    };
    if slashed_in_any_case(base_scheme) || reference.scheme.is_some() {
        return Diff::NONE;
    }
    let base_host = base
        .authority
        .map(|a| a.rsplit('@').next().unwrap_or_default());
    let from_crawl = match ctx.theirs(Component::Host) {
        None | Some("") => true,
        Some(host) => base_host
            .into_iter()
            .chain(base.path.split('/'))
            .chain(reference.path.split('/'))
            .chain(reference.authority)
            .any(|segment| node_host_prefix(host, segment)),
    };
    if from_crawl {
        ctx.claim(AUTHORITY_PARTS.with(Component::Path).with(Component::Query))
    } else {
        Diff::NONE
    }
}

/// `url.resolve` with a reference whose scheme is a slashed one other than
/// the base's (and not `file`), written without a host, takes the first
/// non-empty segment of the reference's path for the host (lib/url.js,
/// Url.prototype.resolveObject: `while (relPath.length && !(relative.host
/// = relPath.shift()));`): `http:/evil.example/x` against `fp:/a` is
/// `http://evil.example/x`, where RFC 3986 section 5.2.2 keeps the
/// reference as it is (no authority). Claims the authority's parts and the
/// path where their host is what `url.parse` keeps of that segment.
pub(crate) fn node_resolve_scheme_change_host(ctx: &Ctx<'_, '_>) -> Diff {
    let Some(resolved) = ctx.resolved else {
        return Diff::NONE;
    };
    let base = appendix_b_split(resolved.base);
    let reference = appendix_b_split(resolved.reference);
    let (Some(scheme), Some(base_scheme)) = (reference.scheme, base.scheme) else {
        return Diff::NONE;
    };
    // No allocation for the lower-cased scheme: a rule runs per finding.
    let slashed = slashed_in_any_case(scheme) && !scheme.eq_ignore_ascii_case("file");
    if !slashed || scheme.eq_ignore_ascii_case(base_scheme) || reference.authority.is_some() {
        return Diff::NONE;
    }
    let first = reference.path.split('/').find(|s| !s.is_empty());
    let taken = match (ctx.theirs(Component::Host), first) {
        (Some(host), Some(segment)) => !host.is_empty() && node_host_prefix(host, segment),
        _ => false,
    };
    if taken {
        ctx.claim(AUTHORITY_PARTS.with(Component::Path))
    } else {
        Diff::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::node_host_prefix;

    /// What Node 20's `url.parse` kept as the host, run directly:
    /// `FaV:KV%26:a/s` gives `kv`, `urn:isbn:0` gives `isbn` (port `0`),
    /// `hgaX:e;;a/` gives `e`.
    #[test]
    fn a_host_is_a_prefix_that_ends_where_url_parse_stops() {
        assert!(node_host_prefix("kv", "KV%26:a"));
        assert!(node_host_prefix("isbn", "isbn:0"));
        assert!(node_host_prefix("e", "e;;a"));
        assert!(node_host_prefix("frii.com", "frii.com"));
        assert!(!node_host_prefix("k", "kv"));
        assert!(!node_host_prefix("kva", "kv"));
    }
}
