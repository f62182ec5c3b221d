//! Hostile and faulty input, through the built binary: each case asserts the
//! exit status, what is printed and what is left on disk. Exit statuses are
//! the public contract (GUIDE.md, "Commands"): 0 nothing unexplained, 1
//! unexplained disagreements or new defects, 2 usage or I/O error,
//! including "nothing was checked".
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use uridiff::input::MAX_INPUT_BYTES;
use uridiff::text::{Reader, is_hidden, reproduce, visible};

use crate::util::{BIN, names, uridiff, uridiff_in, uridiff_stdin as with_stdin};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn mkfifo(path: &Path) {
    assert!(
        Command::new("mkfifo").arg(path).status().unwrap().success(),
        "mkfifo {}",
        path.display()
    );
}

#[cfg(unix)]
fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::symlink_metadata(path).unwrap().file_type().is_fifo()
}

/// The element that holds an HTML report's data, parsed; panics when the
/// element does not end where the page's own markup says it does.
fn html_data(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"data\">";
    let start = page.find(open).unwrap() + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    let after = &page[end..];
    assert!(
        after.starts_with("</script>\n<h2>Summary</h2>"),
        "the data element ends early: {}",
        &after[..after.len().min(200)]
    );
    serde_json::from_str(&page[start..end]).unwrap()
}

// 1. The HTML report's data element.

