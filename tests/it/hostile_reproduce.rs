//! Hostile input to `reproduce` and `bypass` (issue 29), through the built
//! binary: each case asserts the exit status, what is printed and what is
//! left on disk.
//!
//! `reproduce` writes tests in nine languages; what a test's string
//! literal evaluates to is asked of that language's own compiler or
//! interpreter (node, python3, go, javac/java, php, ruby, perl, rustc, cc), so
//! these tests need them: a missing one fails with its install command,
//! never a silent skip (`scripts/setup-oracles.sh` installs the adapters'
//! libraries).

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use uridiff::input::MAX_INPUT_BYTES;
use uridiff::reproduce::literal;
use uridiff::text::is_hidden;

use crate::util::{BIN, names, uridiff};

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

// A. A NUL in the input: the C test carries every byte.

/// `\0http:\u{79b}.0t` is a live Ada defect (the bidi rule, ledger row
/// ada-bidi-rule-other-labels). A C test that passed `strlen(input)`
/// handed Ada the empty string, which it rightly refuses: `--check` said
/// the defect was fixed. The input is an array, its length `sizeof - 1`.
#[cfg(feature = "ada")]
#[test]
fn a_nul_in_the_input_is_tested_whole_and_the_live_defect_still_fails() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    fs::write(&file, b"\0http:\xde\x9b.0t").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new(crate::util::BIN)
        .args(["reproduce", "--check", "--json", "--file"])
        .arg(&file)
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines = json_lines(&o);
    let r = lines
        .iter()
        .find(|r| r["root_cause"] == "ada-bidi-rule-other-labels")
        .unwrap_or_else(|| panic!("no Ada bidi root cause: {lines:?}"));
    let c = r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["language"] == "c")
        .unwrap();
    let code = c["code"].as_str().unwrap();
    assert_eq!(c["still_fails"], true, "{code}");
    assert!(
        code.contains("static const char input[] = \"\\000http:\\336\\233.0t\";"),
        "{code}"
    );
    assert!(
        code.contains("ada_parse(input, sizeof input - 1)"),
        "{code}"
    );
    assert!(!code.contains("strlen"), "{code}");
    let js = r["tests"][0]["code"].as_str().unwrap();
    assert!(js.contains("new URL(\"\\u0000http:\u{79b}.0t\")"), "{js}");
    // The check's temporary projects are gone; the input file is as it was.
    let left: Vec<String> = names(tmp.path())
        .into_iter()
        .filter(|n| n.starts_with("uridiff-reproduce"))
        .collect();
    assert_eq!(left, Vec::<String>::new());
    assert_eq!(names(dir.path()), ["f"]);
    assert_eq!(fs::read(&file).unwrap(), b"\0http:\xde\x9b.0t");
}

/// Lower-case hex of the UTF-8 bytes of `text`.
fn hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

/// The runtime `program` answers `version_arg`, or the test fails with
/// how to install it.
fn require(program: &str, version_arg: &str, install: &str) {
    let found = Command::new(program)
        .arg(version_arg)
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "{program} not found: install it ({install}) to test the reproductions in its language"
    );
}

/// Runs `program ARGS` in `dir` and returns its standard output; fails
/// the test, with what it printed, unless it exits 0.
fn run_ok(dir: &Path, program: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let o = Command::new(program)
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        o.status.success(),
        "{program} {args:?}: {}\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    stdout(&o)
}

/// Hidden characters of every kind the review named (U+202E reverses a
/// line, U+2028 ends one in some readers, U+200B and U+FEFF are invisible,
/// U+009B is a C1 terminal control), for inputs.
const HIDDEN: &str = "\u{202e}\u{2028}\u{200b}\u{feff}\u{9b}";

