//! Defects: a parser breaking its own standard, found without rfc2396.
//!
//! - *Accounted input*: a parser that reports its authority's text must
//!   report userinfo, host and port that recompose it (RFC 3986 section 3.2:
//!   `authority = [ userinfo "@" ] host [ ":" port ]`); the normalisations
//!   allowed are an empty port's `:` (RFC 3986 section 6.2.3), case, and
//!   percent-decoding (Go's `URL.Host` holds the host unescaped: decoded
//!   text is accounted for, not dropped). This check is no question of a
//!   standard, so it holds for every parser, one that claims none included:
//!   text that its components leave out is input it lost.
//! - *Its own standard*: a bracketed host must be an `IP-literal` (RFC 3986
//!   section 3.2.2; a zone ID only as RFC 6874's `%25`) and a scheme must
//!   be one RFC 3986 section 3.1 allows. (A port that is not digits would
//!   break RFC 3986 section 3.2.3 too, but every in-process parser either
//!   refuses one or drops it, which `dropped-input` reports.) Only for a
//!   parser that claims a standard ([`OracleId::standard`]): one that
//!   claims none (PHP's `parse_url`, Node's legacy `url.parse`, CPython's
//!   `urlsplit`, urllib3, Go's `net/url`) breaks no standard by accepting
//!   what one forbids, and triage files that as the spec class
//!   `lenient-splitter` instead.
//! - *Round trip*: its own serialization, reparsed by itself, gives the same
//!   components (URL Standard, URL serializing; RFC 3986 section 5.3), again
//!   only against a claimed standard.
//! - *Peers* (two parsers of one standard must agree) are the arbiter's
//!   question: see `arbiter`.
//!
//! Each defect names the parser it is about; no spec rule explains one away.

use std::borrow::Cow;
use std::cell::OnceCell;

use crate::components::{Component, ComponentSet};
use crate::diff::diff;
use crate::oracle::external::{HostReading, SelfCheck};
use crate::oracle::{OracleId, Outcome, info};

use super::ip_literal::{is_documented_literal, is_ip_literal, is_ip_literal_of};
use super::text::decoded_lower;
use super::{Class, Finding, Severity, effect, severity};

pub(super) fn defect(
    class: Class,
    severity: Severity,
    oracle: OracleId,
    peer: Option<OracleId>,
    fields: ComponentSet,
    detail: String,
) -> Finding {
    Finding {
        class,
        basis: class.basis(),
        severity,
        oracle,
        peer,
        verdict: false,
        fields,
        detail: Some(detail),
        decided_by: super::Decision::NotCompared,
        known: None,
    }
}

