//! A finding's signature: (class, basis, oracle, what it explains), the key
//! reports group by, the saved corpus keeps one minimal input for
//! (`corpus/signatures.txt`), the fuzz targets hold new defects against, and
//! `minimize` preserves.
//!
//! Its text form, `class/basis/oracle/fields` (`fields` is `verdict` and
//! the component names, comma-separated, e.g.
//! `dropped-input/defect/http/authority,host,port`), is a public contract:
//! `signatures.txt` and users' baselines hold it.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::components::{ComponentSet, component_from_name, component_name};
use crate::oracle::OracleId;
use crate::triage::{Basis, Class, Finding};

/// A finding's identity, without its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// The class.
    pub class: Class,
    /// Its basis (a class's basis, or `unexplained`).
    pub basis: Basis,
    /// The parser the finding is about.
    pub oracle: OracleId,
    /// Whether it explains the accept/reject difference.
    pub verdict: bool,
    /// The fields it explains.
    pub fields: ComponentSet,
}

impl Signature {
    /// The signature of a finding.
    pub fn of(finding: &Finding) -> Signature {
        Signature {
            class: finding.class,
            basis: finding.basis,
            oracle: finding.oracle,
            verdict: finding.verdict,
            fields: finding.fields,
        }
    }

    /// Is it a parser defect?
    pub(crate) fn is_defect(&self) -> bool {
        self.basis == Basis::Defect
    }

    /// `verdict` (when it explains the verdict) then the field names.
    pub fn field_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.verdict
            .then_some("verdict")
            .into_iter()
            .chain(self.fields.iter().map(component_name))
    }

    /// The bytes of the text form's last part, the fields, without
    /// building it.
    fn field_bytes(&self) -> impl Iterator<Item = u8> + '_ {
        self.field_names()
            .enumerate()
            .flat_map(|(i, name)| (i > 0).then_some(b',').into_iter().chain(name.bytes()))
    }
}

/// The order of two parts of signatures' text forms that each end in `/`:
/// no part holds a `/` (class and basis ids are kebab-case, an oracle's id
/// is `[A-Za-z0-9._-]`), so parts that differ decide the order of the
/// whole texts where they first differ, the `/` after the shorter one
/// included, and only equal parts leave it to the next.
fn part_order(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    // Where the shorter is a prefix of the longer, the `/` that ends it
    // meets the longer's next byte; else they differ before either ends.
    // Slices, not byte iterators: a baseline's lookup compares a few parts.
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len().min(b.len());
    match a.get(..n).cmp(&b.get(..n)) {
        Ordering::Equal => {
            // (Should a part hold a `/` after all, the texts still decide:
            // the shorter, `/` and all, is then a prefix of the longer.)
            let next = |s: &[u8]| s.get(n).copied().unwrap_or(b'/');
            next(a).cmp(&next(b)).then(a.len().cmp(&b.len()))
        }
        order => order,
    }
}

/// The order of the text forms (`signatures.txt` is sorted by it), a part
/// at a time and without an allocation per comparison: a baseline's
/// lookups (`BTreeSet::contains`, on every defect a campaign finds) mostly
/// settle on the class.
impl Ord for Signature {
    fn cmp(&self, other: &Self) -> Ordering {
        if self == other {
            return Ordering::Equal;
        }
        part_order(self.class.id(), other.class.id())
            .then_with(|| part_order(self.basis.as_str(), other.basis.as_str()))
            .then_with(|| part_order(self.oracle.as_str(), other.oracle.as_str()))
            .then_with(|| self.field_bytes().cmp(other.field_bytes()))
    }
}

impl PartialOrd for Signature {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}/", self.class.id(), self.basis, self.oracle)?;
        for (i, name) in self.field_names().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

impl serde::Serialize for Signature {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Why a text is no signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSignature {
    text: String,
    why: &'static str,
}

impl fmt::Display for BadSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is no signature (class/basis/oracle/fields): {}",
            self.text, self.why
        )
    }
}