/// Texts every literal builder must carry exactly: syntax and escape
/// characters of each language, interpolation, escape look-alikes, every
/// kind of hidden character, characters beyond the Basic Multilingual
/// Plane; then pseudo-random strings of those and of other characters.
fn hostile_texts() -> Vec<String> {
    let mut texts: Vec<String> = [
        "",
        "\0",
        "\0http:\u{79b}.0t",
        "a\0b\0",
        HIDDEN,
        "\"'\\`$x {$x} #{x} #@x #$x %s %% ${x}",
        "\\u0041 \\u{41} \\x41 \\101 \\U00000041 \\N{LATIN SMALL LETTER A}",
        "\\\u{e9} \\\\u00e9 \\",
        "\u{7}\u{8}\t\n\u{b}\u{c}\r\u{1b}[2J\u{7f}\u{85}",
        "\u{ad}\u{34f}\u{61c}\u{115f}\u{180e}\u{200e}\u{2029}\u{2066}\u{2069}\u{3164}\u{fe0f}\u{ffa0}\u{fffb}",
        "😀\u{e0001}\u{e0068}\u{e007f}\u{10ffff}",
        "é日本\u{ffff}\u{fffe}\u{fdd0}",
        "?\"?\"?=??/??'",
        "0\u{0}1\u{1}7\u{7f}8",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let alphabet: Vec<char> = texts
        .iter()
        .flat_map(|t| t.chars())
        .chain(['u', '{', '}', 'x', '0', '7', 'f'])
        .collect();
    // xorshift64: the same strings on every run, so a failure reproduces.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..200 {
        let len = next() % 12;
        let text: String = (0..len)
            .map(|_| {
                let r = next();
                if r % 4 == 0 {
                    // Any scalar value (char::from_u32 refuses surrogates).
                    char::from_u32((r >> 8) as u32 % 0x11_0000).unwrap_or('\u{fffd}')
                } else {
                    alphabet[(r >> 8) as usize % alphabet.len()]
                }
            })
            .collect();
        texts.push(text);
    }
    texts
}

/// One language's program that prints the hex of each literal's UTF-8
/// bytes, one line each: its file name, source, and how it is run.
struct Program {
    file: &'static str,
    source: String,
    run: Vec<&'static str>,
}