#[test]
fn html_data_cannot_end_or_comment_out_its_element() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in.txt");
    let hostile = [
        "http://a_b.com/<!--<script>",
        "http://a_b.com/<!--",
        "http://a_b.com/<script>",
        "http://a_b.com/</script><b>x",
        "http://a_b.com/]]>&amp;`x`\u{2028}\u{2029}\u{202e}",
    ];
    fs::write(&inputs, hostile.join("\n")).unwrap();
    let page = dir.path().join("r.html");
    let o = uridiff(&[
        OsStr::new("report"),
        OsStr::new("--model"),
        OsStr::new("--lines"),
        OsStr::new("--format"),
        OsStr::new("html"),
        OsStr::new("--out"),
        page.as_os_str(),
        inputs.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = fs::read_to_string(&page).unwrap();
    let data = html_data(&html);
    // Inside the element: no character the HTML tokenizer or a pre-ES2019
    // JavaScript parser reacts to; the data stays exact.
    let open = html.find("id=\"data\">").unwrap();
    let element = &html[open + 10..open + 10 + html[open + 10..].find("</script>").unwrap()];
    for c in ['<', '>', '&', '\u{2028}', '\u{2029}', '\u{202e}'] {
        assert!(!element.contains(c), "{c:?} raw in the data");
    }
    let shown: Vec<&str> = data["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["examples"].as_array().unwrap())
        .map(|e| e["input"].as_str().unwrap())
        .collect();
    for input in hostile {
        assert!(shown.contains(&input), "{input:?} not in the data exactly");
    }
    assert_eq!(html.matches("</script>").count(), 2, "data and script only");
    assert!(html.trim_end().ends_with("</html>"));
}

// 2 and 4. Output paths, checked before any work.

/// Report arguments with an external oracle that leaves a marker when it
/// starts: if the marker exists, work began.
fn report_args(out: &Path, input: &Path, marker: &Path) -> Vec<std::ffi::OsString> {
    vec![
        "report".into(),
        "--model".into(),
        "--lines".into(),
        "--oracle-cmd".into(),
        format!("marker=touch '{}'; exec cat", marker.display()).into(),
        "--out".into(),
        out.into(),
        input.into(),
    ]
}

#[cfg(unix)]
#[test]
fn an_out_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let body = "http://a_b.com/\n";
    fs::write(&input, body).unwrap();
    let link = dir.path().join("link.md");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    let hard = dir.path().join("hard.md");
    fs::hard_link(&input, &hard).unwrap();
    let marker = dir.path().join("started");
    let alias = dir.path().join(".").join("in.txt");
    for out in [&input, &link, &hard, &alias] {
        let o = uridiff(&report_args(out, &input, &marker));
        assert_eq!(
            o.status.code(),
            Some(2),
            "{}: {}",
            out.display(),
            stdout(&o)
        );
        assert!(
            stderr(&o).contains(&format!(
                "--out {} is the input {}",
                out.display(),
                input.display()
            )),
            "{}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty());
        assert_eq!(fs::read_to_string(&input).unwrap(), body);
        assert!(!marker.exists(), "work began before --out was refused");
    }
    // An input inside a directory given as a path.
    let corpus = dir.path().join("corpus");
    fs::create_dir(&corpus).unwrap();
    fs::write(corpus.join("a"), "http://h/").unwrap();
    let o = uridiff(&[
        OsStr::new("report"),
        OsStr::new("--model"),
        OsStr::new("--out"),
        corpus.join("a").as_os_str(),
        corpus.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(corpus.join("a")).unwrap(), "http://h/");
    // minimize --file and --out naming one file.
    let file = dir.path().join("crash");
    fs::write(&file, "http://a_b.com/xyz").unwrap();
    let o = uridiff(&[
        OsStr::new("minimize"),
        OsStr::new("--file"),
        file.as_os_str(),
        OsStr::new("--out"),
        file.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "no work was done");
    assert_eq!(fs::read_to_string(&file).unwrap(), "http://a_b.com/xyz");
    assert_eq!(
        names(dir.path()),
        ["corpus", "crash", "hard.md", "in.txt", "link.md"],
        "no temporary file left"
    );
}

/// A directory no file can be created in: one without write permission, or,
/// for root (whom permissions do not stop), a directory of /proc.
fn unwritable_dir(scratch: &Path) -> PathBuf {
    let dir = scratch.join("read-only");
    fs::create_dir(&dir).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
    }
    if fs::write(dir.join("probe"), "").is_err() {
        return dir;
    }
    let proc = PathBuf::from("/proc/self");
    assert!(
        fs::write(proc.join("uridiff-probe"), "").is_err(),
        "no unwritable directory found for this test"
    );
    proc
}

#[cfg(unix)]
#[test]
fn every_output_path_is_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    fs::write(&input, "http://a_b.com/\n").unwrap();
    let marker = dir.path().join("started");
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let device_link = dir.path().join("null.md");
    std::os::unix::fs::symlink("/dev/null", &device_link).unwrap();
    let unwritable = unwritable_dir(dir.path()).join("r.md");
    let cases: [(PathBuf, &str); 5] = [
        (dir.path().join("missing/r.md"), "No such file or directory"),
        (unwritable.clone(), "cannot create a file in"),
        (fifo.clone(), "not a regular file"),
        (device_link.clone(), "not a regular file"),
        (dir.path().to_path_buf(), "not a regular file"),
    ];
    for (out, why) in &cases {
        let o = uridiff(&report_args(out, &input, &marker));
        assert_eq!(o.status.code(), Some(2), "{}", out.display());
        let said = stderr(&o);
        assert!(said.contains(why), "{}: {said}", out.display());
        assert!(
            said.contains(&format!("--out {}", out.display())),
            "names the path given: {said}"
        );
        assert!(
            !said
                .replace(&dir.path().display().to_string(), "DIR")
                .contains(".tmp"),
            "no temporary file named: {said}"
        );
        assert!(stdout(&o).is_empty());
        assert!(!marker.exists(), "{}: work began first", out.display());
    }
    assert!(is_fifo(&fifo));
    assert!(fs::symlink_metadata(&device_link).unwrap().is_symlink());

    // minimize: the same checks, before the delta debugging.
    for (out, why) in &cases {
        let o = uridiff(&[
            OsStr::new("minimize"),
            OsStr::new("--out"),
            out.as_os_str(),
            OsStr::new("http://a_b.com/xyz"),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", out.display());
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
        assert!(stdout(&o).is_empty(), "minimize did its work first");
    }
}

/// minimize prints its result even when the write fails: the output's
/// directory disappears while minimize waits for its input on a FIFO
/// (after the output was checked, before the work).
#[cfg(unix)]
#[test]
fn minimize_prints_its_result_even_when_writing_fails() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("input");
    mkfifo(&fifo);
    let outdir = dir.path().join("out");
    fs::create_dir(&outdir).unwrap();
    let out = outdir.join("min");
    let child = Command::new(BIN)
        .arg("minimize")
        .arg("--file")
        .arg(&fifo)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Opening the FIFO for writing waits until minimize opens it to read,
    // which it does after checking --out.
    let mut writer = fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    fs::remove_dir(&outdir).unwrap();
    writer.write_all(b"http://a_b.com/xyz").unwrap();
    drop(writer);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("\n  reg-name-authority/spec/"),
        "the result is printed: {}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains(&format!("cannot write --out {}", out.display())),
        "{}",
        stderr(&o)
    );
}

// 5 and 6. One record per line; nothing checked is an error.

/// An input at the size limit whose path libcurl rewrites (it removes the
/// `/./`), followed by a fragment of the same text: the oracle looks for
/// its path's text in an input that holds a long near miss at every other
/// byte. The search beyond 256 bytes is `str::find`, linear whatever the
/// input holds; the case comes back whole.
#[cfg(feature = "curl")]
#[test]
fn a_part_searched_for_in_an_input_at_the_limit_comes_back() {
    let pairs = (MAX_INPUT_BYTES - "http://h".len() - "/./x#".len()) / 4;
    let half = "/a".repeat(pairs);
    let input = format!("http://h{half}/./x#{half}");
    let o = with_stdin(&["check", "--json"], input.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let case: Value = serde_json::from_slice(&o.stdout).unwrap();
    let curl = &case["outcomes"]["curl"];
    assert_eq!(curl["verdict"], "accept");
    assert_eq!(curl["path"].as_str().unwrap(), format!("{half}/x"));
    assert_eq!(curl["fragment"].as_str().unwrap(), half);
}

#[test]
fn parse_json_gives_one_record_per_line() {
    let mut body = b"http://h/\n\xff\xfe\nhttp://x/\n".to_vec();
    body.extend(std::iter::repeat_n(b'a', MAX_INPUT_BYTES + 1));
    body.extend(b"\nhttp://y/\n");
    let o = with_stdin(&["parse", "--json"], &body);
    assert_eq!(o.status.code(), Some(2), "a line that is no input");
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 5, "{}", stdout(&o));
    assert_eq!(lines[0]["input"], "http://h/");
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"].as_str().unwrap().contains("UTF-8"));
    assert_eq!(lines[2]["input"], "http://x/");
    assert_eq!(lines[3]["line"], 4);
    assert_eq!(
        lines[3]["error"],
        format!(
            "{} bytes, over the {MAX_INPUT_BYTES}-byte input limit",
            MAX_INPUT_BYTES + 1
        )
    );
    assert_eq!(lines[4]["input"], "http://y/");
}

#[test]
fn nothing_checked_is_exit_2_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("lines.txt");
    fs::write(&lines, b"\xff\n\xfe\xfd\n").unwrap();
    let corpus = dir.path().join("corpus");
    fs::create_dir(&corpus).unwrap();
    fs::write(corpus.join("a"), b"\xff").unwrap();
    let runs = [
        uridiff(&[
            OsStr::new("report"),
            OsStr::new("--model"),
            OsStr::new("--lines"),
            lines.as_os_str(),
        ]),
        uridiff(&[
            OsStr::new("report"),
            OsStr::new("--model"),
            corpus.as_os_str(),
        ]),
        with_stdin(&["check"], b""),
        with_stdin(&["check", "--json"], b"\xff\n"),
        uridiff(&[
            OsStr::new("check"),
            OsStr::new("--file"),
            corpus.join("a").as_os_str(),
        ]),
        with_stdin(&["parse"], b""),
    ];
    for o in &runs {
        assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
        assert!(
            stderr(o).contains("uridiff: nothing was checked"),
            "{}",
            stderr(o)
        );
    }
    // What was read is still listed.
    assert!(stdout(&runs[0]).contains("| not UTF-8 (listed below, not checked) | 2 |"));
    assert_eq!(json_lines(&runs[3])[0]["line"], 1);
}

// 8. Bounded reading.

#[test]
fn over_long_lines_are_skipped_and_over_long_files_refused_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lines.txt");
    let mut body = Vec::new();
    body.extend(std::iter::repeat_n(b'a', MAX_INPUT_BYTES * 3));
    body.extend(b"\r\nhttp://h/\r\n");
    fs::write(&file, &body).unwrap();
    let o = uridiff(&[
        OsStr::new("report"),
        OsStr::new("--model"),
        OsStr::new("--lines"),
        OsStr::new("--format"),
        OsStr::new("jsonl"),
        file.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2), "a line not checked");
    let lines = json_lines(&o);
    assert_eq!(lines[0]["summary"]["inputs"], 1);
    let last = lines.last().unwrap();
    assert_eq!(last["source"], format!("{}:1", file.display()));
    assert_eq!(
        last["error"],
        format!(
            "{} bytes, over the {MAX_INPUT_BYTES}-byte input limit",
            MAX_INPUT_BYTES * 3
        )
    );
    assert_eq!(lines[1]["input"], "http://h/");

    // check: the line on standard input is listed, the file refused.
    let o = with_stdin(&["check", "--json"], &body);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["line"], 1);
    assert!(lines[0]["error"].as_str().unwrap().contains("input limit"));
    let big = dir.path().join("big");
    fs::write(&big, vec![b'a'; MAX_INPUT_BYTES + 1]).unwrap();
    for command in ["check", "minimize"] {
        let o = uridiff(&[OsStr::new(command), OsStr::new("--file"), big.as_os_str()]);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            stderr(&o),
            format!(
                "uridiff: cannot read the input file {}: {} bytes, over the {MAX_INPUT_BYTES}-byte input limit\n",
                big.display(),
                MAX_INPUT_BYTES + 1
            )
        );
        assert!(stdout(&o).is_empty());
    }
    // Exactly the limit is an input.
    fs::write(&big, vec![b'a'; MAX_INPUT_BYTES]).unwrap();
    let o = uridiff(&[
        OsStr::new("check"),
        OsStr::new("--json"),
        OsStr::new("--file"),
        big.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

// 9. Markdown.

/// A Markdown document as a renderer reads it (GitHub's tables): raw HTML
/// it would pass to the page, and each table row's cells, each cell its
/// code spans.
#[derive(Debug, Default)]
struct Markdown {
    html: Vec<String>,
    /// Per table: its rows (the header first), each row its cells.
    tables: Vec<Vec<Vec<Vec<String>>>>,
}

fn markdown(md: &str) -> Markdown {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut doc = Markdown::default();
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match event {
            Event::Html(h) | Event::InlineHtml(h) => doc.html.push(h.to_string()),
            Event::Start(Tag::Table(_)) => doc.tables.push(Vec::new()),
            Event::Start(Tag::TableHead | Tag::TableRow) => {
                doc.tables.last_mut().unwrap().push(Vec::new());
            }
            Event::Start(Tag::TableCell) => {
                let table = doc.tables.last_mut().unwrap();
                table.last_mut().unwrap().push(Vec::new());
            }
            Event::Code(c) => {
                if let Some(cell) = doc
                    .tables
                    .last_mut()
                    .and_then(|t| t.last_mut())
                    .and_then(|r| r.last_mut())
                {
                    cell.push(c.to_string());
                }
            }
            Event::End(TagEnd::Table) => {}
            _ => {}
        }
    }
    doc
}

#[test]
fn markdown_code_spans_hold_any_input() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.txt");
    let hostile = [
        "http://a_b.com/``<img src=x onerror=alert(1)>``",
        "http://a_b.com/`<img src=x onerror=alert(2)>`",
        "http://a_b.com/a|b|c`",
        "http://a_b.com/```x````<i>y</i>",
        "http://a_b.com/ <b>z</b> ",
    ];
    // One report per input: a table shows each signature's shortest
    // example only.
    for input in hostile {
        fs::write(&file, input).unwrap();
        let o = uridiff(&[
            OsStr::new("report"),
            OsStr::new("--model"),
            OsStr::new("--lines"),
            file.as_os_str(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let doc = markdown(&stdout(&o));
        assert!(
            doc.html.is_empty(),
            "raw HTML reaches the page: {:?}",
            doc.html
        );
        let mut spans = Vec::new();
        for table in &doc.tables {
            let header = table[0].len();
            for row in table {
                assert_eq!(row.len(), header, "a `|` split a row: {row:?}");
                spans.extend(row.iter().flatten().cloned());
            }
        }
        assert!(
            spans.contains(&visible(input)),
            "{input:?} is not one code span: {spans:?}"
        );
    }
}

// 10. Reproduce commands.

/// `PATH` with the binary's directory first, so `uridiff` in a command is
/// the binary under test.
fn path_with_binary() -> std::ffi::OsString {
    let bin_dir = Path::new(BIN).parent().unwrap().to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(&rest))).unwrap()
}

/// Runs a reproduce command with `sh -c` (asking `check` for JSON) and
/// returns the case it checked.
///
/// What is asked is which input and base the command checks, not what the
/// URL Standard's reference says of it: the command runs with an empty
/// cache root, where `check` finds no `whatwg-url` to start (it says so in
/// the case and checks the rest), so that each of these hundreds of
/// commands does not start Node (most of the two tests' 300 s and more on
/// a loaded 2-core machine).
fn run_reproduce(command: &str, cwd: &Path) -> Value {
    assert!(command.contains("uridiff check "), "{command}");
    let json = command.replacen("uridiff check", "uridiff check --json", 1);
    let no_cache = tempfile::tempdir().unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(&json)
        .current_dir(cwd)
        .env("PATH", path_with_binary())
        .env("URIDIFF_CACHE", no_cache.path())
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{command}: {}",
        stderr(&o)
    );
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{command}: {e}: {}", stdout(&o)))
}

