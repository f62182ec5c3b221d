//! Reproductions for the shipped external adapters, each in its parser's
//! own language and API: Python (`urllib.parse`, urllib3), Java
//! (`java.net.URI`), Node's legacy `url.parse`, Go's `net/url`, PHP's
//! `parse_url`, Ruby's `URI`. Emitted, not run by `--check` (which builds
//! Rust and C).

use super::*;
use crate::oracle::external::shipped::{Language, shipped_language};

/// The language of a shipped adapter's parser (its descriptor says it),
/// its name in a reproduction and its comment marker; `None` for an
/// adapter with no reproduction template.
fn language_of(adapter: &str) -> Option<(Language, &'static str, &'static str)> {
    let language = shipped_language(adapter)?;
    let (name, comment) = match language {
        Language::Python => ("python", "#"),
        Language::Java => ("java", "//"),
        Language::JavaScript => ("javascript", "//"),
        Language::Go => ("go", "//"),
        Language::Php => ("php", "//"),
        Language::Ruby => ("ruby", "#"),
    };
    Some((language, name, comment))
}

/// A string literal of `language` that reads as exactly the text, hidden
/// characters escaped in the language's own syntax (see [`literal`]).
fn literal_in(language: Language, text: &str) -> String {
    match language {
        Language::Python => literal::python(text),
        Language::Java => literal::java(text),
        Language::JavaScript => literal::javascript(text),
        Language::Go => literal::go(text),
        Language::Php => literal::php(text),
        Language::Ruby => literal::ruby(text),
    }
}

/// The component accessors of each adapter's API, in the order
/// `Component::ALL` lists them; `None` where the API has no such accessor.
fn accessor(adapter: &str, c: Component) -> Option<&'static str> {
    use Component::{Authority, Fragment, Host, Path, Port, Query, Scheme, Userinfo};
    Some(match (adapter, c) {
        (_, Authority) => return None,
        ("python-urllib", Scheme) => "u.scheme",
        ("python-urllib", Userinfo) => return None,
        ("python-urllib", Host) => "u.hostname",
        ("python-urllib", Port) => "u.port",
        ("python-urllib", Path) => "u.path",
        ("python-urllib", Query) => "u.query",
        ("python-urllib", Fragment) => "u.fragment",
        ("urllib3", Scheme) => "u.scheme",
        ("urllib3", Userinfo) => "u.auth",
        ("urllib3", Host) => "u.host",
        ("urllib3", Port) => "u.port",
        ("urllib3", Path) => "u.path",
        ("urllib3", Query) => "u.query",
        ("urllib3", Fragment) => "u.fragment",
        ("java-uri", Scheme) => "u.getScheme()",
        ("java-uri", Userinfo) => "u.getRawUserInfo()",
        ("java-uri", Host) => "u.getHost()",
        ("java-uri", Port) => return None,
        ("java-uri", Path) => "u.getRawPath()",
        ("java-uri", Query) => "u.getRawQuery()",
        ("java-uri", Fragment) => "u.getRawFragment()",
        ("node-url", Scheme) => return None,
        ("node-url", Userinfo) => "u.auth",
        ("node-url", Host) => "u.hostname",
        ("node-url", Port) => "u.port",
        ("node-url", Path) => "u.pathname",
        ("node-url", Query) => "u.query",
        ("node-url", Fragment) => return None,
        ("go-net-url", Scheme) => "u.Scheme",
        ("go-net-url", Userinfo) => return None,
        ("go-net-url", Host) => "u.Hostname()",
        ("go-net-url", Port) => "u.Port()",
        ("go-net-url", Path) => "u.EscapedPath()",
        ("go-net-url", Query) => "u.RawQuery",
        ("go-net-url", Fragment) => "u.EscapedFragment()",
        ("php-parse-url", Scheme) => "$u['scheme'] ?? null",
        ("php-parse-url", Userinfo) => return None,
        ("php-parse-url", Host) => "$u['host'] ?? null",
        ("php-parse-url", Port) => return None,
        ("php-parse-url", Path) => "$u['path'] ?? null",
        ("php-parse-url", Query) => "$u['query'] ?? null",
        ("php-parse-url", Fragment) => "$u['fragment'] ?? null",
        ("ruby-uri" | "ruby-uri-rfc2396", Scheme) => "u.scheme",
        ("ruby-uri" | "ruby-uri-rfc2396", Userinfo) => "u.userinfo",
        ("ruby-uri" | "ruby-uri-rfc2396", Host) => "u.host",
        ("ruby-uri" | "ruby-uri-rfc2396", Port) => return None,
        ("ruby-uri" | "ruby-uri-rfc2396", Path) => "u.path",
        ("ruby-uri" | "ruby-uri-rfc2396", Query) => "u.query",
        ("ruby-uri" | "ruby-uri-rfc2396", Fragment) => "u.fragment",
        _ => return None,
    })
}

/// One check of `expr` against the expected `value` (`None`: the
/// language's null), in `adapter`'s language.
fn assert_line(language: Language, expr: &str, value: Option<&str>) -> String {
    let expected = |null: &str| value.map_or_else(|| null.to_owned(), |v| literal_in(language, v));
    match language {
        Language::Python => format!("assert {expr} == {}, {expr}", expected("None")),
        Language::Java => format!(
            "if (!java.util.Objects.equals({expr}, {})) throw new AssertionError({expr});",
            expected("null")
        ),
        Language::JavaScript => format!("assert.strictEqual({expr}, {});", expected("null")),
        Language::Go => format!(
            "if got := {expr}; got != {} {{ log.Fatalf(\"got %q\", got) }}",
            literal_in(language, value.unwrap_or(""))
        ),
        Language::Php => format!(
            "if (({expr}) !== {}) {{ fwrite(STDERR, var_export($u, true)); exit(1); }}",
            expected("null")
        ),
        Language::Ruby => format!("raise {expr}.inspect unless {expr} == {}", expected("nil")),
    }
}