fn program(language: &str, texts: &[String]) -> Program {
    let lits =
        |build: fn(&str) -> String| -> Vec<String> { texts.iter().map(|t| build(t)).collect() };
    match language {
        "python" => Program {
            file: "lits.py",
            source: format!(
                "import sys\nfor s in [{}]:\n    sys.stdout.write(s.encode(\"utf-8\").hex() + \"\\n\")\n",
                lits(literal::python).join(",\n")
            ),
            run: vec!["python3", "lits.py"],
        },
        "javascript" => Program {
            file: "lits.js",
            // A lone surrogate would be written as U+FFFD: a mismatch.
            source: format!(
                "for (const s of [{}]) process.stdout.write(Buffer.from(s, \"utf8\").toString(\"hex\") + \"\\n\");\n",
                lits(literal::javascript).join(",\n")
            ),
            run: vec!["node", "lits.js"],
        },
        "go" => Program {
            file: "lits.go",
            source: format!(
                "package main\n\nimport (\n\t\"encoding/hex\"\n\t\"fmt\"\n)\n\nfunc main() {{\n\tfor _, s := range []string{{{}}} {{\n\t\tfmt.Println(hex.EncodeToString([]byte(s)))\n\t}}\n}}\n",
                lits(literal::go).join(",\n")
            ),
            run: vec!["go", "run", "lits.go"],
        },
        "java" => Program {
            file: "Lits.java",
            // getBytes writes `?` for a lone surrogate: a mismatch.
            source: format!(
                "public class Lits {{\n    public static void main(String[] args) {{\n        String[] all = {{{}}};\n        for (String s : all) {{\n            StringBuilder b = new StringBuilder();\n            for (byte x : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) b.append(String.format(\"%02x\", x));\n            System.out.println(b);\n        }}\n    }}\n}}\n",
                lits(literal::java).join(",\n")
            ),
            run: vec!["java", "Lits.java"],
        },
        "php" => Program {
            file: "lits.php",
            source: format!(
                "<?php\nforeach ([{}] as $s) {{ echo bin2hex($s), \"\\n\"; }}\n",
                lits(literal::php).join(",\n")
            ),
            run: vec!["php", "lits.php"],
        },
        "ruby" => Program {
            file: "lits.rb",
            source: format!(
                "[{}].each do |s|\n  raise \"not UTF-8: #{{s.inspect}}\" unless s.encoding == Encoding::UTF_8 && s.valid_encoding?\n  puts s.b.unpack1(\"H*\")\nend\n",
                lits(literal::ruby).join(",\n")
            ),
            run: vec!["ruby", "lits.rb"],
        },
        // `use utf8`: the literals hold non-ASCII characters raw, which
        // Perl otherwise reads as their UTF-8 bytes.
        "perl" => Program {
            file: "lits.pl",
            source: format!(
                "use strict;\nuse warnings;\nuse utf8;\nfor my $s ({}) {{\n    my $b = $s;\n    utf8::encode($b);\n    print unpack(\"H*\", $b), \"\\n\";\n}}\n",
                lits(literal::perl).join(",\n")
            ),
            run: vec!["perl", "lits.pl"],
        },
        "rust" => Program {
            file: "lits.rs",
            source: format!(
                "fn main() {{\n    for s in [{}] {{\n        let h: String = s.bytes().map(|b| format!(\"{{b:02x}}\")).collect();\n        println!(\"{{h}}\");\n    }}\n}}\n",
                lits(literal::rust).join(",\n")
            ),
            run: vec!["sh", "-c", "rustc --edition 2021 -o lits lits.rs && ./lits"],
        },
        _ => Program {
            file: "lits.c",
            // Each literal's bytes are its array's, NULs included:
            // `sizeof - 1`, as the reproductions take them.
            source: format!(
                "#include <stdio.h>\n\n#define HEX(lit) hex((lit), sizeof (lit) - 1)\n\nstatic void hex(const char *s, size_t n)\n{{\n  for(size_t i = 0; i < n; i++)\n    printf(\"%02x\", (unsigned char)s[i]);\n  putchar('\\n');\n}}\n\nint main(void)\n{{\n{}  return 0;\n}}\n",
                lits(literal::c)
                    .iter()
                    .map(|l| format!("  HEX({l});\n"))
                    .collect::<String>()
            ),
            run: vec!["sh", "-c", "cc -o lits lits.c && ./lits"],
        },
    }
}

/// The languages of the reproductions, each with the runtime that is
/// asked and its install hint.
const LANGUAGES: &[(&str, &str, &str, &str)] = &[
    ("python", "python3", "--version", "apt-get install python3"),
    ("javascript", "node", "--version", "apt-get install nodejs"),
    ("go", "go", "version", "apt-get install golang-go"),
    (
        "java",
        "java",
        "-version",
        "apt-get install openjdk-17-jdk-headless",
    ),
    ("php", "php", "--version", "apt-get install php-cli"),
    ("ruby", "ruby", "--version", "apt-get install ruby"),
    (
        "perl",
        "perl",
        "--version",
        "apt-get install perl liburi-perl",
    ),
    ("rust", "rustc", "--version", "https://rustup.rs"),
    ("c", "cc", "--version", "apt-get install gcc"),
];

/// Each language's literal builder, asked of the language itself: every
/// hostile text evaluates to exactly its bytes, and no literal holds a
/// hidden character raw (Java's and C's are all ASCII). Java runs in the C
/// locale, where javac reads a source as ASCII: a raw `é` would not build.
#[test]
fn each_languages_literal_evaluates_to_exactly_the_text() {
    let texts = hostile_texts();
    let want: Vec<String> = texts.iter().map(|t| hex(t)).collect();
    for &(language, runtime, version, install) in LANGUAGES {
        require(runtime, version, install);
        let dir = tempfile::tempdir().unwrap();
        let p = program(language, &texts);
        for c in p.source.chars() {
            assert!(
                matches!(c, '\n' | '\t') || !is_hidden(c),
                "{language}: {c:?} raw in its program"
            );
        }
        if matches!(language, "java" | "c") {
            assert!(p.source.is_ascii(), "{language}: not ASCII");
        }
        fs::write(dir.path().join(p.file), &p.source).unwrap();
        let env: &[(&str, &str)] = if language == "java" {
            &[("LC_ALL", "C"), ("LANG", "C")]
        } else {
            &[]
        };
        let got = run_ok(dir.path(), p.run[0], &p.run[1..], env);
        let got: Vec<&str> = got.lines().collect();
        assert_eq!(got.len(), want.len(), "{language}: {got:?}");
        for ((text, want), got) in texts.iter().zip(&want).zip(got) {
            assert_eq!(got, want, "{language}: {text:?} is read as another text");
        }
    }
}