fn hostile_inputs() -> Vec<String> {
    let mut inputs: Vec<String> = [
        "http://a\0b/",
        "http://a/\nb\n",
        "http://a/'b'\"c\"",
        "http://a\\b/\\\\",
        "http://a/$HOME$(id)${x}",
        "http://a/`id`",
        "http://a\u{200b}b/",
        "http://a/\u{202e}gpj.exe",
        "http://a/\\u{200b}",
        "-x%s%n%%\\0",
        "\r\n\t",
        "",
        "a\0'\\$`\u{200b}\n%\u{202e}",
    ]
    .map(str::to_owned)
    .to_vec();
    inputs.push(format!("http://a/{}", "x".repeat(5 * 1024)));
    inputs
}

#[test]
fn reproduce_commands_check_exactly_the_input_and_base() {
    let dir = tempfile::tempdir().unwrap();
    let bases = [
        None,
        Some("http://b/"),
        Some("p://\0@0"),
        Some("http://b/'\u{202e}\\`$x`"),
    ];
    let file = &dir.path().join("crash:1 with space");
    // A command written twice (for both readers, say) is run once; each
    // (input, base) is still held to what its command checked.
    let mut ran: std::collections::HashMap<String, Value> = Default::default();
    for input in hostile_inputs() {
        fs::write(file, &input).unwrap();
        for base in bases {
            for reader in [Reader::Program, Reader::Person] {
                for holding in [None, Some(file.as_path())] {
                    let command = reproduce(&input, base, holding, reader);
                    if reader == Reader::Person {
                        assert!(!command.chars().any(is_hidden), "{command:?}");
                    }
                    // A command that names the file reads it, which the
                    // next input overwrites: it is run each time.
                    let case = match ran.get(&command) {
                        Some(case) if holding.is_none() => case.clone(),
                        _ => run_reproduce(&command, dir.path()),
                    };
                    ran.insert(command.clone(), case.clone());
                    assert_eq!(case["input"], input.as_str(), "{command:?}");
                    assert_eq!(case["base"].as_str(), base, "{command:?}");
                }
            }
        }
    }
    // A file that holds the input is named; one that does not, never.
    fs::write(file, "http://a\0b/").unwrap();
    let named = reproduce("http://a\0b/", None, Some(file), Reader::Program);
    assert_eq!(named, format!("uridiff check --file '{}'", file.display()));
    let other = reproduce("http://a\0c/", None, Some(file), Reader::Program);
    assert!(!other.contains("crash"), "{other}");
    // Standard input carries one of the two, not both.
    let o = with_stdin(&["check", "--base-file", "-", "--file", "-"], b"x");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("both read standard input"),
        "{}",
        stderr(&o)
    );
}

