//! Reproductions: for each root cause of a case's defects, a test in the
//! blamed parser's own API (and language) that asserts what its standard
//! requires, ready to paste into an upstream bug report, plus a
//! web-platform-tests `urltestdata.json` entry for a WHATWG parser.
//!
//! The expected values come from the standard's reference as the case
//! recorded it (`whatwg-url` for url and ada, `rfc3986-grammar` for
//! fluent-uri and iri-string); for a self-check defect (a port that is no
//! port, a bracketed host that is no IP literal, a serialization that does
//! not reparse) from the standard's text, which the class names. A test
//! fails while the defect holds and passes once it is fixed.
//!
//! [`check_rust`] builds and runs an emitted Rust test against the pinned
//! crate, to tell whether the defect is still there.

mod adapters;
mod check;
pub mod literal;
mod web;
mod wpt;

pub use self::check::{
    CheckError, check, check_ada_c, check_c, check_rust, check_target_dir, check_uriparser_c,
};
use self::literal::{c as c_str, javascript as js, rust as rs};
use self::web::{ada_c_test, ada_test, curl_test, uriparser_test};
use self::wpt::wpt_entry;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

use crate::case::Case;
use crate::components::{Component, ComponentSet, Components};
use crate::oracle::{OracleId, Outcome, Standard, Template, Verdict};
use crate::rootcause::{self, RootCause};
use crate::triage::{Class, Finding};

/// One test, in the language of the parser's API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Test {
    /// `rust`, `c`, `javascript`, `python`, `java`, `go`, `php` or `ruby`.
    pub language: &'static str,
    /// The whole test, with the dependency it needs as a comment at the top.
    pub code: String,
}

/// One root cause of a case's defects, with what an upstream report needs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reproduction {
    /// The root cause id (a ledger row's, or `new:` and a signature).
    pub root_cause: String,
    /// The parser at fault.
    pub parser: OracleId,
    /// The library and version, as the oracle registry names it.
    pub version: String,
    /// `new`, `known` (the ledger's `open`), `fixed` (`fixed in X`) or
    /// `documented`.
    pub status: String,
    /// The upstream issue or documentation, if any.
    pub upstream: Option<String>,
    /// The section of the standard the parser breaks.
    pub spec: String,
    /// Tests in the parser's own API; empty when none can be written (see
    /// the module docs).
    pub tests: Vec<Test>,
    /// For a WHATWG parser: a web-platform-tests `urltestdata.json` entry.
    pub wpt: Option<serde_json::Value>,
}

/// One reproduction per root cause of `case`'s defect findings, in the
/// order the findings come; a defect with no root cause (an undecided peer
/// disagreement) gives none.
pub fn reproduce(case: &Case<'_>) -> Vec<Reproduction> {
    let mut groups: Vec<(RootCause, OracleId, Vec<&Finding>)> = Vec::new();
    for finding in case.defects() {
        let Some(cause) = case.root_cause(finding) else {
            continue;
        };
        match groups
            .iter_mut()
            .find(|(c, parser, _)| c.id == cause.id && *parser == finding.oracle)
        {
            Some((_, _, findings)) => findings.push(finding),
            None => groups.push((cause, finding.oracle, vec![finding])),
        }
    }
    groups
        .into_iter()
        .map(|(cause, parser, findings)| build(case, cause, parser, &findings))
        .collect()
}

/// What the standard requires of the input, as the test asserts it.
#[derive(Debug)]
enum Expect<'c> {
    /// The parser must fail.
    Reject,
    /// The parser must give these components (the reference's).
    Accept(&'c Components<'c>),
    /// The parser's serialization must reparse to the same URL (the URL
    /// Standard's serializer; RFC 3986 section 5.3 recomposition).
    RoundTrip,
    /// The parser must accept and serialize to this text: the standard's
    /// answer where the reference has a known bug on this very input
    /// (`testdata/known-deviations.tsv`, its `expected` column).
    Serialization(&'c str),
}

