//! Reproductions for the shipped external adapters, each in its parser's
//! own language and API, written from the adapter's descriptor row
//! (`Shipped::reproduce`: its language, imports, the parse and resolution
//! calls, the accessors and what a refusal raises): adding an adapter adds
//! no code here, only a language does. Emitted, not run by `--check`
//! (which builds Rust and C).

use super::*;
use crate::oracle::OracleId;
use crate::oracle::external::shipped::{Language, Reproduce};

/// The name of a language in a reproduction, and its comment marker.
fn language_names(language: Language) -> (&'static str, &'static str) {
    match language {
        Language::Python => ("python", "#"),
        Language::Java => ("java", "//"),
        Language::JavaScript => ("javascript", "//"),
        Language::Go => ("go", "//"),
        Language::Php => ("php", "//"),
        Language::Ruby => ("ruby", "#"),
        Language::Perl => ("perl", "#"),
    }
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
        Language::Perl => literal::perl(text),
    }
}

/// `template` with `{input}` and `{base}` replaced, in one pass (a
/// literal holding `{base}` is not replaced again), by the literals given.
fn fill(template: &str, input: &str, base: &str) -> String {
    let mut out = String::with_capacity(template.len() + input.len() + base.len());
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        if let Some(after) = from.strip_prefix("{input}") {
            out.push_str(input);
            rest = after;
        } else if let Some(after) = from.strip_prefix("{base}") {
            out.push_str(base);
            rest = after;
        } else {
            out.push('{');
            rest = from.get(1..).unwrap_or_default();
        }
    }
    out.push_str(rest);
    out
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
        // `eq` would take undef for "" (with a warning): definedness first.
        Language::Perl => match value {
            Some(v) => format!(
                "{{ my $got = {expr}; die \"got \", (defined $got ? \"'$got'\" : \"undef\"), \"\\n\" unless defined $got && $got eq {}; }}",
                literal_in(language, v)
            ),
            None => format!("{{ my $got = {expr}; die \"got '$got'\\n\" if defined $got; }}"),
        },
    }
}

/// The test of a shipped adapter's defect, in its own language (its
/// descriptor's template); `None` for an oracle with no such template (a
/// plugged-in program).
pub(super) fn adapter_test(
    oracle: OracleId,
    about: &About<'_>,
    expect: &Expect<'_>,
) -> Option<Test> {
    let template: &Reproduce = oracle.descriptor().reproduce?;
    let adapter = oracle.as_str();
    let language = template.language;
    let (name, comment) = language_names(language);
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
    let input = lit(about.input);
    // The parse (or resolution) as the adapter calls it, bound to `u`.
    let parse = match (about.base, template.resolve) {
        (Some(base), Some(resolve)) => fill(resolve, &input, &lit(base)),
        _ => fill(template.parse, &input, ""),
    };
    let checks: Vec<String> = match expect {
        Expect::Accept(c) => about
            .fields()
            .iter()
            .filter_map(|f| {
                template
                    .accessors
                    .of(f)
                    .map(|expr| assert_line(language, expr, c.get(f)))
            })
            .collect(),
        _ => Vec::new(),
    };
    let reject = matches!(expect, Expect::Reject);
    if !reject && checks.is_empty() {
        return None;
    }
    out.push_str(&program(
        language,
        template,
        &parse,
        &checks,
        reject,
        about.base.is_some(),
    ));
    Some(Test {
        language: name,
        code: out,
    })
}