/// Every example of every report of `args`: its reproduce command, run, and
/// the input and base it is about.
fn report_commands(cwd: &Path, args: &[&str]) -> Vec<(String, Value, Option<String>)> {
    let mut found = Vec::new();
    let with = |format: &str| {
        let mut all = vec!["report", "--model", "--format", format];
        all.extend(args);
        let o = uridiff_in(cwd, &all);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
        stdout(&o)
    };
    // JSON Lines: the program's commands.
    let jsonl = with("jsonl");
    let summary: Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    for g in summary["signatures"].as_array().unwrap() {
        for e in g["examples"].as_array().unwrap() {
            found.push((
                e["reproduce"].as_str().unwrap().to_owned(),
                e["input"].clone(),
                e["base"].as_str().map(str::to_owned),
            ));
        }
    }
    // HTML: a person's commands, as the page holds them.
    let data = html_data(&with("html"));
    for g in data["groups"].as_array().unwrap() {
        for e in g["examples"].as_array().unwrap() {
            let command = e["reproduce"].as_str().unwrap();
            assert!(!command.chars().any(is_hidden), "{command:?}");
            found.push((
                command.to_owned(),
                e["input"].clone(),
                e["base"].as_str().map(str::to_owned),
            ));
        }
    }
    // Markdown: the reproduce commands as a renderer reads them (code
    // spans in table cells); each must check one of the inputs the JSON
    // report lists.
    let md = markdown(&with("md"));
    let mut commands = 0;
    for span in md.tables.iter().flatten().flatten().flatten() {
        if span.contains("uridiff check") {
            commands += 1;
            let case = run_reproduce(span, cwd);
            assert!(
                found.iter().any(|(_, input, base)| *input == case["input"]
                    && base.as_deref() == case["base"].as_str()),
                "{span:?} checks {}",
                case["input"]
            );
        }
    }
    assert!(commands > 0, "no reproduce command in the Markdown report");
    found
}