/// The ledger's status as `reproduce` reports it: `new`, `known` (reported
/// upstream, open), `fixed` (in a release, or merged and unreleased), or
/// `documented`.
fn status_of(ledger_status: &str) -> &'static str {
    match ledger_status {
        "open" => "known",
        "documented" => "documented",
        s if s.starts_with("fixed in") => "fixed",
        _ => "new",
    }
}

fn build(
    case: &Case<'_>,
    cause: RootCause,
    parser: OracleId,
    findings: &[&Finding],
) -> Reproduction {
    let row = rootcause::ledger().iter().find(|r| r.id == cause.id);
    let spec = match (row, findings.first()) {
        (Some(row), _) => row.spec.clone(),
        (None, Some(f)) => f.class.spec().to_owned(),
        (None, None) => String::new(),
    };
    let descriptor = parser.descriptor();
    let version = descriptor
        .library()
        .map_or_else(|| parser.as_str().to_owned(), str::to_owned);
    let disputed = findings
        .iter()
        .fold(ComponentSet::EMPTY, |set, f| set.union(f.fields));
    let reference_id = parser.standard().and_then(crate::reference::reference_for);
    // A reference with a known bug on this input says nothing: the row's
    // own expected answer stands in for it when the input is its witness.
    let unfit = reference_id.and_then(|id| crate::known::lookup(id, case.input, case.base));
    let reference = reference_id
        .and_then(|id| case.outcome(id))
        .filter(|o| !o.is_missing() && unfit.is_none());
    let expect = match unfit {
        Some(k) if k.input == case.input && k.base.as_deref() == case.base => match &k.expected {
            crate::known::Expected::Href(href) => Some(Expect::Serialization(href)),
            crate::known::Expected::Failure => Some(Expect::Reject),
        },
        Some(_) => None,
        None => expectation(descriptor.template, findings, reference),
    };
    let about = About {
        input: case.input,
        base: case.base,
        id: &cause.id,
        spec: &spec,
        version: &version,
        disputed,
    };
    let mut tests: Vec<Test> = expect
        .as_ref()
        .and_then(|expect| test_for(parser, &about, expect))
        .into_iter()
        .collect();
    // Ada: also a C test against its C API (ada_c.h), which `--check`
    // builds against the pinned release's sources.
    if descriptor.template == Some(Template::Ada)
        && let Some(expect) = expect.as_ref()
    {
        tests.push(Test {
            language: "c",
            code: ada_c_test(&about, expect),
        });
    }
    // A WHATWG parser's defect is also a web-platform-tests entry (written
    // for the in-process ones, whose tests uridiff writes itself).
    let wpt = (descriptor.standard == Some(Standard::Whatwg) && descriptor.template.is_some())
        .then(|| reference.and_then(|r| wpt_entry(case.input, case.base, r)))
        .flatten();
    Reproduction {
        root_cause: cause.id,
        parser,
        version,
        status: status_of(&cause.status).to_owned(),
        upstream: cause.upstream,
        spec,
        tests,
        wpt,
    }
}

/// What a test of `parser` asserts: a round trip for a round-trip defect;
/// the reference's outcome when it answered; else what the class's section
/// of the standard requires (every self-check class but round-trip names
/// input the standard forbids).
fn expectation<'c>(
    template: Option<Template>,
    findings: &[&Finding],
    reference: Option<&'c Outcome<'c>>,
) -> Option<Expect<'c>> {
    if findings.iter().any(|f| f.class == Class::RoundTrip) {
        return Some(Expect::RoundTrip);
    }
    // http::Uri: every defect uridiff finds in it is input RFC 3986 forbids
    // that it accepts (section 3.1 scheme, 3.2.2 IP-literal, 3.2.3 port),
    // whatever the reference's own reading of the rest.
    if template.is_some_and(Template::asserts_refusal) {
        return Some(Expect::Reject);
    }
    match reference {
        Some(r) if r.verdict == Verdict::Accept => Some(Expect::Accept(&r.components)),
        Some(r) if r.verdict == Verdict::Reject => Some(Expect::Reject),
        _ => {
            let forbidden = findings.iter().any(|f| {
                matches!(
                    f.class,
                    Class::InvalidIpLiteral | Class::InvalidScheme | Class::HostMissing
                )
            });
            forbidden.then_some(Expect::Reject)
        }
    }
}

