//! The `Url` handle: parts set and cleared, clones (`curl_url_dup`), the empty
//! handle, thread transfer, and the small API types.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use curl_url::{Error, Flags, Part, Parts, Url, parse, version};

fn some(s: &str) -> Option<String> {
    Some(s.to_owned())
}

#[test]
fn clone_is_independent_of_the_original() {
    let mut original = Url::new().unwrap();
    original
        .set_url("http://u:p@example.com:8080/a?b#c", Flags::NONE)
        .unwrap();
    let mut copy = original.clone();
    assert_eq!(copy.parts().unwrap(), original.parts().unwrap());

    copy.set(Part::Host, Some("other.example"), Flags::NONE)
        .unwrap();
    copy.set(Part::Fragment, None, Flags::NONE).unwrap();
    copy.set_url("../z", Flags::NONE).unwrap();
    assert_eq!(
        copy.get(Part::Url, Flags::NONE).unwrap(),
        some("http://u:p@other.example:8080/z")
    );
    assert_eq!(
        original.get(Part::Url, Flags::NONE).unwrap(),
        some("http://u:p@example.com:8080/a?b#c")
    );

    // And the other way round; dropping the original leaves the copy intact.
    original
        .set(Part::Query, Some("changed"), Flags::NONE)
        .unwrap();
    drop(original);
    assert_eq!(copy.get(Part::Query, Flags::NONE).unwrap(), None);
    let again = copy.try_clone().unwrap();
    assert_eq!(again.parts().unwrap(), copy.parts().unwrap());
}

#[test]
fn clone_forgets_a_guessed_scheme() {
    // Notable (libcurl 8.22): curl_url_dup does not copy the "guessed" mark,
    // so CURLU_NO_GUESS_SCHEME hides the scheme in the original only.
    let mut url = Url::new().unwrap();
    url.set_url("example.com/x", Flags::GUESS_SCHEME).unwrap();
    assert_eq!(url.get(Part::Scheme, Flags::NO_GUESS_SCHEME).unwrap(), None);
    assert_eq!(
        url.get(Part::Url, Flags::NO_GUESS_SCHEME).unwrap(),
        some("example.com/x")
    );
    let copy = url.clone();
    assert_eq!(
        copy.get(Part::Scheme, Flags::NO_GUESS_SCHEME).unwrap(),
        some("http")
    );
}

#[test]
fn empty_handle() {
    let url = Url::new().unwrap();
    // No part is there, except that libcurl always reports a path.
    assert_eq!(
        url.parts().unwrap(),
        Parts {
            path: some("/"),
            ..Parts::default()
        }
    );
    assert_eq!(format!("{url:?}"), "Url { url: Ok(None) }");
}

#[test]
fn set_and_clear_parts() {
    let mut url = Url::new().unwrap();
    url.set_url("http://h/p?a=1", Flags::NONE).unwrap();
    url.set(
        Part::Query,
        Some("b=x y&"),
        Flags::APPENDQUERY | Flags::URLENCODE,
    )
    .unwrap();
    assert_eq!(
        url.get(Part::Query, Flags::NONE).unwrap(),
        some("a=1&b=x+y%26")
    );
    url.set(Part::Path, Some("/a b"), Flags::URLENCODE).unwrap();
    assert_eq!(url.get(Part::Path, Flags::NONE).unwrap(), some("/a%20b"));
    url.set(Part::Query, None, Flags::NONE).unwrap();
    assert_eq!(
        url.get(Part::Url, Flags::NONE).unwrap(),
        some("http://h/a%20b")
    );
    assert_eq!(
        url.set(Part::Port, Some("99999"), Flags::NONE)
            .unwrap_err()
            .code(),
        Some(4)
    );
    assert_eq!(
        url.set(Part::Host, Some("a b"), Flags::NONE)
            .unwrap_err()
            .code(),
        Some(21)
    );
    url.set(Part::Port, Some("81"), Flags::NONE).unwrap();
    url.set(Part::User, Some("me"), Flags::NONE).unwrap();
    assert_eq!(
        url.get(Part::Url, Flags::NONE).unwrap(),
        some("http://me@h:81/a%20b")
    );
    // Clearing the URL empties the handle.
    url.set(Part::Url, None, Flags::NONE).unwrap();
    assert_eq!(url.get(Part::Url, Flags::NONE).unwrap(), None);
}