#[cfg(unix)]
#[test]
fn report_reproduce_commands_run_the_reported_input() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    // Lines, each with a finding (rfc2396 sees no host in a_b.com).
    let lines: Vec<String> = hostile_inputs()
        .iter()
        .filter(|i| !i.contains('\n'))
        .map(|i| format!("http://a_b.com/{i}"))
        .collect();
    fs::write(cwd.join("lines.txt"), lines.join("\n")).unwrap();
    // Pairs: a base with a NUL (no argument carries it), a reference too.
    fs::write(
        cwd.join("pairs.txt"),
        "p://\0@0\t\\\\t/..\nhttp://a_b.com/\t\0x\u{200b}\nhttp://a_b.com/\0\t?\0\n",
    )
    .unwrap();
    // Whole files, under names a line number could be read from.
    let corpus = cwd.join("corpus dir");
    fs::create_dir(&corpus).unwrap();
    fs::write(corpus.join("crash:1"), "http://a_b.com/\0nul").unwrap();
    fs::write(corpus.join("crash"), "http://a_b.com/other").unwrap();
    fs::write(corpus.join("x y:2"), "http://a_b.com/\u{202e}\n").unwrap();
    let mut total = 0;
    // A command two reports (or two formats) write alike is run once (the
    // files it may read do not change); each example is still held to what
    // its command checked.
    let mut ran: std::collections::HashMap<String, Value> = Default::default();
    for args in [
        vec!["--lines", "lines.txt"],
        vec!["--pairs", "pairs.txt"],
        vec!["corpus dir"],
        vec!["--base", "http://b/", "corpus dir"],
    ] {
        for (command, input, base) in report_commands(cwd, &args) {
            let case = ran
                .entry(command.clone())
                .or_insert_with(|| run_reproduce(&command, cwd));
            assert_eq!(case["input"], input, "{command:?}");
            assert_eq!(case["base"].as_str(), base.as_deref(), "{command:?}");
            total += 1;
        }
    }
    assert!(total > 20, "{total} commands");
}

// 11 and 12. What a person reads on the terminal.

fn assert_no_raw_controls(what: &str, shown: &str) {
    for c in shown.chars() {
        assert!(c == '\n' || !is_hidden(c), "{what}: {c:?} raw in {shown:?}");
    }
}