/// The text of `whole` that `kept` leaves out, by common prefix and suffix.
fn dropped_text<'w>(whole: &'w str, kept: &str) -> &'w str {
    let prefix = whole
        .bytes()
        .zip(kept.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let rest_whole = whole.get(prefix..).unwrap_or_default();
    let rest_kept = kept.get(prefix.min(kept.len())..).unwrap_or_default();
    let suffix = rest_whole
        .bytes()
        .rev()
        .zip(rest_kept.bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let end = rest_whole.len().saturating_sub(suffix);
    // Byte-wise prefixes may split a character; fall back to the whole rest.
    rest_whole.get(..end).unwrap_or(rest_whole)
}

/// `[ userinfo "@" ] host [ ":" port ]`.
fn recompose(userinfo: Option<&str>, host: &str, port: Option<&str>) -> String {
    let mut s = String::new();
    if let Some(u) = userinfo {
        s.push_str(u);
        s.push('@');
    }
    s.push_str(host);
    if let Some(p) = port {
        s.push(':');
        s.push_str(p);
    }
    s
}

/// Is `authority` exactly `[ userinfo "@" ] host [ ":" port ]`, or that with
/// an empty port's `:` dropped (RFC 3986 section 6.2.3)? Compared piece by
/// piece, without building the text: this runs on every input.
fn recomposes(authority: &str, userinfo: Option<&str>, host: &str, port: Option<&str>) -> bool {
    let mut rest = authority;
    if let Some(u) = userinfo {
        match rest.strip_prefix(u).and_then(|r| r.strip_prefix('@')) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    // Hosts are case-insensitive (RFC 3986 section 3.2.2), and parsers
    // document lower-casing them (CPython's `.hostname`).
    let Some(after_host) = rest
        .get(..host.len())
        .filter(|h| *h == host || h.eq_ignore_ascii_case(host))
        .and_then(|_| rest.get(host.len()..))
    else {
        return false;
    };
    match port {
        // A host that keeps an empty port's `:` (Perl's URI: `h:` with
        // port "") has lost nothing either.
        Some(p) => {
            after_host.strip_prefix(':') == Some(p)
                || (p.is_empty() && after_host.is_empty() && host.ends_with(':'))
        }
        None => after_host.is_empty() || after_host == ":",
    }
}

/// Is `host` the authority's IPv6 address given back its brackets (an
/// adapter writes every IPv6 host bracketed, as RFC 3986 writes it, where
/// the parser keeps it bare: yarl's `raw_authority`)?
fn rebracketed(authority: &str, userinfo: Option<&str>, host: &str, port: Option<&str>) -> bool {
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .is_some_and(|bare| recomposes(authority, userinfo, bare, port))
}

/// Does the parser read an authority with more than one `@` as
/// registry-based, keeping it whole and reporting no server (no userinfo,
/// no port, an empty host: `java.net.URL` for `X@Y@Z`, whose
/// `URLStreamHandler.parseURL` says "more than one '@' in authority. This
/// is not server based")? RFC 2396 section 3.2 reads it as a `reg_name`
/// too (`@` is allowed there, not in a `server`'s host): nothing is dropped.
fn registry_based(authority: &str, userinfo: Option<&str>, host: &str, port: Option<&str>) -> bool {
    authority.matches('@').count() > 1 && host.is_empty() && userinfo.is_none() && port.is_none()
}

/// Does `authority` recompose from its parts once both sides are
/// percent-decoded (lossily: an adapter writes an octet that is no UTF-8
/// as U+FFFD) and lower-cased? A parser that reports its host decoded
/// (Go's `URL.Host`: `%CF%80.example.com` is `π.example.com`) has read
/// every octet of it: nothing is dropped. Asked only where [`recomposes`]
/// fails, which is rare.
fn recomposes_decoded(
    authority: &str,
    userinfo: Option<&str>,
    host: &str,
    port: Option<&str>,
) -> bool {
    // Lower-cased in full, not only ASCII: CPython's `.hostname` is
    // `str.lower()` of the host (`http://Ｇｏ.com` gives `ｇｏ.com`), which
    // changes letters and loses none.
    let whole = decoded_lower(authority).to_lowercase();
    let parts = decoded_lower(&recompose(userinfo, host, port)).to_lowercase();
    if whole == parts || (port.is_none() && whole.strip_suffix(':') == Some(parts.as_str())) {
        return true;
    }
    // Perl's URI gives its host with each octet as the character of that
    // code point (`%D8` as `Ø`, not UTF-8), and keeps an empty port's `:`
    // in it (`host-keeps-port-colon`): read so, nothing was lost.
    let host = if port == Some("") {
        host.strip_suffix(':').unwrap_or(host)
    } else {
        host
    };
    let latin1 = |t: &str| -> String {
        crate::triage::text::decoded(t)
            .iter()
            .map(|&b| char::from(b))
            .collect::<String>()
            .to_lowercase()
    };
    let parts = recompose(userinfo, host, port.filter(|p| !p.is_empty())).to_lowercase();
    let whole = latin1(authority);
    let whole = whole.strip_suffix(':').unwrap_or(&whole);
    whole == parts || whole == latin1(&parts)
}

/// Is `host` the authority's own host text (between the userinfo's `@`
/// and the port's `:`, each as reported) unescaped, for a parser whose
/// documentation says it returns its host so
/// ([`HostReading::Unescaped`]: Perl's `->host`, "the unescaped
/// hostname")? Then every octet of it was read: nothing is dropped
/// (`ftp://[v:%DE%DE@%DE%DEo`: host `ÞÞo`, the octets DE DE 6F). Asked
/// only where [`recomposes`] fails, which is rare.
fn recomposes_unescaped(
    id: OracleId,
    authority: &str,
    userinfo: Option<&str>,
    host: &str,
    port: Option<&str>,
) -> bool {
    if !id
        .host_readings()
        .iter()
        .any(|&(r, _)| r == HostReading::Unescaped)
    {
        return false;
    }
    let rest = match userinfo {
        Some(u) => authority.strip_prefix(u).and_then(|r| r.strip_prefix('@')),
        None => Some(authority),
    };
    let written = match (rest, port) {
        (Some(rest), Some(p)) => rest.strip_suffix(p).and_then(|r| r.strip_suffix(':')),
        (rest, None) => rest,
        (None, Some(_)) => None,
    };
    written.is_some_and(|written| {
        let octets = crate::triage::text::decoded(written).into_owned();
        let text = String::from_utf8(octets)
            .unwrap_or_else(|e| e.into_bytes().iter().map(|&b| char::from(b)).collect());
        text.eq_ignore_ascii_case(host)
    })
}

/// The authority's own port digits, when `port` is the same number written
/// without its leading zeros (`080` read as the integer 80, as
/// java.net.URL's `getPort()` gives it): that port is read, not dropped
/// (`port-normalized` says how it was written).
fn written_port<'a>(authority: &'a str, port: Option<&str>) -> Option<&'a str> {
    let port = port.filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))?;
    let (_, written) = authority.rsplit_once(':')?;
    let digits = !written.is_empty() && written.bytes().all(|b| b.is_ascii_digit());
    let same = |t: &str| {
        let t = t.trim_start_matches('0');
        if t.is_empty() {
            "0".to_owned()
        } else {
            t.to_owned()
        }
    };
    (digits && written != port && same(written) == same(port)).then_some(written)
}