/// `uridiff reproduce ARGS`, which must exit 0 (reproductions printed)
/// with the WHATWG reference there (the expected values of url's and
/// Ada's tests are its).
fn reproduce(args: &[&str]) -> Output {
    let o = uridiff(&[&["reproduce"], args].concat());
    assert!(
        !stderr(&o).contains("reference whatwg-url missing"),
        "{}: run scripts/setup-oracles.sh",
        stderr(&o)
    );
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    o
}

/// The tests `reproduce` writes in `adapter`'s language and API for a
/// bracketed host that is no IP literal in its answer to `input`, as
/// (parser, language, code). The shipped adapters whose parsers claim no
/// standard (Go's net/url, PHP's parse_url, CPython's urlsplit, urllib3,
/// Node's legacy url.parse, url-parse) never show that defect: what they tolerate is
/// the spec class `lenient-splitter`, so no input gets `uridiff reproduce`
/// to write their tests. Their templates are exercised here on the defect
/// a parser that claimed RFC 3986 would show, added to the in-process case.
fn adapter_tests(adapter: &str, input: &str) -> Vec<(String, String, String)> {
    let id = uridiff::oracle::register_external(adapter).unwrap();
    assert_eq!(id.standard(), None, "{adapter} claims a standard");
    let mut case = uridiff::check(input);
    case.findings.push(uridiff::Finding {
        class: uridiff::Class::InvalidIpLiteral,
        basis: uridiff::Basis::Defect,
        severity: uridiff::Severity::High,
        oracle: id,
        peer: None,
        verdict: false,
        fields: uridiff::ComponentSet::of(&[uridiff::Component::Host]),
        detail: None,
        decided_by: uridiff::triage::Decision::NotCompared,
        known: None,
    });
    uridiff::reproduce::reproduce(&case)
        .into_iter()
        .filter(|r| r.parser == id)
        .flat_map(|r| {
            r.tests
                .into_iter()
                .map(|t| (adapter.to_owned(), t.language.to_owned(), t.code))
        })
        .collect()
}

/// The tests of every reproduction in `--json` output, as (parser,
/// language, code).
fn tests_of(o: &Output) -> Vec<(String, String, String)> {
    json_lines(o)
        .iter()
        .flat_map(|r| {
            r["tests"].as_array().unwrap().iter().map(move |t| {
                (
                    r["parser"].as_str().unwrap().to_owned(),
                    t["language"].as_str().unwrap().to_owned(),
                    t["code"].as_str().unwrap().to_owned(),
                )
            })
        })
        .collect()
}