impl std::error::Error for BadSignature {}

impl FromStr for Signature {
    type Err = BadSignature;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |why| BadSignature {
            text: text.to_owned(),
            why,
        };
        let mut parts = text.splitn(4, '/');
        let (Some(class), Some(basis), Some(oracle), Some(fields)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad("four parts separated by '/' expected"));
        };
        let class = Class::from_id(class).ok_or_else(|| bad("unknown class id"))?;
        let basis = match basis {
            "spec" => Basis::Spec,
            "defect" => Basis::Defect,
            "unexplained" => Basis::Unexplained,
            _ => return Err(bad("basis is spec, defect or unexplained")),
        };
        let oracle = OracleId::from_id(oracle).ok_or_else(|| bad("not an oracle id or name"))?;
        let mut verdict = false;
        let mut set = ComponentSet::EMPTY;
        for name in fields.split(',').filter(|n| !n.is_empty()) {
            if name == "verdict" && !verdict && set.is_empty() {
                verdict = true;
                continue;
            }
            let c = component_from_name(name).ok_or_else(|| bad("unknown field name"))?;
            set = set.with(c);
        }
        let signature = Signature {
            class,
            basis,
            oracle,
            verdict,
            fields: set,
        };
        // One text per signature: field names in component order, no
        // repeats (what Display writes).
        if signature.to_string() != text {
            return Err(bad("fields out of order or repeated"));
        }
        Ok(signature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips_and_orders_like_the_text() {
        let texts = [
            "dropped-input/defect/http/authority,host,port",
            "empty-host/spec/url/host",
            "backslash/spec/url/verdict",
            "reg-name-authority/spec/ada/verdict,host",
            "peer-disagreement/defect/java-uri/path",
            "unexplained/unexplained/curl/",
        ];
        let mut parsed: Vec<Signature> = texts.iter().map(|t| t.parse().unwrap()).collect();
        for (t, s) in texts.iter().zip(&parsed) {
            assert_eq!(&s.to_string(), t);
        }
        parsed.sort();
        let mut sorted = texts.map(str::to_owned);
        sorted.sort();
        let rendered: Vec<String> = parsed.iter().map(ToString::to_string).collect();
        assert_eq!(rendered, sorted);
    }

    /// Compared a part at a time, signatures order exactly as their texts:
    /// every pair of the saved baseline's, and parts one of which begins
    /// the other (an external oracle's name that extends a built-in id).
    #[test]
    fn every_pair_orders_like_its_texts() {
        let mut all: Vec<Signature> = include_str!("../corpus/signatures.txt")
            .lines()
            .filter(|line| !line.starts_with('#'))
            .filter_map(|line| line.split('\t').next())
            .map(|text| text.parse().unwrap())
            .collect();
        for extra in [
            "empty-host/spec/url.x/host",
            "empty-host/spec/url-x/host",
            "empty-host/spec/url/host,port",
            "empty-host/spec/url/verdict,host",
            "empty-host/defect/url/host",
        ] {
            all.push(extra.parse().unwrap());
        }
        assert!(all.len() > 100);
        let texts: Vec<String> = all.iter().map(ToString::to_string).collect();
        for (a, ta) in all.iter().zip(&texts) {
            for (b, tb) in all.iter().zip(&texts) {
                assert_eq!(a.cmp(b), ta.cmp(tb), "{ta} against {tb}");
            }
        }
    }

    #[test]
    fn malformed_signatures_are_refused_with_the_reason() {
        for bad in [
            "",
            "empty-host/spec/url",
            "no-such-class/spec/url/host",
            "empty-host/maybe/url/host",
            "empty-host/spec/url/hostname",
            "empty-host/spec/url/port,host",
            "empty-host/spec/url/host,host",
            "empty-host/spec/url/host,verdict",
            "empty-host/spec/has space/host",
        ] {
            assert!(bad.parse::<Signature>().is_err(), "{bad:?} parsed");
        }
    }
}