/// The self-checks of one accepting parser: accounted authority (every
/// validating parser), and, against the standard it claims, IP literals
/// and schemes. Appends a finding per broken rule.
pub(crate) fn self_checks(
    id: OracleId,
    outcome: &Outcome<'_>,
    input: &str,
    out: &mut Vec<Finding>,
) {
    if !outcome.accepted() || !id.validates() {
        return;
    }
    let c = &outcome.components;
    let host = c.get(Component::Host);
    let port = c.get(Component::Port);
    let userinfo = c.get(Component::Userinfo);
    if c.reported().contains(Component::Authority)
        && let (Some(authority), Some(host)) = (c.get(Component::Authority), host)
    {
        let accounted = recomposes(authority, userinfo, host, port)
            || recomposes_decoded(authority, userinfo, host, port)
            || recomposes_unescaped(id, authority, userinfo, host, port)
            || rebracketed(authority, userinfo, host, port)
            || registry_based(authority, userinfo, host, port)
            || written_port(authority, port)
                .is_some_and(|written| recomposes(authority, userinfo, host, Some(written)));
        if !accounted {
            let recomposed = recompose(userinfo, host, port);
            let dropped = dropped_text(authority, &recomposed);
            let in_userinfo = userinfo.is_some_and(|u| authority.starts_with(u))
                && authority
                    .find('@')
                    .is_some_and(|at| authority.find(dropped).is_some_and(|d| d < at));
            let fields = if in_userinfo {
                ComponentSet::of(&[Component::Authority, Component::Userinfo])
            } else {
                ComponentSet::of(&[Component::Authority, Component::Host, Component::Port])
            };
            out.push(defect(
                Class::DroppedInput,
                severity::of_self_check(Class::DroppedInput, fields),
                id,
                None,
                fields,
                effect::dropped_input(id, dropped, authority, (userinfo, host, port)),
            ));
        }
    }
    // What follows is the standard's: a parser that claims none (its
    // documentation says it does not validate) breaks nothing by it, and
    // triage's `lenient-splitter` rule says what it tolerated; unless its
    // maintainers fixed that leniency as a bug (`OracleId::held_to`).
    // RFC 3986 section 3.1 (and RFC 2396's, and WHATWG's): a scheme starts
    // with a letter, then letters, digits, `+`, `-`, `.`.
    if id.held_to(SelfCheck::Scheme)
        && let Some(scheme) = c.get(Component::Scheme)
        && !is_scheme(scheme)
    {
        let fields = ComponentSet::of(&[Component::Scheme]);
        out.push(defect(
            Class::InvalidScheme,
            severity::of_self_check(Class::InvalidScheme, fields),
            id,
            None,
            fields,
            effect::invalid_scheme(id, scheme),
        ));
    }
    // One pass over the host's bytes (two `contains` calls would be two
    // memchr calls, on every input).
    if id.held_to(SelfCheck::IpLiteral)
        && let Some(h) = host
        && h.bytes().any(|b| matches!(b, b'[' | b']'))
        // Against the standard the parser claims: RFC 2732's literal for
        // an RFC 2396 parser (java.net.URI), RFC 3986's otherwise.
        && !is_documented_literal(id, h)
        // The input's valid literal, written as the parser's documentation
        // says (`[fe80::1%25en0]` as `fe80::1%en0`: uri-js's README).
        && !super::reading::writes_input_literal(id, input, h)
    {
        let fields = ComponentSet::of(&[Component::Host]);
        out.push(defect(
            Class::InvalidIpLiteral,
            severity::of_self_check(Class::InvalidIpLiteral, fields),
            id,
            None,
            fields,
            effect::invalid_ip_literal(id, h),
        ));
    }
}