/// A reproduction's test with the call that takes the input replaced by
/// one that prints the hex of the UTF-8 bytes it was given and exits 0:
/// its literal, evaluated by the language. `None` for a language this
/// does not instrument.
fn instrumented(language: &str, code: &str) -> Option<(&'static str, String, Vec<&'static str>)> {
    let replace_once = |code: &str, from: &str, to: &str| {
        assert_eq!(code.matches(from).count(), 1, "{from} in {code}");
        code.replacen(from, to, 1)
    };
    Some(match language {
        "go" => {
            let code = replace_once(code, "url.Parse(", "dump(");
            let code = replace_once(
                &code,
                "import (\n",
                "import (\n\t\"encoding/hex\"\n\t\"fmt\"\n\t\"os\"\n",
            );
            (
                "main.go",
                format!(
                    "{code}\nfunc dump(s string) (*url.URL, error) {{\n\tfmt.Println(hex.EncodeToString([]byte(s)))\n\tos.Exit(0)\n\treturn nil, nil\n}}\n"
                ),
                vec!["go", "run", "main.go"],
            )
        }
        "javascript" => {
            let dump = "(s) => { process.stdout.write(Buffer.from(s, \"utf8\").toString(\"hex\") + \"\\n\"); process.exit(0); }";
            // The npm libraries' adapters (fast-uri, uri-js: `parse` of the
            // input; url-parse: `new Url(input, ...)`), their `require`
            // replaced by a stand-in that dumps the input.
            let npm = [
                ("require(\"fast-uri\")", "{ parse: DUMP }"),
                ("require(\"uri-js\")", "{ parse: DUMP }"),
                ("require(\"url-parse\")", "function (s) { (DUMP)(s); }"),
            ];
            let code = if let Some((call, stub)) = npm.iter().find(|(c, _)| code.contains(c)) {
                replace_once(code, call, &format!("({})", stub.replace("DUMP", dump)))
            } else if code.contains("require(\"node:url\")") {
                replace_once(
                    code,
                    "const url = require(\"node:url\");\n",
                    &format!("const url = require(\"node:url\");\nurl.parse = {dump};\n"),
                )
            } else {
                format!("globalThis.URL = function (s) {{ ({dump})(s); }};\n{code}")
            };
            ("repro.js", code, vec!["node", "repro.js"])
        }
        "python" => {
            // The call that takes the input: urllib3's parse_url, httpx's
            // httpx.URL, yarl's URL (in that order: "httpx.URL(" holds "URL(").
            let call = ["parse_url(", "httpx.URL(", "URL("]
                .into_iter()
                .find(|c| code.contains(c))
                .unwrap_or("parse_url(");
            let code = replace_once(code, call, "dump(");
            (
                "repro.py",
                format!(
                    "import sys\ndef dump(s):\n    sys.stdout.write(s.encode(\"utf-8\").hex() + \"\\n\")\n    sys.exit(0)\n{code}"
                ),
                vec!["python3", "repro.py"],
            )
        }
        "php" => {
            let code = replace_once(code, "parse_url(", "dump(");
            (
                "repro.php",
                replace_once(
                    &code,
                    "<?php\n",
                    "<?php\nfunction dump($s) { echo bin2hex($s), \"\\n\"; exit(0); }\n",
                ),
                vec!["php", "repro.php"],
            )
        }
        "java" => {
            let code = replace_once(code, "new java.net.URI(", "Repro.dump(");
            (
                "Repro.java",
                replace_once(
                    &code,
                    "public class Repro {\n",
                    "public class Repro {\n    static java.net.URI dump(String s) throws java.net.URISyntaxException {\n        StringBuilder b = new StringBuilder();\n        for (byte x : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) b.append(String.format(\"%02x\", x));\n        System.out.println(b);\n        System.exit(0);\n        return null;\n    }\n",
                ),
                vec!["java", "Repro.java"],
            )
        }
        "ruby" => {
            let code = replace_once(code, "Addressable::URI.parse(", "dump(");
            (
                "repro.rb",
                format!(
                    "def dump(s)\n  raise \"not UTF-8\" unless s.encoding == Encoding::UTF_8 && s.valid_encoding?\n  puts s.b.unpack1(\"H*\")\n  exit 0\nend\n{}",
                    code
                ),
                vec!["ruby", "repro.rb"],
            )
        }
        "perl" => {
            let code = replace_once(code, "URI->new(", "show(");
            (
                "repro.pl",
                replace_once(
                    &code,
                    "use URI;\n",
                    "sub show { my $b = shift; utf8::encode($b); print unpack(\"H*\", $b), \"\\n\"; exit 0 }\n",
                ),
                vec!["perl", "repro.pl"],
            )
        }
        "c" => {
            // The input's array, as the test declares it, in a program that
            // prints its bytes.
            let decl = code
                .lines()
                .find(|l| l.trim_start().starts_with("static const char input[] = "))
                .unwrap_or_else(|| panic!("no input array in {code}"));
            (
                "repro.c",
                format!(
                    "#include <stdio.h>\nint main(void)\n{{\n{decl}\n  for(size_t i = 0; i < sizeof input - 1; i++)\n    printf(\"%02x\", (unsigned char)input[i]);\n  putchar('\\n');\n  return 0;\n}}\n"
                ),
                vec!["sh", "-c", "cc -o repro repro.c && ./repro"],
            )
        }
        _ => return None,
    })
}

