//! The cargo-fuzz targets (fuzz/fuzz_targets/): one list for the command
//! line (`uridiff corpus add`, `uridiff targets`), the saved corpus
//! (`uridiff::corpus::TARGETS`) and the scripts, which read it from
//! `uridiff targets --format tsv` (scripts/lib.sh's `load_targets`).

use std::fmt;
use std::str::FromStr;

/// A fuzz target. [`FuzzTarget::as_str`] is its binary's name and its
/// corpus directory's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FuzzTarget {
    /// The strict parser's invariants ([`parse_invariants`](super::parse_invariants)).
    Parse,
    /// Resolution's invariants ([`resolve_invariants`](super::resolve_invariants)).
    Resolve,
    /// Every oracle on one input (`check`).
    Differential,
    /// Every oracle on a rendered [`UriModel`](super::UriModel).
    Structured,
    /// Every oracle resolving a reference against a base (`check_with_base`).
    ResolveDifferential,
    /// libcurl's URL API through the `curl-url` wrapper.
    CurlUrl,
}

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
        }
    }
}

impl fmt::Display for CorpusFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FuzzTarget {
    /// Every target, in the order `uridiff targets` lists them (and
    /// `scripts/fuzz.sh all` fuzzes them).
    pub const ALL: [FuzzTarget; 6] = [
        FuzzTarget::Parse,
        FuzzTarget::Resolve,
        FuzzTarget::Differential,
        FuzzTarget::Structured,
        FuzzTarget::ResolveDifferential,
        FuzzTarget::CurlUrl,
    ];

    /// The name of the target's binary and corpus directory.
    pub const fn as_str(self) -> &'static str {
        match self {
            FuzzTarget::Parse => "parse",
            FuzzTarget::Resolve => "resolve",
            FuzzTarget::Differential => "differential",
            FuzzTarget::Structured => "structured",
            FuzzTarget::ResolveDifferential => "resolve-differential",
            FuzzTarget::CurlUrl => "curl_url",
        }
    }

    /// What the target's corpus files hold.
    pub const fn format(self) -> CorpusFormat {
        match self {
            FuzzTarget::Parse | FuzzTarget::Differential => CorpusFormat::Reference,
            FuzzTarget::Resolve | FuzzTarget::ResolveDifferential => CorpusFormat::ResolvePair,
            FuzzTarget::Structured => CorpusFormat::Structured,
            FuzzTarget::CurlUrl => CorpusFormat::CurlText,
        }
    }

    /// Does a corpus file hold one URI reference?
    pub const fn holds_references(self) -> bool {
        matches!(self.format(), CorpusFormat::Reference)
    }

    /// Does a corpus file hold a (base, reference) pair?
    pub const fn holds_pairs(self) -> bool {
        matches!(self.format(), CorpusFormat::ResolvePair)
    }

    /// Does a corpus file hold a structured model?
    pub const fn holds_models(self) -> bool {
        matches!(self.format(), CorpusFormat::Structured)
    }

    /// Does the saved corpus (`uridiff::corpus`, replayed by `cargo test`)
    /// check this target's directory through `check`? All but `curl_url`:
    /// its inputs hold libcurl to invariants of its own, which only its fuzz
    /// binary checks (scripts/fuzz-replay.sh).
    pub const fn in_saved_corpus(self) -> bool {
        !matches!(self, FuzzTarget::CurlUrl)
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
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| UnknownTarget(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in FuzzTarget::ALL {
            assert_eq!(t.as_str().parse::<FuzzTarget>(), Ok(t));
        }
        assert!("curl-url".parse::<FuzzTarget>().is_err());
    }
}