#[cfg(unix)]
#[test]
fn terminal_control_characters_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    // An external oracle's standard error, relayed in the error.
    let o = uridiff(&[
        "check",
        "--oracle-cmd",
        "bad=printf '\\033]0;TITLE\\007\\033[2J\\342\\200\\256evil' >&2; exit 3",
        "http://h/",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_no_raw_controls("external stderr", &stderr(&o));
    assert!(
        stderr(&o).contains("\\u{1b}]0;TITLE\\u{7}\\u{1b}[2J\\u{202e}evil"),
        "{}",
        stderr(&o)
    );
    // File names in diagnostics and in "report written to".
    let corpus = dir.path().join("c");
    fs::create_dir(&corpus).unwrap();
    fs::write(corpus.join("ok"), "http://h/").unwrap();
    std::os::unix::fs::symlink("/nonexistent", corpus.join("\u{1b}[2J\u{202e}x")).unwrap();
    let out = dir.path().join("r\u{202e}dm.md");
    let o = uridiff(&[
        OsStr::new("report"),
        OsStr::new("--model"),
        OsStr::new("--out"),
        out.as_os_str(),
        corpus.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_no_raw_controls("report stderr", &stderr(&o));
    assert_no_raw_controls("report stdout", &stdout(&o));
    assert!(
        stderr(&o).contains("\\u{1b}[2J\\u{202e}x"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("r\\u{202e}dm.md"), "{}", stdout(&o));
    // parse and resolve errors.
    let o = uridiff(&["parse", "http://a\u{202e}b/\u{200b}"]);
    assert_eq!(o.status.code(), Some(1));
    assert_no_raw_controls("parse", &stdout(&o));
    assert!(
        stdout(&o).contains("'\\u{202e}' (U+202E)"),
        "{}",
        stdout(&o)
    );
    let o = uridiff(&["resolve", "http://a/\u{202e}", "g\u{200b}"]);
    assert_eq!(o.status.code(), Some(1));
    assert_no_raw_controls("resolve", &stderr(&o));
    assert!(
        stderr(&o)
            .starts_with("uridiff: cannot resolve \"g\\u{200b}\" against \"http://a/\\u{202e}\""),
        "{}",
        stderr(&o)
    );
    // A non-UTF-8 name in a diagnostic.
    let o = uridiff(&["check", "--file", "/nonexistent/\u{7}\u{9b}x"]);
    assert_eq!(o.status.code(), Some(2));
    assert_no_raw_controls("check --file", &stderr(&o));
}

#[test]
fn a_hidden_character_and_its_escape_are_shown_apart() {
    let hidden = "http://a\u{200b}b/";
    let literal = "http://a\\u{200b}b/";
    let view = |args: &[&str]| stdout(&uridiff(args));
    for command in [&["check"][..], &["parse"][..]] {
        let mut a = command.to_vec();
        a.extend(["--", hidden]);
        let mut b = command.to_vec();
        b.extend(["--", literal]);
        let (a, b) = (view(&a), view(&b));
        assert_ne!(a, b, "{command:?}");
        assert!(a.contains("http://a\\u{200b}b/"), "{a}");
        assert!(b.contains("http://a\\\\u{200b}b/"), "{b}");
    }
    // And in the Markdown report.
    let dir = tempfile::tempdir().unwrap();
    for (input, shown) in [
        ("http://a_b.com/\u{200b}", "`http://a_b.com/\\u{200b}`"),
        ("http://a_b.com/\\u{200b}", "`http://a_b.com/\\\\u{200b}`"),
    ] {
        let file = dir.path().join("in.txt");
        fs::write(&file, input).unwrap();
        let md = stdout(&uridiff(&[
            OsStr::new("report"),
            OsStr::new("--model"),
            OsStr::new("--lines"),
            file.as_os_str(),
        ]));
        assert!(md.contains(shown), "{md}");
    }
}

// 17. corpus add.

#[cfg(unix)]
#[test]
fn corpus_add_refuses_links_fifos_and_places_outside_a_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("corpus");
    fs::create_dir_all(root.join("differential")).unwrap();
    fs::write(root.join("curated.txt"), "").unwrap();
    let name = uridiff::corpus::file_name(b"http://x/");
    let slot = root.join("differential").join(&name);
    let add = |cwd: &Path, root: &Path| {
        let o = uridiff_in(
            cwd,
            &[
                OsStr::new("corpus"),
                OsStr::new("add"),
                OsStr::new("--root"),
                root.as_os_str(),
                OsStr::new("differential"),
                OsStr::new("http://x/"),
            ],
        );
        (o.status.code(), stderr(&o))
    };
    // A link where the input's file goes: its target is not written.
    let victim = dir.path().join("victim");
    fs::write(&victim, "keep").unwrap();
    std::os::unix::fs::symlink(&victim, &slot).unwrap();
    let (code, said) = add(dir.path(), &root);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("already exists and is not this input"),
        "{said}"
    );
    assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
    // A FIFO there: refused at once, not waited on.
    fs::remove_file(&slot).unwrap();
    mkfifo(&slot);
    let (code, said) = add(dir.path(), &root);
    assert_eq!(code, Some(2), "{said}");
    assert!(is_fifo(&slot));
    // The input itself, twice: added, then already there.
    fs::remove_file(&slot).unwrap();
    assert_eq!(add(dir.path(), &root).0, Some(0));
    assert_eq!(add(dir.path(), &root).0, Some(0));
    assert_eq!(fs::read(&slot).unwrap(), b"http://x/");
    // A target directory that is a link.
    fs::remove_dir_all(root.join("differential")).unwrap();
    std::os::unix::fs::symlink(dir.path(), root.join("differential")).unwrap();
    let (code, said) = add(dir.path(), &root);
    assert_eq!(code, Some(2), "{said}");
    assert!(!dir.path().join(&name).exists());
    // Outside a saved corpus (the default --root, from elsewhere): nothing
    // is created, as `corpus bless` refuses there.
    let elsewhere = dir.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    let (code, said) = add(&elsewhere, Path::new("corpus"));
    assert_eq!(code, Some(2));
    assert!(said.contains("no saved corpus"), "{said}");
    assert!(names(&elsewhere).is_empty());
}

// 18. What a corpus directory holds that is no file.

#[cfg(unix)]
#[test]
fn fifos_and_devices_in_a_corpus_are_listed_not_checked_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c");
    fs::create_dir(&corpus).unwrap();
    fs::write(corpus.join("a"), "http://h/").unwrap();
    mkfifo(&corpus.join("fifo"));
    std::os::unix::fs::symlink("/dev/null", corpus.join("null")).unwrap();
    let o = uridiff(&[
        OsStr::new("report"),
        OsStr::new("--model"),
        OsStr::new("--format"),
        OsStr::new("jsonl"),
        corpus.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines[0]["not_checked"], 2);
    assert_eq!(lines[0]["summary"]["inputs"], 1);
    let reasons: Vec<(String, String)> = lines[2..]
        .iter()
        .map(|l| {
            (
                l["source"].as_str().unwrap().to_owned(),
                l["error"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let c = corpus.display();
    assert_eq!(
        reasons,
        [
            (
                format!("{c}/fifo"),
                "not a regular file or directory (a FIFO)".to_owned()
            ),
            (
                format!("{c}/null"),
                "a symbolic link that leaves the corpus (to /dev/null): not read".to_owned()
            ),
        ]
    );
    // Given directly: the same listing, the same status.
    let o = uridiff(&[
        OsStr::new("report"),
        OsStr::new("--model"),
        corpus.join("fifo").as_os_str(),
        corpus.join("a").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).contains("(a FIFO)"), "{}", stdout(&o));
}

// 19. I/O errors name the path given and what uridiff was doing.

#[cfg(unix)]
#[test]
fn io_errors_name_the_path_given_and_what_was_being_done() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    fs::write(&input, "http://h/\n").unwrap();
    let o = Command::new(BIN)
        .args(["report", "--model", "--lines", "--format", "jsonl"])
        .arg(&input)
        .env("TMPDIR", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "uridiff: cannot create a temporary file in /nonexistent (TMPDIR) to hold the JSON Lines report: No such file or directory (os error 2)\n"
    );
    // With --out the spool goes beside the report, whatever TMPDIR says.
    let out = dir.path().join("r.jsonl");
    let o = Command::new(BIN)
        .args(["report", "--model", "--lines", "--format", "jsonl", "--out"])
        .arg(&out)
        .arg(&input)
        .env("TMPDIR", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(fs::read_to_string(&out).unwrap().contains("\"summary\""));
    assert_eq!(names(dir.path()), ["in.txt", "r.jsonl"]);
    // Standard output that cannot be written.
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = Command::new(BIN)
        .args(["parse", "http://h/"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "uridiff: cannot write standard output: No space left on device (os error 28)\n"
    );
}

/// `uridiff bypass`'s inputs met while writing it: a `--lines` file that is
/// a device, one that is not UTF-8, one that does not exist, a `--corpus`
/// that is no saved corpus, and a template that is hostile text (a bidi
/// control, a tab in the allowed host) shown escaped in the terminal: each a clear message,
/// the right exit code, no panic.
#[test]
fn bypass_refuses_bad_files_and_shows_hostile_inputs_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let non_utf8 = dir.path().join("templates.txt");
    std::fs::write(&non_utf8, b"http://\xff{allow}\n").unwrap();
    let uridiff = env!("CARGO_BIN_EXE_uridiff");
    for (args, says) in [
        (
            vec!["--lines".into(), "/dev/zero".into()],
            "not a regular file",
        ),
        (
            vec!["--lines".into(), non_utf8.into_os_string()],
            "not valid UTF-8",
        ),
        (
            vec!["--lines".into(), dir.path().join("none").into_os_string()],
            "No such file",
        ),
        (
            vec!["--corpus".into(), dir.path().as_os_str().to_owned()],
            "not a saved corpus",
        ),
    ] {
        let o = Command::new(uridiff)
            .arg("bypass")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    let o = Command::new(uridiff)
        .args([
            "bypass",
            "--model",
            "--validator",
            "split-host",
            "--fetcher",
            "url",
        ])
        .args(["--allow", "a\u{202e}\t.example"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("://a\\u{202e}\\u{9}.example"),
        "{}",
        stdout(&o)
    );
    assert_no_raw_controls("bypass", &stdout(&o));
}

// Issue 29, rows 3, 7, 8, 11 and 12.

/// A corpus's symbolic links are read only when they stay inside it: one to
/// a file outside (the process environment, a key) is listed as not
/// checked, and what it points at never reaches the report.
#[test]
fn report_reads_no_link_that_leaves_the_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c");
    fs::create_dir(&corpus).unwrap();
    fs::write(corpus.join("a"), "http://h/").unwrap();
    let secret = dir.path().join("secret");
    fs::write(&secret, "http://sk-1-SECRET.example/").unwrap();
    std::os::unix::fs::symlink(&secret, corpus.join("x")).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", corpus.join("env")).unwrap();
    // A link that stays inside is a corpus file like another.
    fs::create_dir(corpus.join("sub")).unwrap();
    fs::write(corpus.join("sub/b"), "http://inside.example/").unwrap();
    std::os::unix::fs::symlink(corpus.join("sub/b"), corpus.join("b-link")).unwrap();
    // A link to a directory (here the corpus itself: a loop) is not followed.
    std::os::unix::fs::symlink(&corpus, corpus.join("loop")).unwrap();
    let o = Command::new(BIN)
        .args([
            OsStr::new("report"),
            OsStr::new("--model"),
            OsStr::new("--format"),
            OsStr::new("jsonl"),
        ])
        .arg(&corpus)
        .env("API_KEY", "sk-1-ENVIRONMENT")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("SECRET"), "{out}");
    assert!(!out.contains("sk-1-ENVIRONMENT"), "{out}");
    let lines = json_lines(&o);
    assert_eq!(lines[0]["summary"]["inputs"], 3, "{out}");
    assert!(out.contains("inside.example"), "{out}");
    let c = corpus.display();
    let reasons: BTreeMap<String, String> = lines
        .iter()
        .filter(|l| l["error"].is_string())
        .map(|l| {
            (
                l["source"].as_str().unwrap().to_owned(),
                l["error"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        reasons,
        BTreeMap::from([
            (
                format!("{c}/env"),
                "a symbolic link that leaves the corpus (to /proc/self/environ): not read"
                    .to_owned()
            ),
            (
                format!("{c}/loop"),
                "a symbolic link to a directory: not followed".to_owned()
            ),
            (
                format!("{c}/x"),
                format!(
                    "a symbolic link that leaves the corpus (to {}): not read",
                    secret.display()
                )
            ),
        ]),
        "{out}"
    );
    assert_eq!(lines[0]["not_checked"], 3);
}

/// No run leaves a `uridiff-adapter-*` directory (nor anything else) in
/// TMPDIR: the WHATWG reference that `check` from standard input, `report`
/// and `minimize` start ends with the run.
#[test]
fn no_run_leaves_its_adapters_directories_behind() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let corpus = dir.path().join("c");
    fs::create_dir(&corpus).unwrap();
    // A WHATWG disagreement, so that the reference is asked.
    fs::write(corpus.join("a"), "http://a_b.example/\\x").unwrap();
    let run = |args: &[&OsStr], stdin: &[u8]| {
        let mut child = Command::new(BIN)
            .args(args)
            .env("TMPDIR", &tmp)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin).unwrap();
        child.wait_with_output().unwrap()
    };
    let check = run(
        &[OsStr::new("check"), OsStr::new("--json")],
        b"file:\\\\//\n",
    );
    assert!(check.status.code().is_some(), "{check:?}");
    // The reference ran: its verdict is in the case.
    assert!(
        stdout(&check).contains("whatwg-url"),
        "the WHATWG reference was not asked: {}",
        stdout(&check)
    );
    let report = run(
        &[
            OsStr::new("report"),
            OsStr::new("--model"),
            OsStr::new("--format"),
            OsStr::new("jsonl"),
            corpus.as_os_str(),
        ],
        b"",
    );
    assert!(report.status.code().is_some(), "{report:?}");
    let minimize = run(&[OsStr::new("minimize"), OsStr::new("file:\\\\//")], b"");
    assert_eq!(minimize.status.code(), Some(0), "{}", stderr(&minimize));
    assert_eq!(names(&tmp), Vec::<String>::new());
}

/// `minimize` of an input over 64 KiB (http's length limit keeps every
/// candidate long, and each check is dear) stops at its time limit with
/// the shortest input found by then, and says so.
#[test]
fn minimize_stops_at_its_time_limit_and_says_so() {
    let input = format!("http://h/{}", "a".repeat(70_000));
    let o = uridiff(&["minimize", "--json", "--time-limit", "1", &input]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("stopped after 1 s (--time-limit)"),
        "{}",
        stderr(&o)
    );
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["complete"], false);
    let minimized = v["minimized"].as_str().unwrap();
    assert!(minimized.len() <= input.len());
    // What it printed keeps the input's signatures.
    let whole = uridiff(&["minimize", "--json", "--time-limit", "1", minimized]);
    let again: Value = serde_json::from_str(stdout(&whole).trim()).unwrap();
    assert_eq!(again["signatures"], v["signatures"]);
    let bad = uridiff(&["minimize", "--time-limit", "0", "x"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// A trap address nothing can connect to (the loopback network's broadcast
/// address) is an error that names it, exit 2, not "0 confirmed". libcurl is
/// the fetcher: the default build's.
#[cfg(feature = "curl")]
#[test]
fn an_unreachable_trap_address_is_an_error_not_zero_confirmed() {
    let o = uridiff(&[
        "bypass",
        "--confirm",
        "--allow",
        "127.0.0.2",
        "--target",
        "127.255.255.255",
        "--validator",
        "url",
        "--fetcher",
        "curl",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("127.255.255.255") && stderr(&o).contains("accepts no connection"),
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).contains("none, confirmation did not run"),
        "{}",
        stdout(&o)
    );
}

/// `report --confirm` whose traps cannot start (a network namespace whose
/// loopback is down: nothing binds 127.0.0.2) says in the report that
/// confirmation did not run, and why, instead of "0 confirmed".
#[test]
fn a_report_whose_confirmation_did_not_run_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c");
    fs::create_dir(&corpus).unwrap();
    fs::write(corpus.join("a"), "http://allowed.example\\@evil.example/").unwrap();
    let o = Command::new("unshare")
        .args(["--net", "--"])
        .arg(BIN)
        .args(["report", "--confirm", "--format", "md"])
        .arg(&corpus)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "unshare --net (root needed): {}",
        stderr(&o)
    );
    let md = stdout(&o);
    assert!(
        md.contains("none confirmed: confirmation did not run (`the trap servers did not start:"),
        "{md}"
    );
    assert!(!md.contains("0 confirmed"), "{md}");
    assert!(
        stderr(&o).contains("--confirm: the trap servers did not start"),
        "{}",
        stderr(&o)
    );
}