/// What every test of one reproduction says about itself.
struct About<'a> {
    input: &'a str,
    base: Option<&'a str>,
    id: &'a str,
    spec: &'a str,
    version: &'a str,
    disputed: ComponentSet,
}

impl About<'_> {
    /// `name = "=version"` for a registry library `name version`.
    fn pin(&self) -> Option<(&str, &str)> {
        let mut words = self.version.split_whitespace();
        Some((words.next()?, words.next()?))
    }

    /// A Rust identifier for the test, from the root cause id.
    fn test_name(&self) -> String {
        let mut name: String = self
            .id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .take(60)
            .collect();
        while name.contains("__") {
            name = name.replace("__", "_");
        }
        format!("uridiff_{}", name.trim_matches('_'))
    }

    /// The components the test asserts: the disputed ones, or all for a
    /// verdict alone.
    fn fields(&self) -> ComponentSet {
        if self.disputed.is_empty() {
            ComponentSet::ALL
        } else {
            self.disputed
        }
    }

    fn rust_header(&self, crate_pin: &str, extra: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "// [dev-dependencies]");
        let _ = writeln!(out, "// {crate_pin}");
        let _ = writeln!(out, "//");
        let _ = writeln!(out, "// {}; uridiff root cause {}.", self.spec, self.id);
        if !extra.is_empty() {
            let _ = writeln!(out, "// {extra}");
        }
        let _ = writeln!(out, "#[test]");
        let _ = writeln!(out, "fn {}() {{", self.test_name());
        out
    }
}

fn test_for(parser: OracleId, about: &About<'_>, expect: &Expect<'_>) -> Option<Test> {
    if matches!(parser, OracleId::External(_)) {
        return adapters::adapter_test(parser, about, expect);
    }
    let (name, version) = about.pin()?;
    let pin = format!("{name} = \"={version}\"");
    let code = match parser.descriptor().template? {
        Template::UrlCrate => url_test(about, &pin, expect),
        Template::HttpUri => http_test(about, &pin),
        Template::FluentUri => fluent_uri_test(about, &pin, expect)?,
        Template::IriString => iri_string_test(about, &pin, expect)?,
        Template::Ada => {
            return Some(Test {
                language: "javascript",
                code: ada_test(about, expect),
            });
        }
        Template::Curl => {
            return Some(Test {
                language: "c",
                code: curl_test(about, expect),
            });
        }
        Template::Uriparser => {
            return Some(Test {
                language: "c",
                code: uriparser_test(about, expect),
            });
        }
    };
    Some(Test {
        language: "rust",
        code,
    })
}

/// A Rust `Option<&str>` expression.
fn rs_opt(text: Option<&str>) -> String {
    text.map_or_else(|| "None".to_owned(), |t| format!("Some({})", rs(t)))
}

/// The userinfo as the URL Standard's username and password (the
/// whatwg-url adapter joins them with the first `:`; `:` is in the
/// userinfo percent-encode set, so the username holds none).
fn user_pass(userinfo: Option<&str>) -> (&str, &str) {
    match userinfo {
        None => ("", ""),
        Some(u) => u.split_once(':').unwrap_or((u, "")),
    }
}