/// The program around the parse and the checks, in `language`: a refusal
/// expected (`reject`: the parse must fail, in the language's way of
/// failing) or the checks run on what the parse gave. `with_base`: the
/// parse is a resolution against a base, after which a Go program does
/// not stop on `err` as it does after a parse.
fn program(
    language: Language,
    template: &Reproduce,
    parse: &str,
    checks: &[String],
    reject: bool,
    with_base: bool,
) -> String {
    let prelude = template.prelude;
    let refusal = template.refusal;
    match language {
        Language::Python => {
            if reject {
                let probe = if template.refusal_probe.is_empty() {
                    String::new()
                } else {
                    format!("\n    {}", template.refusal_probe)
                };
                format!(
                    "{prelude}\ntry:\n    {parse}{probe}\nexcept {refusal}:\n    pass\nelse:\n    raise AssertionError(u)\n"
                )
            } else {
                format!("{prelude}\n{parse}\n{}\n", checks.join("\n"))
            }
        }
        Language::Java => {
            let inner = if reject {
                format!(
                    "try {{ {parse} throw new AssertionError(u); }} catch ({refusal} expected) {{ }}"
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
            format!("const assert = require(\"node:assert\");\n{prelude}\n{lines}\n")
        }
        Language::Go => {
            let lines = if reject {
                format!("{parse}\n\tif err == nil {{ log.Fatalf(\"accepted: %v\", u) }}")
            } else {
                let err_check = if !with_base {
                    "\n\tif err != nil { log.Fatal(err) }"
                } else {
                    ""
                };
                format!("{parse}{err_check}\n\t{}", checks.join("\n\t"))
            };
            format!(
                "package main\n\nimport (\n\t\"log\"\n\t{prelude}\n)\n\nfunc main() {{\n\t{lines}\n}}\n"
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
                    "{prelude}\nbegin\n  {}\n  raise \"accepted: #{{u}}\"\nrescue {refusal}\nend\n",
                    parse.replace('\n', "\n  ")
                )
            } else {
                format!("{prelude}\n{parse}\n{}\n", checks.join("\n"))
            }
        }
        // A refusal is the parse dying: `my $u = eval { ... };`.
        Language::Perl => {
            if reject {
                let parse = parse.replacen("my $u = ", "my $u = eval { ", 1);
                let parse = parse.strip_suffix(';').unwrap_or(&parse).to_owned();
                format!("{prelude}\n{parse} }};\ndie \"accepted: $u\\n\" if defined $u;\n")
            } else {
                format!("{prelude}\n{parse}\n{}\n", checks.join("\n"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Java adapters' templates: the call the adapter makes, each
    /// accessor as the adapter reports it (a port -1 is null), and the
    /// adapter's own refusal exception. `UPDATE_REPRO_DIR=DIR` writes each
    /// test there, to be compiled and run against the library by hand.
    #[test]
    fn java_adapters_write_their_own_calls_and_refusals() {
        let mut expected = Components::new(ComponentSet::ALL);
        expected.set(Component::Host, Some("b@c"));
        expected.set(Component::Port, Some("80"));
        let cases = [
            (
                "java-url",
                "new java.net.URL(\"http://a@b@c:80/\")",
                "catch (java.net.MalformedURLException expected)",
            ),
            (
                "spring-uri",
                "UriComponentsBuilder.fromUriString(\"http://a@b@c:80/\").build()",
                "catch (IllegalArgumentException expected)",
            ),
            (
                "jetty-httpuri",
                "new org.eclipse.jetty.http.HttpURI(\"http://a@b@c:80/\")",
                "catch (IllegalArgumentException expected)",
            ),
        ];
        for (adapter, call, refusal) in cases {
            let about = About {
                input: "http://a@b@c:80/",
                base: None,
                id: "test",
                spec: "RFC 3986 section 3.2",
                version: adapter,
                disputed: ComponentSet::of(&[Component::Host, Component::Port]),
            };
            let oracle = crate::oracle::register_external(adapter).unwrap();
            let accept = adapter_test(oracle, &about, &Expect::Accept(&expected)).unwrap();
            assert_eq!(accept.language, "java");
            assert!(accept.code.contains(call), "{}", accept.code);
            assert!(
                accept.code.contains("public class Repro"),
                "{}",
                accept.code
            );
            assert!(
                accept.code.contains(
                    "java.util.Objects.equals((u.getPort() == -1 ? null : String.valueOf(u.getPort())), \"80\")"
                ),
                "{}",
                accept.code
            );
            assert!(accept.code.contains("\"b@c\""), "{}", accept.code);
            let reject = adapter_test(oracle, &about, &Expect::Reject).unwrap();
            assert!(reject.code.contains(refusal), "{}", reject.code);
            if let Some(dir) = std::env::var_os("UPDATE_REPRO_DIR") {
                for (kind, test) in [("accept", &accept), ("reject", &reject)] {
                    let dir = std::path::Path::new(&dir).join(format!("{adapter}-{kind}"));
                    std::fs::create_dir_all(&dir).unwrap();
                    std::fs::write(dir.join("Repro.java"), &test.code).unwrap();
                }
            }
        }
        // java.net.URL resolves: a pair is `new URL(new URL(base), input)`.
        let about = About {
            input: "../x",
            base: Some("http://h/a/b"),
            id: "test",
            spec: "RFC 3986 section 5.2",
            version: "java-url",
            disputed: ComponentSet::of(&[Component::Path]),
        };
        let mut path = Components::new(ComponentSet::ALL);
        path.set(Component::Path, Some("/x"));
        let java_url = crate::oracle::register_external("java-url").unwrap();
        let test = adapter_test(java_url, &about, &Expect::Accept(&path)).unwrap();
        assert!(
            test.code
                .contains("new java.net.URL(new java.net.URL(\"http://h/a/b\"), \"../x\")"),
            "{}",
            test.code
        );
    }

    #[test]
    fn a_template_is_filled_once_and_keeps_other_braces() {
        // An input whose literal holds `{base}` is not replaced again, and
        // Go's braces stay as written.
        assert_eq!(
            fill("u := f({base}, {input}) { x }", "\"{base}\"", "\"b\""),
            "u := f(\"b\", \"{base}\") { x }"
        );
        assert_eq!(fill("{in{input}", "\"i\"", ""), "{in\"i\"");
    }
}
