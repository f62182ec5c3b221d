//! Parse errors, named in the words of RFC 2396.

use std::fmt;

/// Why a string is not an RFC 2396 `URI-reference`: where
/// ([`ParseError::index`]), what ([`ParseError::kind`]) and in which
/// production ([`ParseError::production`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    index: usize,
    kind: ErrorKind,
    production: Production,
}

/// What went wrong, in the RFC's own terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A `control` character, US-ASCII 00-1F or 7F (Section 2.4.3).
    Control(u8),
    /// The `space` character, US-ASCII 20 (Section 2.4.3).
    Space,
    /// One of the `delims` `<`, `>`, `"`, or a second `#` (Section 2.4.3).
    Delims(u8),
    /// One of the `unwise` characters `{ } | \ ^ [ ] \`` (Section 2.4.3).
    Unwise(u8),
    /// A character outside US-ASCII (Section 2.1: only escaped octets carry it).
    NonAscii(char),
    /// `%` not followed by two `hex` digits (`escaped`, Section 2.4.1).
    InvalidEscape,
    /// `scheme ":"` followed by nothing: neither `hier_part` nor `opaque_part`
    /// (`opaque_part = uric_no_slash *uric` needs at least one character).
    EmptyOpaquePart,
    /// A relative reference that starts with `?`: `rel_segment` needs at
    /// least one character (`rel_segment = 1*(...)`), so `?y` is not derivable.
    MissingRelSegment,
    /// `:` in the first segment of a relative path (Section 5: it would read
    /// as a scheme, and `rel_segment` excludes it).
    ColonInRelSegment,
}

/// The production of Appendix A in which an error was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Production {
    /// `opaque_part = uric_no_slash *uric`
    OpaquePart,
    /// `authority = server | reg_name`
    Authority,
    /// `abs_path = "/" path_segments`
    AbsPath,
    /// `rel_segment = 1*( unreserved | escaped | ";" | "@" | "&" | "=" | "+" | "$" | "," )`
    RelSegment,
    /// `query = *uric`
    Query,
    /// `fragment = *uric`
    Fragment,
}

impl ErrorKind {
    /// A stable kebab-case identifier, used in JSON output.
    pub fn id(&self) -> &'static str {
        match self {
            ErrorKind::Control(_) => "control",
            ErrorKind::Space => "space",
            ErrorKind::Delims(_) => "delims",
            ErrorKind::Unwise(_) => "unwise",
            ErrorKind::NonAscii(_) => "non-ascii",
            ErrorKind::InvalidEscape => "invalid-escape",
            ErrorKind::EmptyOpaquePart => "empty-opaque-part",
            ErrorKind::MissingRelSegment => "missing-rel-segment",
            ErrorKind::ColonInRelSegment => "colon-in-rel-segment",
        }
    }

    /// The RFC 2396 section that rules this out.
    pub fn section(&self) -> &'static str {
        match self {
            ErrorKind::Control(_)
            | ErrorKind::Space
            | ErrorKind::Delims(_)
            | ErrorKind::Unwise(_) => "2.4.3",
            ErrorKind::NonAscii(_) => "2.1",
            ErrorKind::InvalidEscape => "2.4.1",
            ErrorKind::EmptyOpaquePart => "3",
            ErrorKind::MissingRelSegment | ErrorKind::ColonInRelSegment => "5",
        }
    }
}

impl Production {
    /// The rule name as Appendix A spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Production::OpaquePart => "opaque_part",
            Production::Authority => "authority",
            Production::AbsPath => "abs_path",
            Production::RelSegment => "rel_segment",
            Production::Query => "query",
            Production::Fragment => "fragment",
        }
    }

    /// What the rule would have accepted at the point of the error.
    pub fn expected(&self) -> &'static str {
        match self {
            Production::OpaquePart => "uric (reserved, unreserved or escaped), or '#'",
            Production::Authority => "server or reg_name characters, or '/', '?', '#'",
            Production::AbsPath => "pchar, ';' or '/', or '?', '#'",
            Production::RelSegment => "unreserved, escaped or one of ;@&=+$, or '/', '?', '#'",
            Production::Query => "uric (reserved, unreserved or escaped), or '#'",
            Production::Fragment => "uric (reserved, unreserved or escaped), or the end",
        }
    }
}

