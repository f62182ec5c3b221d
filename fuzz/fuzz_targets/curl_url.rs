//! libcurl's URL API through the `curl-url` wrapper, on arbitrary bytes.
//!
//! UTF-8 input only (the wrapper takes `&str`). With a 0x00 byte the input is
//! split at the first one into a base and a reference, which is resolved
//! against the base (set base, then set reference on the same handle);
//! without one it is parsed. Every set uses `CURLU_NON_SUPPORT_SCHEME`.
//!
//! Invariants (a panic reports a broken one):
//! - no panic, no crash, no leak (libFuzzer's leak check) in the wrapper;
//! - a NUL left in the reference is refused with the wrapper's NUL error at
//!   its offset, and libcurl never sees it;
//! - a libcurl error carries a code of urlapi.h and a message;
//! - a failed set leaves the handle as it was (the base stays resolved);
//! - after a successful set: `parts()` succeeds, `get(Part::Url)` gives a
//!   URL, and that URL parses again with the same host and the same parts
//!   (libcurl's output is a fixed point of its parser), but for three
//!   libcurl behaviours documented in `check_url`;
//! - `parse` / `resolve` agree with the handle they wrap;
//! - a clone (`curl_url_dup`) has the same parts, and changing the clone
//!   leaves the original as it was.
#![no_main]

use curl_url::{Error, Flags, Part, Parts, Url};
use libfuzzer_sys::fuzz_target;

const FLAGS: Flags = Flags::NON_SUPPORT_SCHEME;

fuzz_target!(init: sancov_wide::init_text(), |data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        check(text);
    }
});

fn check(text: &str) {
    let mut url = Url::new().expect("curl_url() returned NULL");
    match text.split_once('\0') {
        None => {
            let set = url.set_url(text, FLAGS);
            check_set_error(&set, text);
            let parsed = curl_url::parse(text, FLAGS);
            match &set {
                Ok(()) => assert_eq!(parsed.as_ref().ok(), url.parts().as_ref().ok()),
                Err(e) => assert_eq!(parsed.as_ref().err(), Some(e)),
            }
            if set.is_ok() {
                check_url(&url, text, false);
            }
        }
        Some((base, reference)) => {
            if url.set_url(base, FLAGS).is_err() {
                return;
            }
            let before = url.parts().expect("parts of a parsed base");
            let set = url.set_url(reference, FLAGS);
            check_set_error(&set, reference);
            let resolved = curl_url::resolve(base, reference, FLAGS);
            match &set {
                Ok(()) => {
                    assert_eq!(resolved.as_ref().ok(), url.parts().as_ref().ok());
                    check_url(&url, text, true);
                }
                Err(e) => {
                    assert_eq!(resolved.as_ref().err(), Some(e));
                    let after = url.parts().expect("parts after a failed set");
                    assert_eq!(before, after, "a failed set changed the handle: {text:?}");
                }
            }
        }
    }
}

/// What a failed `set_url(input)` must look like.
fn check_set_error(set: &Result<(), Error>, input: &str) {
    let Err(e) = set else { return };
    match (e, input.find('\0')) {
        (Error::Nul { position }, Some(nul)) => assert_eq!(*position, nul),
        (Error::Nul { .. }, None) => panic!("NUL error without a NUL: {input:?}"),
        (_, Some(_)) => panic!("input with NUL reached libcurl: {input:?} -> {e}"),
        (Error::Curl(c), None) => {
            assert!((1..=32).contains(&c.code()), "code outside urlapi.h: {e}");
            assert_ne!(c.name(), "CURLUE_UNKNOWN");
            assert!(!c.message().is_empty());
        }
        (other, None) => panic!("unexpected error from set_url: {other}"),
    }
}

/// Invariants of a handle holding a successfully set URL; `resolved` when
/// the URL came from resolving a reference.
fn check_url(url: &Url, input: &str, resolved: bool) {
    let parts = url
        .parts()
        .unwrap_or_else(|e| panic!("parts() failed after a successful set: {input:?} -> {e}"));
    let text = url
        .get(Part::Url, Flags::NONE)
        .unwrap_or_else(|e| panic!("get(Url) failed: {input:?} -> {e}"))
        .unwrap_or_else(|| panic!("no URL after a successful set: {input:?}"));
    assert_eq!(parts.url.as_deref(), Some(text.as_str()));

    match curl_url::parse(&text, FLAGS) {
        Ok(again) => {
            assert_eq!(
                again.host, parts.host,
                "host changed on reparse: {input:?} -> {text:?}"
            );
            if login_has_semicolon(&parts) {
                // Exception (libcurl 8.22): for schemes with login options
                // (imap, pop3, smtp), a `;` in the password is written back
                // unescaped, so `imap://u;o:p;q@h/` recomposes as
                // `imap://u:p;q;o@h/`, which splits the login differently.
                let login_free = |p: &Parts| Parts {
                    user: None,
                    password: None,
                    options: None,
                    url: None,
                    ..p.clone()
                };
                assert_eq!(
                    login_free(&again),
                    login_free(&parts),
                    "parts changed on reparse: {input:?} -> {text:?}"
                );
            } else {
                assert_eq!(
                    again, parts,
                    "parts changed on reparse: {input:?} -> {text:?}"
                );
            }
        }
        // Exception (libcurl 8.22): resolving a `///host` reference takes a
        // host with a control byte (`http://h/` + `///.\x7f` gives host
        // ".\x7f") that parsing the resulting URL rejects as malformed.
        Err(e)
            if resolved && e.code() == Some(3) && text.bytes().any(|b| b < 0x20 || b == 0x7f) => {}
        // Exception (libcurl 8.22): `file:///h:?` parses (path "/h:"), but the
        // URL written back drops the empty query, and `file:///h:` is refused
        // as a drive letter (CURLUE_BAD_FILE_URL outside Windows).
        Err(e) if e.code() == Some(19) && ends_like_drive_letter(&parts) => {}
        Err(e) => panic!("libcurl's own URL does not parse: {input:?} -> {text:?}: {e}"),
    }

    check_clone(url, &parts, input);
}

/// A `file:` URL whose whole path is `/X:`.
fn ends_like_drive_letter(parts: &Parts) -> bool {
    parts.scheme.as_deref() == Some("file")
        && matches!(parts.path.as_deref().map(str::as_bytes), Some([b'/', letter, b':']) if letter.is_ascii_alphabetic())
}

fn login_has_semicolon(parts: &Parts) -> bool {
    [&parts.user, &parts.password, &parts.options]
        .into_iter()
        .any(|p| p.as_deref().is_some_and(|p| p.contains(';')))
}

/// A clone has the same parts and is independent of the original.
fn check_clone(url: &Url, parts: &Parts, input: &str) {
    let mut copy = url.clone();
    assert_eq!(
        copy.parts().ok().as_ref(),
        Some(parts),
        "clone differs: {input:?}"
    );
    let fragment = if parts.fragment.as_deref() == Some("x") {
        "y"
    } else {
        "x"
    };
    copy.set(Part::Fragment, Some(fragment), Flags::NONE)
        .expect("setting a plain fragment");
    assert_eq!(
        copy.get(Part::Fragment, Flags::NONE)
            .ok()
            .flatten()
            .as_deref(),
        Some(fragment)
    );
    assert_eq!(
        url.parts().ok().as_ref(),
        Some(parts),
        "changing a clone changed the original: {input:?}"
    );
}