/// Inputs the parser's own standard says fail, which it accepts. The URL
/// Standard's authority and host states: after an `@`, an empty host is a
/// host-missing validation error that returns failure, for special and
/// non-special schemes alike (`s://@`, `s://u@:1`); `file` has no
/// authority state.
///
/// `empty_host` holds [`empty_host_after_at`] of `input` once it has been
/// asked: the same for every parser of the case.
pub(crate) fn standard_failures<'t>(
    id: OracleId,
    outcome: &Outcome<'_>,
    input: &'t str,
    empty_host: &OnceCell<Option<Cow<'t, str>>>,
    out: &mut Vec<Finding>,
) {
    // `@` first: one memchr settles the common input (`check()` runs this
    // for every WHATWG oracle on every input).
    if !outcome.accepted()
        || id.standard() != Some(crate::oracle::Standard::Whatwg)
        || !input.contains('@')
    {
        return;
    }
    let Some(authority) = empty_host.get_or_init(|| empty_host_after_at(input)) else {
        return;
    };
    let fields = ComponentSet::of(&[Component::Host]);
    out.push(defect(
        Class::HostMissing,
        severity::of_self_check(Class::HostMissing, fields),
        id,
        None,
        fields,
        effect::host_missing(id, authority),
    ));
}

/// A parser that reports a valid IP literal where the input's brackets
/// hold none has rewritten it (libcurl reads `h://[::1:]/`, which has a
/// single trailing `:` and is no IPv6address, RFC 3986 section 3.2.2, and
/// reports the valid `[::1]`): checking the parser's output alone misses
/// that it accepted an invalid literal.
pub(crate) fn rewritten_ip_literal(
    id: OracleId,
    outcome: &Outcome<'_>,
    input: &str,
    out: &mut Vec<Finding>,
) {
    // `[` first: one memchr settles the common input. Like the
    // self-checks, only against a claimed standard (RFC 3986's IP-literal),
    // and not for a parser documented as not validating (uri-js, whose
    // documented IPv4 normalization rewrites `[::2.0.090.10]`).
    if !outcome.accepted()
        || !id.validates()
        || !input.contains('[')
        || id.standard().is_none()
        || id.descriptor().no_validation.is_some()
    {
        return;
    }
    let Some(host) = outcome
        .components
        .get(Component::Host)
        .filter(|h| h.starts_with('[') && is_ip_literal(h))
    else {
        return;
    };
    let Some(literal) = rewritten_literal(id, input, host) else {
        return;
    };
    let fields = ComponentSet::of(&[Component::Host]);
    out.push(defect(
        Class::InvalidIpLiteral,
        severity::of_self_check(Class::InvalidIpLiteral, fields),
        id,
        None,
        fields,
        effect::rewritten_ip_literal(id, &literal, host),
    ));
}

