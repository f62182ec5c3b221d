//! libcurl's URL parser (the `curl_url` API, through this workspace's
//! `curl-url` crate over `curl-sys`'s vendored, static libcurl) as an
//! oracle: what curl itself would fetch. Set with
//! `CURLU_NON_SUPPORT_SCHEME`, so schemes this build of curl does not
//! speak are parsed all the same (libcurl's `curl_url_set` documentation).
//!
//! curl speaks its own dialect: RFC 3986 with documented extensions (its
//! URL syntax page, "URL syntax and their use in curl"), which the triage
//! classes for curl cite. Parts are read raw (no `CURLU_URLDECODE`), the
//! port only when written, an empty query or fragment as present
//! (`CURLU_GET_EMPTY`). curl keeps no raw authority, and reports an IPv6
//! zone ID apart from the host; it is put back as RFC 6874 writes it.

use std::borrow::Cow;
use std::cell::RefCell;

use curl_url::{Flags, Url};

use super::Outcome;
use crate::components::{Component, ComponentSet, Components};

/// curl keeps the authority only as its parts.
const REPORTED: ComponentSet =
    ComponentSet::ALL.difference(ComponentSet::of(&[Component::Authority]));

/// Does `input` start with an RFC 3986 scheme and `:` (section 3.1)? curl
/// takes only absolute URLs here (no `CURLU_GUESS_SCHEME`): anything else is
/// out of its domain, not rejected.
fn has_scheme(input: &str) -> bool {
    let Some((scheme, _)) = input.split_once(':') else {
        return false;
    };
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// The parts of a URL libcurl accepted that this oracle reads, each as
/// [`text_in`] makes it: borrowed from the input wherever the input holds
/// the same text.
#[derive(Default)]
struct Read<'a> {
    url: Option<Cow<'a, str>>,
    scheme: Option<Cow<'a, str>>,
    user: Option<Cow<'a, str>>,
    password: Option<Cow<'a, str>>,
    options: Option<Cow<'a, str>>,
    host: Option<Cow<'a, str>>,
    zoneid: Option<Cow<'a, str>>,
    port: Option<Cow<'a, str>>,
    path: Option<Cow<'a, str>>,
    query: Option<Cow<'a, str>>,
    fragment: Option<Cow<'a, str>>,
}

/// `bytes` (a part libcurl returned) as text: a slice of `input` where the
/// input holds the same text (only equal content matters to the diff, as
/// with `oracle::borrow_at`), else a copy, lossy where libcurl returned
/// bytes that are not UTF-8 (it percent-decodes the host: `http://%ff/`).
/// Reading the parts without copying them spares an allocation per part
/// per input (a fuzz campaign's build pays for each with two stack traces).
fn text_in<'a>(input: &'a str, bytes: &[u8]) -> Cow<'a, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => match position_in(input, text).and_then(|at| input.get(at..at + text.len())) {
            Some(slice) => Cow::Borrowed(slice),
            None => Cow::Owned(text.to_owned()),
        },
        Err(_) => Cow::Owned(String::from_utf8_lossy(bytes).into_owned()),
    }
}

/// The longest input [`position_in`] scans byte by byte; a longer one is
/// searched with `str::find`, linear in the input whatever it holds (the
/// scan is quadratic at worst: `aaa…aB` searched for `aaa…ab`, and an input
/// may be 1 MiB, `input::MAX_INPUT_BYTES`).
const SCAN_LIMIT: usize = 256;

/// Where `needle` first stands in `haystack`. In a short input, a plain
/// scan for its first byte: a part of a URL is short and usually near the
/// start of its input, where `str::find`'s Two-Way searcher costs more to
/// set up than the scan costs to run (about 1 200 instructions more per
/// real URL, callgrind); at most [`SCAN_LIMIT`] squared byte comparisons.
fn position_in(haystack: &str, needle: &str) -> Option<usize> {
    if haystack.len() > SCAN_LIMIT {
        return haystack.find(needle);
    }
    let (haystack, needle) = (haystack.as_bytes(), needle.as_bytes());
    let Some(&first) = needle.first() else {
        return Some(0);
    };
    let mut from = 0;
    loop {
        let start = from + haystack.get(from..)?.iter().position(|&b| b == first)?;
        if haystack.get(start..start + needle.len()) == Some(needle) {
            return Some(start);
        }
        from = start + 1;
    }
}