#[test]
fn parts_agree_with_single_gets() {
    let mut url = Url::new().unwrap();
    url.set_url("imap://u:p;o@[fe80::1%25eth0]:143/m?q#f", Flags::NONE)
        .unwrap();
    let parts = url.parts().unwrap();
    for part in Part::ALL {
        assert_eq!(
            parts.get(part).map(str::to_owned),
            url.get(part, Flags::NONE).unwrap(),
            "{part:?}"
        );
    }
    assert_eq!(
        parts,
        parse("imap://u:p;o@[fe80::1%25eth0]:143/m?q#f", Flags::NONE).unwrap()
    );
}

#[test]
fn url_moves_between_threads() {
    fn assert_send<T: Send>() {}
    assert_send::<Url>();
    let mut url = Url::new().unwrap();
    url.set_url("http://h/", Flags::NONE).unwrap();
    let handle = std::thread::spawn(move || {
        url.set_url("x", Flags::NONE).unwrap();
        url
    });
    let url = handle.join().unwrap();
    assert_eq!(url.get(Part::Url, Flags::NONE).unwrap(), some("http://h/x"));
}

#[test]
fn flags_combine_and_print() {
    let flags = Flags::NON_SUPPORT_SCHEME | Flags::PATH_AS_IS;
    assert!(flags.contains(Flags::PATH_AS_IS));
    assert!(!flags.contains(Flags::URLDECODE));
    assert_eq!(flags.bits(), (1 << 3) | (1 << 4));
    assert_eq!(format!("{flags:?}"), "NON_SUPPORT_SCHEME | PATH_AS_IS");
    assert_eq!(format!("{:?}", Flags::NONE), "NONE");
    assert_eq!(
        format!("{:?}", Flags::from_bits(1 | (1 << 20))),
        "DEFAULT_PORT | 0x100000"
    );
    assert_eq!(flags.without(Flags::PATH_AS_IS), Flags::NON_SUPPORT_SCHEME);
    let mut f = Flags::default();
    f |= Flags::GET_EMPTY;
    assert_eq!(f & Flags::GET_EMPTY, Flags::GET_EMPTY);
    assert_eq!(Flags::NAMED.len(), 16);
}

#[test]
fn nul_error_display() {
    let e = Error::Nul { position: 3 };
    assert_eq!(e.name(), "NUL_IN_INPUT");
    assert_eq!(
        e.to_string(),
        "input contains a NUL byte at offset 3; libcurl takes NUL-terminated strings"
    );
    assert!(std::error::Error::source(&e).is_none());
}

#[test]
fn version_is_the_vendored_libcurl() {
    let v = version();
    assert!(v.starts_with("libcurl/8.22.0"), "{v}");
    assert_eq!(version(), v);
}

/// A value is handed to libcurl the same whether it is made a C string on
/// the stack (shorter than 256 bytes with its NUL) or on the heap: the
/// lengths on either side of that bound set the same URL, and a NUL is
/// refused at its position in both.
#[test]
fn short_and_long_values_are_set_alike() {
    for len in [0, 1, 254, 255, 256, 257, 4096] {
        let path = format!("/{}", "p".repeat(len));
        let text = format!("http://h{path}");
        let url = parse(&text, Flags::NONE).unwrap();
        assert_eq!(url.path, Some(path.clone()), "{len}");
        let mut handle = Url::new().unwrap();
        handle.set_url(&text, Flags::NONE).unwrap();
        assert_eq!(
            handle.get(Part::Url, Flags::NONE).unwrap(),
            Some(text.clone())
        );
        let with_nul = format!("{text}\0");
        let e = handle.set_url(&with_nul, Flags::NONE).unwrap_err();
        assert_eq!(
            e,
            Error::Nul {
                position: text.len()
            },
            "{len}"
        );
        let e = handle.set(Part::Query, Some(&format!("q{path}\0")), Flags::NONE);
        assert_eq!(
            e.unwrap_err(),
            Error::Nul {
                position: path.len() + 1
            },
            "{len}"
        );
    }
}

/// `get_with` hands over libcurl's own bytes, the ones `get_bytes` copies,
/// and reports a missing part as `None` without calling the reader.
#[test]
fn get_with_reads_what_get_bytes_copies() {
    let mut url = Url::new().unwrap();
    url.set_url("http://%ff/p?q", Flags::NONE).unwrap();
    for part in [Part::Scheme, Part::Host, Part::Path, Part::Query] {
        let read = url.get_with(part, Flags::NONE, <[u8]>::to_vec).unwrap();
        assert_eq!(read, url.get_bytes(part, Flags::NONE).unwrap(), "{part:?}");
        assert!(read.is_some(), "{part:?}");
    }
    let mut called = false;
    let missing = url.get_with(Part::Fragment, Flags::NONE, |_| called = true);
    assert_eq!(missing.unwrap(), None);
    assert!(!called);
}