/// The input's bracketed text (from the first `[` to the next `]`), when
/// it is no IP literal and differs from `host`, a valid one the parser
/// reported: the literal the parser rewrote. The URL Standard removes every
/// ASCII tab or newline from the input before parsing, so for a WHATWG
/// parser the literal is read without them.
///
/// When another bracketed span of the input is `host` itself, or a valid
/// literal of the same address (`[::0]` reported as `[::]`), the parser
/// read that literal and rewrote nothing invalid: in
/// `ftp:.@[::1@[::1]` the host is after the last `@` (URL Standard,
/// authority state; RFC 3986 section 3.2.1), and `[::1@[::1` is userinfo.
pub(crate) fn rewritten_literal<'i>(
    id: OracleId,
    input: &'i str,
    host: &str,
) -> Option<Cow<'i, str>> {
    let whatwg = id.standard() == Some(crate::oracle::Standard::Whatwg);
    let as_read = |span: &'i str| -> Cow<'i, str> {
        if whatwg && span.contains(['\t', '\n', '\r']) {
            Cow::Owned(span.replace(['\t', '\n', '\r'], ""))
        } else {
            Cow::Borrowed(span)
        }
    };
    let literal = as_read(bracketed_spans(input).next()?);
    if bracketed_spans(input).map(as_read).any(|span| {
        span.eq_ignore_ascii_case(host)
            || (is_ip_literal(&span) && crate::triage::host::same_address(&span, host))
    }) {
        return None;
    }
    (!is_ip_literal_of(id.standard(), &literal) && !literal.eq_ignore_ascii_case(host))
        .then_some(literal)
}

/// Each `[` of `input` with the text up to the next `]`, both included.
fn bracketed_spans(input: &str) -> impl Iterator<Item = &str> {
    input.match_indices('[').filter_map(move |(start, _)| {
        let rest = input.get(start..)?;
        rest.find(']').and_then(|end| rest.get(..=end))
    })
}

/// The authority of `input`, as the URL Standard's authority state reads
/// it, when its host after the last `@` is empty (a host-missing
/// validation error: failure); `file` has no authority state.
pub(crate) fn empty_host_after_at(input: &str) -> Option<Cow<'_, str>> {
    // The basic URL parser first removes leading and trailing C0 controls
    // and spaces, then every ASCII tab or newline (URL Standard, basic URL
    // parser): `\nfile://h\@` is a `file` URL, whose `@` is in the path.
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    if trimmed.contains(['\t', '\n', '\r']) {
        let cleaned = trimmed.replace(['\t', '\n', '\r'], "");
        return authority_with_empty_host(&cleaned).map(|a| Cow::Owned(a.to_owned()));
    }
    authority_with_empty_host(trimmed).map(Cow::Borrowed)
}

/// [`empty_host_after_at`] of an input the URL Standard has nothing to
/// remove from.
fn authority_with_empty_host(input: &str) -> Option<&str> {
    let (scheme, rest) = input.split_once(':')?;
    if scheme.eq_ignore_ascii_case("file") {
        return None;
    }
    // The authority state ends at `/`, `?` or `#`, and at `\` only "if url
    // is special" (URL Standard, authority state): in `p://@\@D` the
    // authority is `@\@D`, whose host after the last `@` is `D`.
    let after = rest.strip_prefix("//")?;
    let ends: &[u8] = if super::host::is_special(scheme) {
        b"/\\?#"
    } else {
        b"/?#"
    };
    // Each end is ASCII, so the byte found is a character boundary.
    let end = after
        .bytes()
        .position(|b| ends.contains(&b))
        .unwrap_or(after.len());
    let authority = after.get(..end).unwrap_or_default();
    let (_, host_port) = authority.rsplit_once('@')?;
    let host = host_port.split(':').next().unwrap_or_default();
    host.is_empty().then_some(authority)
}

/// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 section 3.1).
pub(crate) fn is_scheme(scheme: &str) -> bool {
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// Reparses an accepting parser's own serialization (when it differs from
/// the input) and reports what changed.
pub(crate) fn round_trip(id: OracleId, outcome: &Outcome<'_>, out: &mut Vec<Finding>) {
    // Keeping its own answer is what a standard asks (URL Standard, URL
    // serializing; RFC 3986 section 5.3): only against a claimed one.
    let Some(serialization) = crate::oracle::round_trip_text(id, outcome) else {
        return;
    };
    let Some(row) = info(id) else {
        return;
    };
    let again = crate::oracle::reparse(row)(serialization);
    let d = diff(outcome, &again);
    if d.is_empty() {
        return;
    }
    let scheme = outcome.components.get(Component::Scheme);
    let mut finding = defect(
        Class::RoundTrip,
        severity::of_departure(
            Class::RoundTrip,
            d.fields,
            &outcome.components,
            &again.components,
            scheme,
        ),
        id,
        None,
        d.fields,
        effect::round_trip(id, serialization, outcome, &again, d),
    );
    finding.verdict = d.verdict;
    out.push(finding);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A port read as a number (`080` as 80) is the authority's own port.
    #[test]
    fn a_port_without_its_leading_zeros_is_read_not_dropped() {
        assert_eq!(written_port("u@h:080", Some("80")), Some("080"));
        assert_eq!(written_port("h:000", Some("0")), Some("000"));
        assert_eq!(written_port("h:80", Some("80")), None);
        assert_eq!(written_port("h:081", Some("80")), None);
        assert_eq!(written_port("h:", Some("80")), None);
        assert_eq!(written_port("h:080", None), None);
    }

    /// A literal the input holds as written is no rewrite, even after a
    /// `[` in the userinfo (found by the differential target:
    /// `Ftp:.}.Ftp:.}.@[::1@[::1]`, host `[::1]` for url and ada).
    #[test]
    fn a_literal_after_the_userinfo_is_not_rewritten() {
        let input = "Ftp:.}.Ftp:.}.@[::1@[::1]";
        assert_eq!(rewritten_literal(OracleId::Url, input, "[::1]"), None);
        let respelt = "Ftp:.}.Ftp:.}.@[::1@[::0]";
        assert_eq!(rewritten_literal(OracleId::Url, respelt, "[::]"), None);
        // The URL Standard removes a newline inside the literal too
        // (a campaign finding: `http:1x2W7%\0@[:x2W7%\0@[:\n:0]#...`).
        let newline = "http:1x2W7%\0@[:x2W7%\0@[:\n:0]#\x0c:";
        assert_eq!(rewritten_literal(OracleId::Url, newline, "[::]"), None);
        assert_eq!(
            rewritten_literal(OracleId::Url, "http://[::1\n:]/", "[::1]").as_deref(),
            Some("[::1:]")
        );
        assert_eq!(
            rewritten_literal(OracleId::Url, "http://[::1:]/", "[::1]").as_deref(),
            Some("[::1:]")
        );
        assert_eq!(
            rewritten_literal(OracleId::Curl, "http://[::1@[::2]/", "[::1]").as_deref(),
            Some("[::1@[::2]")
        );
    }

    /// A backslash ends the authority of a special URL only (URL Standard,
    /// authority state): `p://@\@D` has host `D`, `http://@\x` none.
    #[test]
    fn a_backslash_ends_only_a_special_authority() {
        assert_eq!(empty_host_after_at("p://@\\@D"), None);
        assert_eq!(empty_host_after_at("p://@\\@").as_deref(), Some("@\\@"));
        assert_eq!(empty_host_after_at("http://@\\x").as_deref(), Some("@"));
        assert_eq!(empty_host_after_at("HTTP://@\\x").as_deref(), Some("@"));
        assert_eq!(empty_host_after_at("s://@").as_deref(), Some("@"));
        assert_eq!(empty_host_after_at("s://u@:1/x").as_deref(), Some("u@:1"));
        assert_eq!(empty_host_after_at("file://@"), None);
        // Found by the structured target: a leading newline is removed
        // before the scheme is read, so this is a `file` URL.
        assert_eq!(empty_host_after_at("\nfile://h\\:\\@:0065535"), None);
        assert_eq!(empty_host_after_at(" ht\ttp://u@/").as_deref(), Some("u@"));
    }

    /// An accepted outcome with these authority parts (and `scheme`).
    fn outcome(
        scheme: &'static str,
        authority: &'static str,
        host: &'static str,
        port: Option<&'static str>,
    ) -> Outcome<'static> {
        let mut c = crate::components::Components::new(ComponentSet::ALL);
        c.set(Component::Scheme, Some(scheme));
        c.set(Component::Authority, Some(authority));
        c.set(Component::Host, Some(host));
        c.set(Component::Port, port);
        Outcome::accept(c)
    }

    fn classes(id: OracleId, o: &Outcome<'_>) -> Vec<Class> {
        let mut out = Vec::new();
        self_checks(id, o, "", &mut out);
        out.into_iter().map(|f| f.class).collect()
    }

    #[test]
    fn a_decoded_host_is_accounted_for_and_a_lost_one_is_not() {
        assert!(recomposes_decoded(
            "%CF%80.example.com",
            None,
            "π.example.com",
            None
        ));
        // An octet that is no UTF-8, written as U+FFFD by the adapter.
        assert!(recomposes_decoded("%dd", None, "\u{FFFD}", None));
        assert!(recomposes_decoded("%41:", None, "a", None));
        // Lower-cased beyond ASCII (CPython's `.hostname`): nothing lost.
        assert!(recomposes_decoded("Ｇｏ.com", None, "ｇｏ.com", None));
        assert!(!recomposes_decoded("Ｇｏ.com", None, "ｇ.com", None));
        assert!(!recomposes_decoded("[::1]x:80", None, "[::1]", Some("80")));
        assert!(!recomposes_decoded("%41x", None, "a", None));
    }

    #[test]
    fn standard_self_checks_apply_only_against_a_claimed_standard() {
        // PHP's parse_url claims no standard; http::Uri claims RFC 3986's
        // authority (HTTP request targets).
        let php = crate::oracle::register_external("php-parse-url").unwrap();
        assert_eq!(php.standard(), None);
        let bracket = outcome("cfg", "adict[2]", "adict[2]", None);
        assert_eq!(classes(php, &bracket), []);
        assert_eq!(classes(OracleId::Http, &bracket), [Class::InvalidIpLiteral]);
        let scheme = outcome("1http", "h", "h", None);
        assert_eq!(classes(php, &scheme), []);
        assert_eq!(classes(OracleId::Http, &scheme), [Class::InvalidScheme]);
        // Input lost is lost whatever the parser claims.
        let lost = outcome("http", "[::1]x:80", "[::1]", Some("80"));
        assert_eq!(classes(php, &lost), [Class::DroppedInput]);
        let decoded = outcome("https", "%CF%80.example.com", "π.example.com", None);
        assert_eq!(classes(php, &decoded), []);
        assert_eq!(classes(OracleId::Http, &decoded), []);

        // A rewritten literal (libcurl's `[::1:]` as `[::1]`), the same.
        let rewritten = outcome("h", "[::1]", "[::1]", None);
        let rewrites = |id| {
            let mut out = Vec::new();
            rewritten_ip_literal(id, &rewritten, "h://[::1:]/", &mut out);
            out.len()
        };
        assert_eq!(rewrites(OracleId::Http), 1);
        assert_eq!(rewrites(php), 0);
    }

    #[test]
    fn a_kept_colon_a_rebracketed_literal_and_a_registry_authority_drop_nothing() {
        use super::{rebracketed, recomposes, registry_based};
        // Perl's URI: `http://a,b:/` has host `a,b:` and port "".
        assert!(recomposes("a,b:", None, "a,b:", Some("")));
        assert!(!recomposes("a,b:x", None, "a,b:", Some("")));
        // yarl keeps an IPv6 authority bare; its adapter brackets the host.
        assert!(rebracketed("u@::1", Some("u"), "[::1]", None));
        assert!(!rebracketed("u@::1x", Some("u"), "[::1]", None));
        // java.net.URL: more than one `@`, no server.
        assert!(registry_based("X@Y@Z", None, "", None));
        assert!(!registry_based("evil.com", None, "", None));
        assert!(!registry_based("X@Y@Z", None, "Z", None));
    }

    #[test]
    fn dropped_text_is_what_the_recomposition_leaves_out() {
        assert_eq!(dropped_text("[::1]evil.com:80", "[::1]:80"), "evil.com");
        assert_eq!(dropped_text("h:80x", "h"), ":80x");
    }
}
