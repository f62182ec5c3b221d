//! Helpers for the human-readable views.

use unicode_width::UnicodeWidthChar;

pub(crate) use uridiff::text::visible;

/// The terminal column at which byte `index` of `s` appears in `visible(s)`.
pub(crate) fn column_of(s: &str, index: usize) -> usize {
    uridiff::text::shown_before(s, index)
        .chars()
        .map(|c| c.width().unwrap_or(1))
        .sum()
}

/// A path as a person reads it on the terminal (hidden characters escaped).
pub(crate) fn path(p: &std::path::Path) -> String {
    visible(&p.display().to_string())
}

/// A component value for the aligned views: quoted text, or `absent`.
pub(crate) fn component(value: Option<&str>) -> String {
    match value {
        Some(v) => format!("\"{}\"", visible(v)),
        None => "absent".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_escaped_and_columns_follow() {
        assert_eq!(visible("a\tb"), "a\\u{9}b");
        assert_eq!(column_of("a\tb", 2), 6);
        assert_eq!(column_of("日本x", 6), 4);
        // A backslash before `u{` is shown doubled, and the caret follows.
        assert_eq!(column_of("a\\u{1}", 2), 3);
    }
}
