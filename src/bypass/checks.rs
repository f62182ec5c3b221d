//! String checks: the validators people write when they do not parse the
//! URL at all, each exactly as the common idiom reads (the Python form is
//! quoted on each).

use std::fmt;

/// A validator that looks at the input's text, not a parser's host.
#[derive(Clone, Debug)]
pub enum StringCheck {
    /// `url.startswith(scheme + "://" + allow)`, for `http` and `https`.
    Prefix,
    /// `allow in url`.
    Contains,
    /// The host-ish text after the first `//` up to the next `/` (or the
    /// end) ends with `allow`: `url.split("//")[1].split("/")[0].endswith(allow)`.
    Suffix,
    /// `url.split("://")[1].split("/")[0].split("@")[-1].split(":")[0] == allow`.
    SplitHost,
    /// A regular expression the user gives (`regex:PATTERN`), matched
    /// anywhere in the input unless anchored (Rust's `regex` crate syntax,
    /// the same as Python's `re.search` for the usual patterns).
    Regex(Box<regex::Regex>),
}

impl StringCheck {
    /// The check `name` stands for: a fixed check's name or `regex:PATTERN`.
    ///
    /// # Errors
    /// A pattern that does not compile, with the regex crate's message.
    pub fn parse(name: &str) -> Result<Option<StringCheck>, String> {
        Ok(Some(match name {
            "prefix" => StringCheck::Prefix,
            "contains" => StringCheck::Contains,
            "suffix" => StringCheck::Suffix,
            "split-host" => StringCheck::SplitHost,
            _ => match name.strip_prefix("regex:") {
                Some(pattern) => {
                    StringCheck::Regex(Box::new(regex::Regex::new(pattern).map_err(|e| {
                        format!("--validator {name}: not a regular expression: {e}")
                    })?))
                }
                None => return Ok(None),
            },
        }))
    }

    /// The host the check reads, for the checks that read one: `suffix`'s
    /// host-ish text and `split-host`'s last piece. `None` when the idiom
    /// would raise (no `//` or `://`) or reads no host.
    pub fn host<'i>(&self, input: &'i str) -> Option<&'i str> {
        match self {
            StringCheck::Suffix => Some(after_slashes(input)?),
            StringCheck::SplitHost => split_host(input),
            _ => None,
        }
    }

    /// The host a reader of the text sees, for making templates: the
    /// checks' own host ([`StringCheck::host`]), and for `prefix`,
    /// `contains` and a regex the text right after the first `://` up to
    /// the first `@`, `:`, `/`, `\\`, `?` or `#` (what the eye takes for
    /// the host: `a` in `http://a@b/`).
    pub fn reading<'i>(&self, input: &'i str) -> Option<&'i str> {
        match self {
            StringCheck::Suffix | StringCheck::SplitHost => self.host(input),
            _ => {
                let (_, rest) = input.split_once("://")?;
                rest.split(['@', ':', '/', '\\', '?', '#']).next()
            }
        }
    }

    /// Does the check pass `input` as a URL for `allow`?
    pub fn passes(&self, input: &str, allow: &str) -> bool {
        match self {
            StringCheck::Prefix => ["http", "https"].iter().any(|scheme| {
                input
                    .strip_prefix(scheme)
                    .and_then(|rest| rest.strip_prefix("://"))
                    .is_some_and(|rest| rest.starts_with(allow))
            }),
            StringCheck::Contains => input.contains(allow),
            StringCheck::Suffix => after_slashes(input).is_some_and(|h| h.ends_with(allow)),
            StringCheck::SplitHost => split_host(input) == Some(allow),
            StringCheck::Regex(re) => re.is_match(input),
        }
    }
}

impl fmt::Display for StringCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StringCheck::Prefix => f.write_str("prefix"),
            StringCheck::Contains => f.write_str("contains"),
            StringCheck::Suffix => f.write_str("suffix"),
            StringCheck::SplitHost => f.write_str("split-host"),
            StringCheck::Regex(re) => write!(f, "regex:{}", re.as_str()),
        }
    }
}

/// `url.split("//")[1].split("/")[0]`: `None` where Python raises (no `//`).
fn after_slashes(input: &str) -> Option<&str> {
    let mut pieces = input.split("//");
    pieces.next();
    let rest = pieces.next()?;
    rest.split('/').next()
}

/// `url.split("://")[1].split("/")[0].split("@")[-1].split(":")[0]`.
fn split_host(input: &str) -> Option<&str> {
    let mut pieces = input.split("://");
    pieces.next();
    let rest = pieces.next()?;
    let authority = rest.split('/').next()?;
    let host = authority.rsplit('@').next()?;
    host.split(':').next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_host_takes_python_s_pieces() {
        let c = StringCheck::SplitHost;
        assert_eq!(
            c.host("http://evil.example#@allowed.example/"),
            Some("allowed.example")
        );
        assert_eq!(c.host("http://u@h:80/p"), Some("h"));
        assert_eq!(c.host("http:/h"), None, "IndexError in Python");
        assert!(c.passes("http://evil.example?@allowed.example", "allowed.example"));
        assert!(!c.passes("http://allowed.example.evil/", "allowed.example"));
    }

    #[test]
    fn the_eye_reads_the_text_after_the_scheme_as_the_host() {
        assert_eq!(StringCheck::Prefix.reading("http://a@b/"), Some("a"));
        assert_eq!(StringCheck::Contains.reading("http://a\\b@c/"), Some("a"));
        assert_eq!(StringCheck::SplitHost.reading("http://a@b/"), Some("b"));
        assert_eq!(StringCheck::Prefix.reading("mailto:a@b"), None);
    }

    #[test]
    fn prefix_contains_and_suffix_read_text_only() {
        let allow = "allowed.example";
        assert!(StringCheck::Prefix.passes("http://allowed.example.evil/", allow));
        assert!(StringCheck::Prefix.passes("https://allowed.example@evil/", allow));
        assert!(!StringCheck::Prefix.passes("ftp://allowed.example/", allow));
        assert!(StringCheck::Contains.passes("http://evil/?allowed.example", allow));
        assert!(StringCheck::Suffix.passes("http://evil-allowed.example/x", allow));
        assert!(!StringCheck::Suffix.passes("http://allowed.example.evil/", allow));
        assert_eq!(StringCheck::Suffix.host("http://a@b:1/c"), Some("a@b:1"));
    }

    #[test]
    fn a_regex_validator_compiles_or_says_why() {
        let re = StringCheck::parse(r"regex:^https?://allowed\.example/")
            .unwrap()
            .unwrap();
        assert!(re.passes("http://allowed.example/x", "ignored"));
        assert!(!re.passes("http://allowed-example/x", "ignored"));
        assert_eq!(re.to_string(), r"regex:^https?://allowed\.example/");
        assert!(StringCheck::parse("regex:(").is_err());
        assert!(StringCheck::parse("url").unwrap().is_none());
    }
}