fn url_test(about: &About<'_>, pin: &str, expect: &Expect<'_>) -> String {
    let mut out = about.rust_header(pin, "");
    let parse = match about.base {
        Some(base) => format!(
            "    let parsed = url::Url::parse({}).unwrap().join({});\n",
            rs(base),
            rs(about.input)
        ),
        None => format!("    let parsed = url::Url::parse({});\n", rs(about.input)),
    };
    out.push_str(&parse);
    match expect {
        Expect::Reject => {
            out.push_str(
                "    assert!(parsed.is_err(), \"the URL parser returns failure: {parsed:?}\");\n",
            );
        }
        Expect::RoundTrip => {
            out.push_str("    let url = parsed.unwrap();\n");
            out.push_str("    let again = url::Url::parse(url.as_str()).unwrap();\n");
            out.push_str(
                "    assert_eq!(again, url, \"reparsing the serialization gives the same URL\");\n",
            );
        }
        Expect::Serialization(href) => {
            out.push_str("    let url = parsed.unwrap();\n");
            let _ = writeln!(out, "    assert_eq!(url.as_str(), {});", rs(href));
        }
        Expect::Accept(c) => {
            out.push_str("    let url = parsed.unwrap();\n");
            for field in about.fields().iter() {
                let value = c.get(field);
                let line = match field {
                    Component::Scheme => value.map(|s| format!("url.scheme(), {}", rs(s))),
                    Component::Authority => None,
                    Component::Userinfo => {
                        let (user, pass) = user_pass(value);
                        let pass = (!pass.is_empty()).then_some(pass);
                        let _ = writeln!(out, "    assert_eq!(url.username(), {});", rs(user));
                        Some(format!("url.password(), {}", rs_opt(pass)))
                    }
                    Component::Host => Some(format!("url.host_str(), {}", rs_opt(value))),
                    Component::Port => Some(format!(
                        "url.port(), {}",
                        value.map_or_else(|| "None".to_owned(), |p| format!("Some({p})"))
                    )),
                    Component::Path => value.map(|p| format!("url.path(), {}", rs(p))),
                    Component::Query => Some(format!("url.query(), {}", rs_opt(value))),
                    Component::Fragment => Some(format!("url.fragment(), {}", rs_opt(value))),
                };
                if let Some(line) = line {
                    let _ = writeln!(out, "    assert_eq!({line});");
                }
            }
        }
    }
    out.push_str("}\n");
    out
}

fn http_test(about: &About<'_>, pin: &str) -> String {
    let mut out = about.rust_header(
        pin,
        "RFC 3986 sections 3.1, 3.2.2 and 3.2.3 forbid this input; http::Uri accepts it.",
    );
    let _ = writeln!(
        out,
        "    let parsed = {}.parse::<http::Uri>();",
        rs(about.input)
    );
    out.push_str("    assert!(parsed.is_err(), \"not a URI (RFC 3986): {parsed:?}\");\n}\n");
    out
}

/// The RFC 3986 section 5.2 target (strict form, recomposed as section 5.3
/// says) of the reference against the base, when there is a base.
fn rfc3986_target(about: &About<'_>) -> Option<Result<String, ()>> {
    let base = about.base?;
    Some(grammar::rfc3986::resolve(base, about.input).map_err(|_| ()))
}

fn fluent_uri_test(about: &About<'_>, pin: &str, expect: &Expect<'_>) -> Option<String> {
    let mut out = about.rust_header(pin, "");
    match (rfc3986_target(about), expect) {
        // RFC 3986 parsers are judged by the grammar, which has no known bug.
        (None, Expect::Serialization(_)) => return None,
        (Some(Ok(target)), _) => {
            let _ = writeln!(
                out,
                "    let base = fluent_uri::Uri::parse({}).unwrap();",
                rs(about.base?)
            );
            let _ = writeln!(
                out,
                "    let target = fluent_uri::UriRef::parse({}).unwrap().resolve_against(&base).unwrap();",
                rs(about.input)
            );
            let _ = writeln!(out, "    assert_eq!(target.as_str(), {});", rs(&target));
        }
        (Some(Err(())), _) => return None,
        (None, Expect::Reject) => {
            let _ = writeln!(
                out,
                "    assert!(fluent_uri::UriRef::parse({}).is_err());",
                rs(about.input)
            );
        }
        (None, Expect::RoundTrip) => {
            let _ = writeln!(
                out,
                "    let r = fluent_uri::UriRef::parse({}).unwrap();",
                rs(about.input)
            );
            out.push_str("    assert_eq!(fluent_uri::UriRef::parse(r.as_str()).unwrap(), r);\n");
        }
        (None, Expect::Accept(c)) => {
            let _ = writeln!(
                out,
                "    let r = fluent_uri::UriRef::parse({}).unwrap();",
                rs(about.input)
            );
            rfc3986_fields(
                &mut out,
                about,
                c,
                [
                    "r.scheme().map(|s| s.as_str())",
                    "r.authority().map(|a| a.as_str())",
                    "r.authority().and_then(|a| a.userinfo()).map(|u| u.as_str())",
                    "r.authority().map(|a| a.host())",
                    "r.authority().and_then(|a| a.port()).map(|p| p.as_str())",
                    "Some(r.path().as_str())",
                    "r.query().map(|q| q.as_str())",
                    "r.fragment().map(|f| f.as_str())",
                ],
            );
        }
    }
    out.push_str("}\n");
    Some(out)
}

