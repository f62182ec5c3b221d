//! RFC 3986 section 5.2 on components from the grammar: every example of
//! section 5.4 (normal and abnormal), the two traces of section 5.2.4, and
//! the errors.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use grammar::rfc3986::{
    ABNORMAL_EXAMPLES as ABNORMAL, EXAMPLES_BASE as BASE, NORMAL_EXAMPLES as NORMAL, Parts,
    ResolveError, merge, parse_parts, remove_dot_segments, resolve,
};

#[test]
fn section_5_4_1_normal_examples() {
    for (reference, target) in NORMAL {
        assert_eq!(resolve(BASE, reference).unwrap(), target, "{reference}");
    }
}

#[test]
fn section_5_4_2_abnormal_examples() {
    for (reference, target) in ABNORMAL {
        assert_eq!(resolve(BASE, reference).unwrap(), target, "{reference}");
    }
}

/// The two traces of section 5.2.4.
#[test]
fn section_5_2_4_traces() {
    assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
    assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
    // Each step of 2 on its own.
    for (input, output) in [
        ("../a", "a"),
        ("./a", "a"),
        ("/./a", "/a"),
        ("/.", "/"),
        ("/a/../b", "/b"),
        ("/a/..", "/"),
        (".", ""),
        ("..", ""),
        ("a/b", "a/b"),
        ("", ""),
        ("/..", "/"),
        ("a/../../b", "/b"),
    ] {
        assert_eq!(remove_dot_segments(input), output, "{input}");
    }
}

/// Section 5.2.4 as its text reads, rewriting the input buffer at every
/// step: the check for `remove_dot_segments`, which keeps the buffer as a
/// slice of the path instead (linear where this is quadratic).
fn remove_dot_segments_as_written(path: &str) -> String {
    let mut input = path.to_owned();
    let mut output = String::new();
    let pop = |output: &mut String| match output.rfind('/') {
        Some(i) => output.truncate(i),
        None => output.clear(),
    };
    while !input.is_empty() {
        if input.starts_with("../") {
            input.replace_range(..3, "");
        } else if input.starts_with("./") {
            input.replace_range(..2, "");
        } else if input.starts_with("/./") {
            input.replace_range(..3, "/");
        } else if input == "/." {
            input.replace_range(..2, "/");
        } else if input.starts_with("/../") {
            input.replace_range(..4, "/");
            pop(&mut output);
        } else if input == "/.." {
            input.replace_range(..3, "/");
            pop(&mut output);
        } else if input == "." || input == ".." {
            input.clear();
        } else {
            let from = usize::from(input.starts_with('/'));
            let end = input[from..].find('/').map_or(input.len(), |i| i + from);
            output.extend(input.drain(..end));
        }
    }
    output
}

/// Every path of up to 7 characters over `/`, `.` and `a` (3 280 paths),
/// and long ones: the same output as the section's buffer rewriting.
#[test]
fn section_5_2_4_every_short_path() {
    let mut paths = vec![String::new()];
    let mut frontier = vec![String::new()];
    for _ in 0..7 {
        frontier = frontier
            .iter()
            .flat_map(|p| ["/", ".", "a"].map(|c| format!("{p}{c}")))
            .collect();
        paths.extend(frontier.iter().cloned());
    }
    assert_eq!(paths.len(), 3280);
    for p in &paths {
        assert_eq!(
            remove_dot_segments(p),
            remove_dot_segments_as_written(p),
            "{p:?}"
        );
    }
    for unit in ["./", "../", "/./", "/../", "a/", "/a/../", "é/./"] {
        let long = unit.repeat(5000);
        assert_eq!(
            remove_dot_segments(&long),
            remove_dot_segments_as_written(&long),
            "{unit:?}"
        );
    }
}

/// Section 5.2.3: an authority with an empty path merges under "/".
#[test]
fn section_5_2_3_merge() {
    let with_authority = Parts {
        scheme: Some("http".into()),
        authority: Some("a".into()),
        ..Parts::default()
    };
    assert_eq!(merge(&with_authority, "g"), "/g");
    let without = Parts {
        scheme: Some("foo".into()),
        path: "bar".into(),
        ..Parts::default()
    };
    assert_eq!(merge(&without, "g"), "g");
    assert_eq!(resolve("http://a", "g").unwrap(), "http://a/g");
    assert_eq!(resolve("foo:bar", "g").unwrap(), "foo:g");
}

/// Section 5.3 recomposes what section 3 parsed, absent and empty apart.
#[test]
fn section_5_3_recomposition_restores_the_input() {
    for input in [
        "http://a/b/c/d;p?q",
        "http://@h:/?#",
        "foo:",
        "//",
        "?",
        "#",
        "",
        "a/b?c#d",
        "file:///etc/hosts",
    ] {
        let parts = parse_parts(input).unwrap();
        assert_eq!(parts.recompose(), input);
    }
    let p = parse_parts("http://h?#").unwrap();
    assert_eq!(
        (p.query.as_deref(), p.fragment.as_deref()),
        (Some(""), Some(""))
    );
    let p = parse_parts("http://h").unwrap();
    assert_eq!((p.query, p.fragment), (None, None));
}

#[test]
fn bases_and_references_must_be_uri_references() {
    assert_eq!(
        resolve("a/b", "g").unwrap_err(),
        ResolveError::BaseWithoutScheme
    );
    assert!(matches!(
        resolve("http://a b/", "g"),
        Err(ResolveError::Base(_))
    ));
    assert!(matches!(
        resolve(BASE, "g h"),
        Err(ResolveError::Reference(_))
    ));
    // A base's fragment is never read (section 5.1 strips it).
    assert_eq!(resolve("http://a/b#f", "c").unwrap(), "http://a/c");
}