/// The parts of a URL libcurl accepted that this oracle reads. The
/// authority's parts only where there is a host (they are read under it
/// below), the zone ID only for a bracketed host: each `curl_url_get` is a
/// fresh string from libcurl, and an input without a host is common in a
/// campaign. Apart from running out of memory, those reads fail only by
/// reporting the part missing (`CURLUE_NO_*`, lib/urlapi.c), which is what
/// skipping them gives. The whole URL (libcurl's serialization) only
/// `WITH_URL`: see [`reparse`].
fn parts<'a, const WITH_URL: bool>(u: &Url, input: &'a str) -> Result<Read<'a>, curl_url::Error> {
    use curl_url::Part;
    let get = |part| u.get_with(part, Flags::GET_EMPTY, |bytes| text_in(input, bytes));
    let mut parts = Read {
        url: if WITH_URL { get(Part::Url)? } else { None },
        scheme: get(Part::Scheme)?,
        host: get(Part::Host)?,
        ..Read::default()
    };
    if let Some(host) = &parts.host {
        if host.ends_with(']') {
            parts.zoneid = get(Part::ZoneId)?;
        }
        parts.user = get(Part::User)?;
        parts.password = get(Part::Password)?;
        parts.options = get(Part::Options)?;
        parts.port = get(Part::Port)?;
    }
    parts.path = get(Part::Path)?;
    parts.query = get(Part::Query)?;
    parts.fragment = get(Part::Fragment)?;
    Ok(parts)
}

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub(super) fn run(input: &str) -> Outcome<'_> {
    outcome::<true>(input)
}

/// The largest text libcurl's `curl_maprintf` builds: longer, and it
/// returns NULL, which `curl_url_get` reports as `CURLUE_OUT_OF_MEMORY`
/// (`DYN_APRINTF` in lib/curlx/dynbuf.h, `curl_mvaprintf` in lib/mprintf.c).
const APRINTF_LIMIT: usize = 8_000_000;

/// [`run`] for the round-trip check's second parse (`oracle::reparse`),
/// which reads only the verdict and the components of what it gets back:
/// the same parse and the same parts, without libcurl's serialization of
/// the URL (`curl_url_get` with `CURLUPART_URL`, a `curl_maprintf` that
/// appends one byte at a time: a third of a round trip through libcurl).
///
/// Leaving that read out changes nothing the check reads. Without
/// `CURLU_URLENCODE`, `CURLU_PUNYCODE` or `CURLU_PUNY2IDN` (this oracle sets
/// none), `urlget_url` (lib/urlapi.c) fails only with `CURLUE_NO_HOST` and
/// `CURLUE_NO_SCHEME`, which `curl_url::Url::get` reads as a missing part
/// (no error), and with `CURLUE_OUT_OF_MEMORY` when `curl_maprintf` returns
/// NULL: when an allocation fails (not an answer about the input), or when
/// the URL it writes would be longer than [`APRINTF_LIMIT`]. The URL it
/// writes is the parts read here joined by at most a few separators (`://`,
/// `:`, `;`, `@`, `:` and a port of at most five digits, `?`, `#`, a zone
/// ID's `%25`, or `file://` and the path), so where their lengths add up to
/// well under the limit that read cannot fail and its text is all that is
/// left out; otherwise this is [`run`].
pub(super) fn reparse(input: &str) -> Outcome<'_> {
    outcome::<false>(input)
}

