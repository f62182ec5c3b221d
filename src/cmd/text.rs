//! Helpers for the human-readable views.

use unicode_width::UnicodeWidthChar;

/// Shows `s` on one terminal line: control characters become their Unicode
/// control pictures (U+2400 block), so a tab or a newline inside an input
/// stays visible and cannot break the layout.
pub fn visible(s: &str) -> String {
    s.chars().map(visible_char).collect()
}

fn visible_char(c: char) -> char {
    match u32::from(c) {
        n @ 0..=0x1f => char::from_u32(0x2400 + n).unwrap_or('?'),
        0x7f => '\u{2421}',
        _ => c,
    }
}

/// The terminal column at which byte `index` of `s` appears in `visible(s)`.
pub fn column_of(s: &str, index: usize) -> usize {
    s.char_indices()
        .take_while(|&(i, _)| i < index)
        .map(|(_, c)| visible_char(c).width().unwrap_or(1))
        .sum()
}

/// A component value for the aligned views: quoted text, or `absent`.
pub fn component(value: Option<&str>) -> String {
    match value {
        Some(v) => format!("\"{}\"", visible(v)),
        None => "absent".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_pictures_and_columns_follow() {
        assert_eq!(visible("a\tb"), "a\u{2409}b");
        assert_eq!(column_of("a\tb", 2), 2);
        assert_eq!(column_of("日本x", 6), 4);
    }
}