/// The Rust test's literal of the input (`let parsed = LIT.parse...` or
/// `url::Url::parse(LIT)`), read back by syn's lexer.
fn rust_input(code: &str) -> String {
    let line = code
        .lines()
        .find(|l| l.contains("let parsed = "))
        .unwrap_or_else(|| panic!("no parse in {code}"));
    let start = line.find('"').unwrap();
    let end = line.rfind('"').unwrap();
    let lit: syn::LitStr = syn::parse_str(&line[start..=end]).unwrap();
    lit.value()
}

/// Asserts `shown` (a terminal's text) holds no hidden character but the
/// line breaks and the tabs that indent Go.
fn assert_nothing_hidden(what: &str, shown: &str) {
    for c in shown.chars() {
        assert!(
            matches!(c, '\n' | '\t') || !is_hidden(c),
            "{what}: {c:?} raw in {shown}"
        );
    }
}

// B and C. Hidden characters: escaped in every language, and the same text.

/// One reproduction's test of `input`: no hidden character raw, and its
/// literal, run by its language, the exact input.
fn assert_test_carries_the_input(input: &str, (parser, language, code): &(String, String, String)) {
    let what = format!("{parser}'s {language} test of {input:?}");
    assert_nothing_hidden(&what, code);
    if language == "rust" {
        assert_eq!(&rust_input(code), input, "{what}: {code}");
        return;
    }
    let Some((file, source, run)) = instrumented(language, code) else {
        panic!("{what}: not instrumented:\n{code}");
    };
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join(file), source).unwrap();
    // A Python test imports its parser's library (urllib3, yarl, httpx):
    // the pinned one, from the cache root scripts/setup-oracles.sh fills.
    let python_lib = uridiff::oracle::external::cache_root()
        .ok()
        .and_then(|root| root.join("python").to_str().map(str::to_owned));
    let env: Vec<(&str, &str)> = match (language.as_str(), python_lib.as_deref()) {
        ("python", Some(lib)) => vec![("PYTHONPATH", lib)],
        _ => Vec::new(),
    };
    let got = run_ok(dir.path(), run[0], &run[1..], &env);
    assert_eq!(got.trim_end(), hex(input), "{what}:\n{code}");
}