/// Writes a byte as a readable character literal.
fn byte_literal(b: u8) -> String {
    format!("'{}'", char::from(b).escape_debug())
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ErrorKind::Control(b) => write!(f, "control character U+{b:04X}"),
            ErrorKind::Space => f.write_str("space character"),
            ErrorKind::Delims(b) => write!(f, "delims character {}", byte_literal(b)),
            ErrorKind::Unwise(b) => write!(f, "unwise character {}", byte_literal(b)),
            ErrorKind::NonAscii(c) => {
                write!(f, "non-ASCII character '{c}' (U+{:04X})", u32::from(c))
            }
            ErrorKind::InvalidEscape => f.write_str("'%' not followed by two hex digits"),
            ErrorKind::EmptyOpaquePart => f.write_str("empty opaque_part after the scheme"),
            ErrorKind::MissingRelSegment => {
                f.write_str("relative reference with an empty rel_segment before '?'")
            }
            ErrorKind::ColonInRelSegment => {
                f.write_str("':' in the first segment of a relative path")
            }
        }
    }
}

impl ParseError {
    pub(crate) const fn new(index: usize, kind: ErrorKind, production: Production) -> Self {
        ParseError {
            index,
            kind,
            production,
        }
    }

    /// The byte offset of the first offending character: for a bad
    /// `escaped` sequence the `%` that starts it, and for an unexpected end
    /// of input the input length. It is always on a `char` boundary.
    pub fn index(&self) -> usize {
        self.index
    }

    /// What is wrong there.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The production being parsed when the error was found.
    pub fn production(&self) -> Production {
        self.production
    }

    /// What would have been accepted at [`ParseError::index`]: the rule's
    /// characters, except for the errors that are about structure rather
    /// than a character, where the rule's alphabet would mislead.
    pub fn expected(&self) -> &'static str {
        match self.kind {
            // `opaque_part = uric_no_slash *uric` needs one character, and
            // a `/` would have made the URI hierarchical (Section 3).
            ErrorKind::EmptyOpaquePart => {
                "uric_no_slash (a uric other than '/') for an opaque_part, or '/' for a hier_part"
            }
            // `rel_path = rel_segment [ abs_path ]`: a relative reference
            // cannot start with its query (Section 5).
            ErrorKind::MissingRelSegment => "a rel_segment, '/' or '//' before the '?'",
            // Section 5: "./" keeps such a segment from being read as a
            // scheme.
            ErrorKind::ColonInRelSegment => {
                "a first segment without ':' (write \"./\" before it), or a scheme of alpha *( alpha | digit | \"+\" | \"-\" | \".\" )"
            }
            _ => self.production.expected(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {} in {} (RFC 2396 section {}); expected {}",
            self.kind,
            self.index,
            self.production.name(),
            self.kind.section(),
            self.expected()
        )
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_character_index_and_section() {
        let e = ParseError {
            index: 7,
            kind: ErrorKind::Unwise(b'['),
            production: Production::Authority,
        };
        let text = e.to_string();
        assert!(
            text.starts_with(
                "unwise character '[' at byte 7 in authority (RFC 2396 section 2.4.3)"
            ),
            "{text}"
        );
        assert!(text.contains("expected server or reg_name"), "{text}");
    }

    #[test]
    fn control_characters_are_shown_as_code_points() {
        assert_eq!(
            ErrorKind::Control(b'\t').to_string(),
            "control character U+0009"
        );
    }

    #[test]
    fn structural_errors_say_what_structure_was_expected() {
        let empty = ParseError {
            index: 5,
            kind: ErrorKind::EmptyOpaquePart,
            production: Production::OpaquePart,
        };
        assert!(empty.to_string().ends_with(
            "expected uric_no_slash (a uric other than '/') for an opaque_part, or '/' for a hier_part"
        ));
        let query_only = ParseError {
            index: 0,
            kind: ErrorKind::MissingRelSegment,
            production: Production::RelSegment,
        };
        assert!(query_only.to_string().contains("expected a rel_segment"));
        // Character errors keep the rule's alphabet.
        let space = ParseError {
            index: 5,
            kind: ErrorKind::Space,
            production: Production::OpaquePart,
        };
        assert_eq!(space.expected(), Production::OpaquePart.expected());
    }
}