/// [`run`], reading libcurl's serialization `WITH_URL` (else see
/// [`reparse`]). A constant, so that `run` compiles to what it was before
/// `reparse` shared its body (the registry's own run of libcurl, which the
/// benchmarks' `oracles-only` row times, does not pay for the choice).
fn outcome<const WITH_URL: bool>(input: &str) -> Outcome<'_> {
    let parse = |u: &mut Url| {
        u.set_url(input, Flags::NON_SUPPORT_SCHEME)?;
        let read = parts::<WITH_URL>(u, input)?;
        if WITH_URL || written_length(&read) < APRINTF_LIMIT / 2 {
            Ok(read)
        } else {
            // Long enough that the serialization could fail: every part
            // and the URL, as `run` reads them.
            parts::<true>(u, input)
        }
    };
    let parsed = with_handle(parse);
    let parts = match parsed {
        Ok(parts) => parts,
        Err(e) if e.is_nul() => {
            return Outcome::out_of_domain("libcurl takes C strings: the input holds a NUL");
        }
        Err(e) if !has_scheme(input) => {
            return Outcome::out_of_domain(format!("a relative reference and no base URL ({e})"));
        }
        Err(e) => return Outcome::reject(e.to_string()),
    };
    let Read {
        url,
        scheme,
        user,
        password,
        options,
        host,
        zoneid,
        port,
        path,
        query,
        fragment,
    } = parts;
    let mut c = Components::new(REPORTED);
    c.set(Component::Scheme, scheme);
    if let Some(host) = host {
        // As libcurl's URL API writes the userinfo back (curl_url_get
        // with CURLUPART_URL, lib/urlapi.c): user, then `:` and the
        // password, then `;` and the login options (IMAP, POP3, SMTP).
        let mut userinfo = user;
        if let Some(password) = &password {
            let u = userinfo.get_or_insert_with(Cow::default).to_mut();
            u.push(':');
            u.push_str(password);
        }
        if let Some(options) = &options {
            let u = userinfo.get_or_insert_with(Cow::default).to_mut();
            u.push(';');
            u.push_str(options);
        }
        c.set(Component::Userinfo, userinfo);
        let host = match (&zoneid, host.strip_suffix(']')) {
            (Some(zone), Some(address)) => Cow::Owned(format!("{address}%25{zone}]")),
            _ => host,
        };
        c.set(Component::Host, Some(host));
        c.set(Component::Port, port);
    }
    c.set(Component::Path, path);
    c.set(Component::Query, query);
    c.set(Component::Fragment, fragment);
    let mut outcome = Outcome::accept(c);
    if let Some(url) = url
        && url != input
    {
        outcome.serialization = Some(url);
    }
    outcome
}

thread_local! {
    /// This thread's libcurl handle, kept between parses, always empty: a
    /// campaign parses every input, and a new handle is an allocation and
    /// a free, each of which a fuzz build with AddressSanitizer pays for
    /// with a stack trace (BENCHMARKS.md, "eleventh round").
    static HANDLE: RefCell<Option<Url>> = const { RefCell::new(None) };
}

/// Runs `parse` on an empty handle: this thread's, or a new one. The
/// handle is put back only once cleared, so that it never holds a URL
/// between parses:
///
/// - on a handle that holds a URL, libcurl resolves a relative URL against
///   it (`set_url` in lib/urlapi.c), where a new handle rejects one;
/// - what a parse allocates is freed in that parse: libFuzzer takes a run
///   that frees less than it allocates for a possible leak, and runs it
///   again and then LeakSanitizer over the whole heap (`TryDetectingAMemoryLeak`
///   in `FuzzerLoop.cpp`), which made the fuzz build a fifth slower.
///
/// Setting `CURLUPART_URL` to NULL frees every part and zeroes the handle
/// (`urlset_clear`), which leaves it as `curl_url()` makes it (a zeroed
/// allocation).
fn with_handle<T>(
    parse: impl FnOnce(&mut Url) -> Result<T, curl_url::Error>,
) -> Result<T, curl_url::Error> {
    let kept = HANDLE
        .try_with(|cell| cell.try_borrow_mut().ok().and_then(|mut slot| slot.take()))
        .ok()
        .flatten();
    let mut handle = match kept {
        Some(u) => u,
        None => Url::new()?,
    };
    let result = parse(&mut handle);
    if handle.set(curl_url::Part::Url, None, Flags::NONE).is_ok() {
        // Put back only where no other handle was put there meanwhile (a
        // parse does not call this oracle again; a thread being torn down
        // has no slot). Otherwise it is dropped (`curl_url_cleanup`).
        let _ = HANDLE.try_with(|cell| {
            if let Ok(mut slot) = cell.try_borrow_mut()
                && slot.is_none()
            {
                *slot = Some(handle);
            }
        });
    }
    result
}