fn iri_string_test(about: &About<'_>, pin: &str, expect: &Expect<'_>) -> Option<String> {
    let mut out = about.rust_header(pin, "");
    match (rfc3986_target(about), expect) {
        // RFC 3986 parsers are judged by the grammar, which has no known bug.
        (None, Expect::Serialization(_)) => return None,
        (Some(Ok(target)), _) => {
            let _ = writeln!(
                out,
                "    let base = iri_string::types::UriAbsoluteStr::new({}).unwrap();",
                rs(about.base?)
            );
            let _ = writeln!(
                out,
                "    let target = iri_string::types::UriReferenceStr::new({}).unwrap().resolve_against(base).to_string();",
                rs(about.input)
            );
            let _ = writeln!(out, "    assert_eq!(target, {});", rs(&target));
        }
        (Some(Err(())), _) | (None, Expect::RoundTrip) => return None,
        (None, Expect::Reject) => {
            let _ = writeln!(
                out,
                "    assert!(iri_string::types::UriReferenceStr::new({}).is_err());",
                rs(about.input)
            );
        }
        (None, Expect::Accept(c)) => {
            let _ = writeln!(
                out,
                "    let r = iri_string::types::UriReferenceStr::new({}).unwrap();",
                rs(about.input)
            );
            rfc3986_fields(
                &mut out,
                about,
                c,
                [
                    "r.scheme_str()",
                    "r.authority_str()",
                    "r.authority_components().and_then(|a| a.userinfo())",
                    "r.authority_components().map(|a| a.host())",
                    "r.authority_components().and_then(|a| a.port())",
                    "Some(r.path_str())",
                    "r.query_str()",
                    "r.fragment_str()",
                ],
            );
        }
    }
    out.push_str("}\n");
    Some(out)
}

/// `assert_eq!` lines for the asserted fields of an RFC 3986 parser, one
/// accessor expression per component in [`Component::ALL`]'s order.
fn rfc3986_fields(out: &mut String, about: &About<'_>, c: &Components<'_>, accessors: [&str; 8]) {
    for (component, accessor) in Component::ALL.into_iter().zip(accessors) {
        if about.fields().contains(component) {
            let _ = writeln!(
                out,
                "    assert_eq!({accessor}, {});",
                rs_opt(c.get(component))
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::wpt::{href, wpt_fields};
    use super::*;

    #[test]
    fn the_href_of_a_hostless_url_with_an_empty_first_segment_has_a_dot() {
        let mut c = Components::new(ComponentSet::ALL);
        c.set(Component::Scheme, Some("web+demo"));
        c.set(Component::Path, Some("//x"));
        assert_eq!(href(&c), "web+demo:/.//x");
        c.set(Component::Host, Some("h"));
        c.set(Component::Userinfo, Some("u:p"));
        c.set(Component::Port, Some("8"));
        c.set(Component::Query, Some(""));
        assert_eq!(href(&c), "web+demo://u:p@h:8//x?");
        let wpt = wpt_fields(&c);
        assert_eq!(wpt.get("search"), Some(&serde_json::Value::from("")));
        assert_eq!(wpt.get("host"), Some(&serde_json::Value::from("h:8")));
        assert_eq!(wpt.get("password"), Some(&serde_json::Value::from("p")));
    }
}