/// The test of a shipped adapter's defect, in its own language; `None`
/// for an adapter this does not know.
pub(super) fn adapter_test(adapter: &str, about: &About<'_>, expect: &Expect<'_>) -> Option<Test> {
    let (language, name, comment) = language_of(adapter)?;
    let lit = |text: &str| literal_in(language, text);
    let mut out = String::new();
    if language == Language::Php {
        out.push_str("<?php\n");
    }
    let _ = writeln!(
        out,
        "{comment} {}; uridiff root cause {} (uridiff's {adapter} adapter).",
        about.spec, about.id
    );
    let input = about.input;
    // The parse (or resolution) as the adapter calls it, bound to `u`.
    let parse = match (adapter, about.base) {
        ("python-urllib", None) => format!("u = urlsplit({})", lit(input)),
        ("python-urllib", Some(b)) => format!("u = urlsplit(urljoin({}, {}))", lit(b), lit(input)),
        ("urllib3", _) => format!("u = parse_url({})", lit(input)),
        ("java-uri", None) => format!("java.net.URI u = new java.net.URI({});", lit(input)),
        ("java-uri", Some(b)) => format!(
            "java.net.URI u = new java.net.URI({}).resolve(new java.net.URI({}));",
            lit(b),
            lit(input)
        ),
        ("node-url", None) => format!("const u = url.parse({});", lit(input)),
        ("node-url", Some(b)) => format!(
            "const u = url.parse(url.resolve({}, {}));",
            lit(b),
            lit(input)
        ),
        ("go-net-url", None) => format!("u, err := url.Parse({})", lit(input)),
        ("go-net-url", Some(b)) => format!(
            "base, err := url.Parse({})\n\tif err != nil {{ log.Fatal(err) }}\n\tref, err := url.Parse({})\n\tif err != nil {{ log.Fatal(err) }}\n\tu := base.ResolveReference(ref)",
            lit(b),
            lit(input)
        ),
        ("php-parse-url", _) => format!("$u = parse_url({});", lit(input)),
        ("ruby-uri", None) => format!("u = URI.parse({})", lit(input)),
        ("ruby-uri", Some(b)) => format!("u = URI.join({}, {})", lit(b), lit(input)),
        (_, None) => format!("u = URI::RFC2396_Parser.new.parse({})", lit(input)),
        (_, Some(b)) => format!(
            "p = URI::RFC2396_Parser.new\nu = p.parse({}).merge(p.parse({}))",
            lit(b),
            lit(input)
        ),
    };
    let checks: Vec<String> = match expect {
        Expect::Accept(c) => about
            .fields()
            .iter()
            .filter_map(|f| accessor(adapter, f).map(|expr| assert_line(language, expr, c.get(f))))
            .collect(),
        _ => Vec::new(),
    };
    let reject = matches!(expect, Expect::Reject);
    if !reject && checks.is_empty() {
        return None;
    }
    let body = match language {
        Language::Python => {
            let import = if adapter == "urllib3" {
                "from urllib3.util import parse_url"
            } else {
                "from urllib.parse import urlsplit, urljoin"
            };
            if reject {
                format!(
                    "{import}\ntry:\n    {parse}\n    u.port  # urlsplit checks the port when it is read\nexcept ValueError:\n    pass\nelse:\n    raise AssertionError(u)\n"
                )
            } else {
                format!("{import}\n{parse}\n{}\n", checks.join("\n"))
            }
        }
        Language::Java => {
            let inner = if reject {
                format!(
                    "try {{ {parse} throw new AssertionError(u); }} catch (java.net.URISyntaxException expected) {{ }}"
                )
            } else {
                format!("{parse}\n        {}", checks.join("\n        "))
            };
            format!(
                "public class Repro {{\n    public static void main(String[] args) throws Exception {{\n        {inner}\n    }}\n}}\n"
            )
        }
        Language::JavaScript => {
            let lines = if reject {
                format!("assert.throws(() => {{ {parse} }});")
            } else {
                format!("{parse}\n{}", checks.join("\n"))
            };
            format!(
                "const assert = require(\"node:assert\");\nconst url = require(\"node:url\");\n{lines}\n"
            )
        }
        Language::Go => {
            let lines = if reject {
                format!("{parse}\n\tif err == nil {{ log.Fatalf(\"accepted: %v\", u) }}")
            } else {
                let err_check = if about.base.is_none() {
                    "\n\tif err != nil { log.Fatal(err) }"
                } else {
                    ""
                };
                format!("{parse}{err_check}\n\t{}", checks.join("\n\t"))
            };
            format!(
                "package main\n\nimport (\n\t\"log\"\n\t\"net/url\"\n)\n\nfunc main() {{\n\t{lines}\n}}\n"
            )
        }
        Language::Php => {
            if reject {
                format!(
                    "{parse}\nif ($u !== false) {{ fwrite(STDERR, var_export($u, true)); exit(1); }}\n"
                )
            } else {
                format!(
                    "{parse}\nif ($u === false) {{ exit(1); }}\n{}\n",
                    checks.join("\n")
                )
            }
        }
        Language::Ruby => {
            if reject {
                format!(
                    "require \"uri\"\nbegin\n  {}\n  raise \"accepted: #{{u}}\"\nrescue URI::InvalidURIError\nend\n",
                    parse.replace('\n', "\n  ")
                )
            } else {
                format!("require \"uri\"\n{parse}\n{}\n", checks.join("\n"))
            }
        }
    };
    out.push_str(&body);
    Some(Test {
        language: name,
        code: out,
    })
}
