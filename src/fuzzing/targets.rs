//! The cargo-fuzz targets (fuzz/fuzz_targets/): one list for the command
//! line (`uridiff corpus add`, `uridiff targets`), the saved corpus
//! (`uridiff::corpus::TARGETS`) and the scripts, which read it from
//! `uridiff targets --format tsv` (scripts/lib.sh's `load_targets`).

use std::fmt;
use std::str::FromStr;

/// What one corpus file of a target holds. [`CorpusFormat::as_str`] names
/// it in `uridiff targets --format tsv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorpusFormat {
    /// One URI reference: its UTF-8 bytes.
    Reference,
    /// A (base, reference) pair as `arbitrary` encodes `(&str, &str)`
    /// ([`encode_resolve_pair`](super::encode_resolve_pair)).
    ResolvePair,
    /// A [`UriModel`](super::UriModel) as `arbitrary` decodes it
    /// ([`render_structured`](super::render_structured)).
    Structured,
    /// libcurl's input: UTF-8 text, a URL, or a base and a reference split
    /// at the first NUL.
    CurlText,
    /// A bypass template: UTF-8 text in which U+0001 is the allowed host's
    /// slot and U+0002 the target's
    /// ([`render_slots`](super::render_slots)).
    BypassTemplate,
}

impl CorpusFormat {
    /// The format's name: `reference`, `resolve-pair`, `structured` or
    /// `curl-text`.
    pub const fn as_str(self) -> &'static str {
        match self {
            CorpusFormat::Reference => "reference",
            CorpusFormat::ResolvePair => "resolve-pair",
            CorpusFormat::Structured => "structured",
            CorpusFormat::CurlText => "curl-text",
            CorpusFormat::BypassTemplate => "bypass-template",
        }
    }
}

impl fmt::Display for CorpusFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One row per target: its variant, its name (the binary's and the corpus
/// directory's), what its corpus files hold, and whether the saved corpus
/// replays its directory through `check`. Adding a target is a row here, its
/// file in `fuzz/fuzz_targets/` and its `[[bin]]` in `fuzz/Cargo.toml`.
macro_rules! fuzz_targets {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $name:literal { format: $format:ident, saved: $saved:literal }
    )*) => {
        /// A fuzz target. [`FuzzTarget::as_str`] is its binary's name and its
        /// corpus directory's.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum FuzzTarget {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl FuzzTarget {
            /// Every target, in the order `uridiff targets` lists them (and
            /// `scripts/fuzz.sh all` fuzzes them).
            pub const ALL: &'static [FuzzTarget] = &[$(FuzzTarget::$variant,)*];

            /// The name of the target's binary and corpus directory.
            pub const fn as_str(self) -> &'static str {
                match self { $(FuzzTarget::$variant => $name,)* }
            }

            /// What the target's corpus files hold.
            pub const fn format(self) -> CorpusFormat {
                match self { $(FuzzTarget::$variant => CorpusFormat::$format,)* }
            }

            /// Does the saved corpus (`uridiff::corpus`, replayed by `cargo
            /// test`) check this target's directory through `check`?
            pub const fn in_saved_corpus(self) -> bool {
                match self { $(FuzzTarget::$variant => $saved,)* }
            }
        }
    };
}

fuzz_targets! {
    /// The strict parser's invariants
    /// ([`strict_parser_invariants`](super::strict_parser_invariants)).
    Parse = "parse" { format: Reference, saved: true }
    /// Resolution's invariants ([`resolve_invariants`](super::resolve_invariants)).
    Resolve = "resolve" { format: ResolvePair, saved: true }
    /// Every oracle on one input (`check`).
    Differential = "differential" { format: Reference, saved: true }
    /// Every oracle on a rendered [`UriModel`](super::UriModel).
    Structured = "structured" { format: Structured, saved: true }
    /// Every oracle resolving a reference against a base (`check_with_base`).
    ResolveDifferential = "resolve-differential" { format: ResolvePair, saved: true }
    /// libcurl's URL API through the `curl-url` wrapper. Not in the saved
    /// corpus's replay: its inputs hold libcurl to invariants of its own,
    /// which only its fuzz binary checks (scripts/fuzz-replay.sh).
    CurlUrl = "curl_url" { format: CurlText, saved: false }
    /// Inputs built around two host slots, the default allowed and target
    /// hosts filled in: a (validator, fetcher, shape) bypass that
    /// `corpus/bypasses.txt` does not list is a finding.
    Bypass = "bypass" { format: BypassTemplate, saved: true }
    /// The strict parser against RFC 2396 Appendix A run as text
    /// ([`rfc2396_grammar_agrees`](super::rfc2396_grammar_agrees)): the
    /// same inputs accepted, the strict parser's reading among the
    /// grammar's. A target of its own because the grammar's Earley engine
    /// costs a hundred times the parser: `parse` stays fast.
    Rfc2396Grammar = "rfc2396-grammar" { format: Reference, saved: true }
}

impl FuzzTarget {
    /// Does a corpus file hold a (base, reference) pair?
    pub const fn holds_pairs(self) -> bool {
        matches!(self.format(), CorpusFormat::ResolvePair)
    }

    /// Does a corpus file hold a structured model?
    pub const fn holds_models(self) -> bool {
        matches!(self.format(), CorpusFormat::Structured)
    }
}

impl fmt::Display for FuzzTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no fuzz target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTarget(pub String);

impl fmt::Display for UnknownTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown fuzz target '{}' (", self.0)?;
        for (i, t) in FuzzTarget::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(t.as_str())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownTarget {}

impl FromStr for FuzzTarget {
    type Err = UnknownTarget;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FuzzTarget::ALL
            .iter()
            .copied()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| UnknownTarget(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &t in FuzzTarget::ALL {
            assert_eq!(t.as_str().parse::<FuzzTarget>(), Ok(t));
        }
        assert!("curl-url".parse::<FuzzTarget>().is_err());
    }
}