/// For inputs holding U+202E, U+2028, U+200B, U+FEFF and U+009B, each
/// reproduction's test (Rust, C, JavaScript, Python, Go, Java, PHP, Ruby,
/// Perl) and the web-platform-tests line show none of them raw, on a
/// terminal or in JSON, and each test's literal, run by its language, is
/// the exact input. Ruby's URI refuses every non-ASCII input, so no test
/// of it holds one; Addressable accepts them (Ruby's tests here are
/// Addressable's). The adapters that claim no standard (Perl's URI among
/// them) show no defect to reproduce ([`adapter_tests`]): their tests are
/// written for one made for the purpose.
#[test]
fn tests_and_the_wpt_line_escape_hidden_characters_and_carry_the_exact_input() {
    for &(_, runtime, version, install) in LANGUAGES {
        require(runtime, version, install);
    }
    let bracket = format!("http://[::1:]/#{HIDDEN}");
    let mut inputs = vec![
        // curl, http::Uri.
        bracket.clone(),
        // java.net.URI, its expected components holding them too: `[` and
        // `]` in an opaque part, which RFC 2396's reference refuses (the
        // characters alone are its documented "other" characters,
        // `java-other-characters`, and an RFC 2732 literal its documented
        // reading: neither a defect).
        "x:[a]/\u{202e}?\u{feff}#\u{200b}".to_owned(),
    ];
    // Ada's bidi rule: a web-platform-tests entry.
    if cfg!(feature = "ada") {
        inputs.push(format!("http:\u{79b}.0t/{HIDDEN}"));
    }
    let mut languages = std::collections::BTreeSet::new();
    let mut wpt_lines = 0;
    for input in &inputs {
        let args = ["--oracle", "all", "--", input.as_str()];
        let text = reproduce(&args);
        assert_nothing_hidden(input, &stdout(&text));
        for line in stdout(&text).lines() {
            if line.trim_start().starts_with("{\"base\"") {
                wpt_lines += 1;
                let shown: Value = serde_json::from_str(line.trim()).unwrap();
                assert_eq!(shown["input"], input.as_str(), "{line}");
                assert!(
                    line.contains("\\u202e\\u2028\\u200b\\ufeff\\u009b"),
                    "{line}"
                );
            }
        }
        let json = reproduce(&[&["--json"], &args[..]].concat());
        let tests = tests_of(&json);
        assert!(!tests.is_empty(), "{input:?}: no test");
        for test in &tests {
            assert_test_carries_the_input(input, test);
            languages.insert(test.1.clone());
        }
    }
    for adapter in [
        "node-url",
        "go-net-url",
        "php-parse-url",
        "urllib3",
        "yarl",
        "httpx",
        "url-parse",
        "perl-uri",
    ] {
        let tests = adapter_tests(adapter, &bracket);
        assert_eq!(tests.len(), 1, "{adapter}: {tests:?}");
        for test in &tests {
            assert_test_carries_the_input(&bracket, test);
            languages.insert(test.1.clone());
        }
    }
    assert_eq!(wpt_lines, usize::from(cfg!(feature = "ada")));
    // C: curl's and Ada's tests, when this build has them.
    let c = cfg!(any(feature = "curl", feature = "ada"));
    let want: Vec<&str> = [
        "c",
        "go",
        "java",
        "javascript",
        "perl",
        "php",
        "python",
        "ruby",
        "rust",
    ]
    .into_iter()
    .filter(|&l| c || l != "c")
    .collect();
    let languages: Vec<&str> = languages.iter().map(String::as_str).collect();
    assert_eq!(languages, want);
}

/// Go refuses a U+FEFF byte order mark anywhere but at the start of a
/// file ("invalid BOM in the middle of the file"): a Go test of an input
/// holding one builds, and fails while what it asserts does not hold
/// (url.Parse accepts the invalid IP literal; Go claims no standard, so
/// the test is written for a defect made for the purpose: [`adapter_tests`]).
#[test]
fn a_go_test_of_an_input_holding_a_bom_builds_and_fails_while_the_defect_holds() {
    require("go", "version", "apt-get install golang-go");
    let input = "http://[::1:]/#\u{feff}";
    let tests = adapter_tests("go-net-url", input);
    let (_, _, code) = tests
        .iter()
        .find(|(parser, language, _)| parser == "go-net-url" && language == "go")
        .unwrap_or_else(|| panic!("no Go test: {tests:?}"));
    assert!(
        code.contains("url.Parse(\"http://[::1:]/#\\ufeff\")"),
        "{code}"
    );
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.go"), code).unwrap();
    run_ok(dir.path(), "go", &["build", "-o", "repro", "main.go"], &[]);
    let ran = Command::new(dir.path().join("repro")).output().unwrap();
    assert_eq!(ran.status.code(), Some(1), "{}", stderr(&ran));
    assert!(stderr(&ran).contains("accepted: "), "{}", stderr(&ran));
    assert_eq!(names(dir.path()), ["main.go", "repro"]);
}

// D and E. bypass: hosts and templates that would fill past the input
// limit, and --lines files read line by line.