/// At least the length of the URL libcurl would write from `parts` (see
/// [`reparse`]): every part, plus room for the separators, a port's
/// digits and a scheme's `://` or `file://`.
fn written_length(parts: &Read<'_>) -> usize {
    [
        &parts.scheme,
        &parts.user,
        &parts.password,
        &parts.options,
        &parts.host,
        &parts.zoneid,
        &parts.port,
        &parts.path,
        &parts.query,
        &parts.fragment,
    ]
    .iter()
    .map(|part| part.as_ref().map_or(0, |text| text.len()))
    .sum::<usize>()
        + 64
}

/// libcurl's own resolution: the reference set on a handle that holds the
/// base (`curl_url_set` with `CURLUPART_URL` on a handle with a URL, the
/// way curl follows a redirect).
pub(super) fn resolve(base: &str, reference: &str) -> Result<String, super::Refusal> {
    let mut url = Url::new().map_err(super::Refusal::reject)?;
    url.set_url(base, Flags::NON_SUPPORT_SCHEME)
        .map_err(|e| super::Refusal::reject(format!("base: {e}")))?;
    url.set_url(reference, Flags::NON_SUPPORT_SCHEME)
        .map_err(super::Refusal::reject)?;
    match url.get(curl_url::Part::Url, Flags::GET_EMPTY) {
        Ok(Some(text)) => Ok(text),
        Ok(None) => Err(super::Refusal::reject("libcurl gave no URL")),
        Err(e) => Err(super::Refusal::reject(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept handle answers as a new one does: on a handle that still
    /// held the URL before, libcurl would resolve a relative reference
    /// against it and accept `/c` as `http://a.example/c`, and a URL it
    /// rejects would leave the old parts in place.
    #[test]
    fn each_parse_starts_from_an_empty_handle() {
        let accepted = |input: &str| run(input).accepted();
        assert!(accepted("http://a.example/b?q#f"));
        assert!(!accepted("/c"), "resolved against the URL before");
        assert!(!run("/c").in_domain());
        assert!(!accepted("http://a.example:99999/"));
        let after = run("http://b.example/");
        assert_eq!(after.components.get(Component::Query), None);
        assert_eq!(after.components.get(Component::Fragment), None);
        assert_eq!(after.components.get(Component::Host), Some("b.example"));
    }

    /// A part is borrowed from the input wherever the input holds it, the
    /// first match found even after false starts; copied where it does not
    /// (libcurl lowercased it, or decoded it into bytes that are not UTF-8).
    #[test]
    fn a_part_is_borrowed_where_the_input_holds_it() {
        let borrowed = |input: &str, part: &str| matches!(text_in(input, part.as_bytes()), Cow::Borrowed(b) if b == part);
        assert!(borrowed("http://h//x/y?q", "/x/y"));
        assert!(borrowed("http://h/p", ""));
        assert!(borrowed("http://h/é", "/é"));
        assert!(!borrowed("HTTP://h/", "http"));
        assert_eq!(text_in("HTTP://h/", b"http"), "http");
        assert_eq!(text_in("http://%ff/", b"\xff"), "\u{fffd}");
        assert_eq!(position_in("aab", "ab"), Some(1));
        assert_eq!(position_in("ab", "abc"), None);
        assert_eq!(position_in("", ""), Some(0));
        // Past the scan's limit, the linear search answers alike.
        let long = format!("{}B{}ab", "a".repeat(SCAN_LIMIT), "a".repeat(SCAN_LIMIT));
        let needle = format!("{}ab", "a".repeat(SCAN_LIMIT));
        assert_eq!(position_in(&long, &needle), Some(SCAN_LIMIT + 1));
        assert_eq!(position_in(&long, "aB"), Some(SCAN_LIMIT - 1));
        assert_eq!(position_in(&long, "x"), None);
    }

    /// The round trip's second parse answers as `run` does, serialization
    /// aside: the same verdict, message and components.
    #[test]
    fn a_reparse_is_the_run_without_the_serialization() {
        for input in [
            "http://u:p;o@[fe80::1%25eth0]:080/a/../b?q#f",
            "HTTP://EXAMPLE.com",
            "file:///c:/x?#",
            "imap://u;AUTH=x@h/",
            "http://[::1",
            "a/b",
            "x:\0",
        ] {
            let (run, again) = (run(input), reparse(input));
            assert_eq!(again.verdict, run.verdict, "{input}");
            assert_eq!(again.message, run.message, "{input}");
            assert_eq!(again.components, run.components, "{input}");
            assert_eq!(again.serialization, None, "{input}");
        }
    }
}