/// `uridiff bypass ARGS` in `dir` (no saved corpus there: the built-in
/// seeds only), one validator and one fetcher.
fn bypass(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args([
            "bypass",
            "--model",
            "--validator",
            "split-host",
            "--fetcher",
            "url",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The `N inputs checked` of bypass's text output.
fn checked(o: &Output) -> usize {
    let out = stdout(o);
    let line = out
        .lines()
        .find(|l| l.contains(" inputs checked;"))
        .unwrap_or_else(|| panic!("{out}"));
    line.split_whitespace().next().unwrap().parse().unwrap()
}

/// 100 KB of `--allow` in 9,000 `{allow}` slots was a 900 MB input that
/// Ada aborted on (std::bad_alloc). A host over 1 KiB is refused; a
/// template whose filled input would be over the input limit is skipped
/// with its name and the limit, and when that leaves none of the inputs
/// given, nothing is checked: exit 2.
#[test]
fn bypass_bounds_hosts_and_the_inputs_templates_fill_to() {
    let dir = tempfile::tempdir().unwrap();
    let huge = "a".repeat(100 * 1024);
    let slots = "{allow}".repeat(9000);
    for flag in ["--allow", "--target"] {
        let o = bypass(dir.path(), &[flag, &huge, &slots]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_eq!(
            stderr(&o),
            format!(
                "uridiff: {flag}: 102400 bytes, over the 1024-byte limit of a host (a DNS name is at most 253)\n"
            )
        );
        assert_eq!(stdout(&o), "");
    }
    // The longest host allowed, in 1,100 slots: 1,126,400 bytes.
    let host = "a".repeat(1024);
    let slots = "{allow}".repeat(1100);
    let o = bypass(dir.path(), &["--allow", &host, &slots]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!(
            "uridiff: INPUT 1 (\"{}…\"): with its slots filled the input would be 1126400 bytes, over the {MAX_INPUT_BYTES}-byte input limit; not checked\n\
             uridiff: nothing was checked: the input given cannot be (said above); an input must be UTF-8 text within the {MAX_INPUT_BYTES}-byte input limit once its slots are filled\n",
            &slots[..40]
        )
    );
    assert_eq!(stdout(&o), "");
    // Beside an input that fits, the one that does not is skipped and the
    // other checked: one input more than the seeds alone.
    let seeds_only = bypass(dir.path(), &["--allow", &host]);
    assert_eq!(seeds_only.status.code(), Some(1), "{}", stderr(&seeds_only));
    let o = bypass(
        dir.path(),
        &["--allow", &host, &slots, "http://{allow}x{target}/"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("uridiff: INPUT 1 (") && stderr(&o).ends_with("; not checked\n"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert_eq!(checked(&o), checked(&seeds_only) + 1);
    assert_eq!(names(dir.path()), Vec::<String>::new());
}

/// `bypass --lines` refused a file over 1 MiB as a whole; it reads like
/// `report --lines`: a line over the limit (or not UTF-8, or one that
/// fills past it) is named with its number and skipped, the rest used.
#[test]
fn bypass_lines_skips_a_line_over_the_limit_and_uses_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("templates.txt");
    let mut text = Vec::new();
    text.extend(b"x".repeat(MAX_INPUT_BYTES + 1));
    text.extend(b"\nhttp://\xff{allow}/\n\n");
    text.extend("{allow}".repeat(1100).as_bytes());
    text.extend(b"\nhttp://{allow}x{target}/\r\n");
    fs::write(&lines, &text).unwrap();
    let host = "a".repeat(1024);
    let path = lines.to_str().unwrap();
    let o = bypass(dir.path(), &["--allow", &host, "--lines", path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        format!(
            "uridiff: --lines {path}:1: {} bytes, over the {MAX_INPUT_BYTES}-byte input limit; not checked\n\
             uridiff: --lines {path}:2: not valid UTF-8 (invalid utf-8 sequence of 1 bytes from index 7); not checked\n\
             uridiff: --lines {path}:4: with its slots filled the input would be 1126400 bytes, over the {MAX_INPUT_BYTES}-byte input limit; not checked\n",
            MAX_INPUT_BYTES + 1
        )
    );
    let seeds_only = bypass(dir.path(), &["--allow", &host]);
    assert_eq!(checked(&o), checked(&seeds_only) + 1, "{}", stdout(&o));
    // Nothing written beside the file, which is as it was.
    assert_eq!(names(dir.path()), ["templates.txt"]);
    assert_eq!(fs::read(&lines).unwrap(), text);
}
