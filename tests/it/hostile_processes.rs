//! Hostile surroundings of the processes uridiff starts, through the built
//! binary: what lies above the temporary directory, the caller's Go
//! environment, a signal during a build, an adapter that hangs mid-batch,
//! a cache root that cannot be used. Each case asserts the exit status,
//! what is printed and what is left on disk.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::util::BIN;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `uridiff ARGS` with `env` set.
fn run_with(args: &[&str], env: &[(&str, &OsStr)]) -> Output {
    Command::new(BIN)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

/// Everything under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            out.push(path.strip_prefix(root).unwrap().to_owned());
            if path.is_dir() && !path.is_symlink() {
                walk(root, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

// 5. The cache root: every way it is wrong is said as what it is.

/// A cache root under a regular file (root, as which CI may run, cannot
/// be kept out of a directory by `chmod`; a file in the way stops it).
#[test]
fn a_cache_root_that_is_no_directory_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    fs::write(&file, "x").unwrap();
    let root = file.join("cache");
    let said = format!("URIDIFF_CACHE={} is not a directory", root.display());
    let env = [("URIDIFF_CACHE", root.as_os_str())];

    // An adapter that needs the cache: refused before any input is read.
    let o = run_with(&["check", "--oracle", "whatwg-url", "http://a/"], &env);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains(&said), "{}", stderr(&o));
    assert!(!stderr(&o).contains("install it"), "{}", stderr(&o));

    // `oracles --json`: the cause, and no install command that would mend it.
    let o = run_with(&["oracles", "--json"], &env);
    assert_eq!(o.status.code(), Some(0));
    let row: Value = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["id"] == "urllib3")
        .unwrap();
    assert_eq!(row["missing"], said.as_str());
    assert_eq!(row["install"], Value::Null);

    // `reproduce --check` builds in the cache root: said before any build,
    // not as a test that "does not build".
    let o = run_with(
        &[
            "reproduce",
            "--check",
            "--json",
            "--",
            "http://example.com:80x/",
        ],
        &env,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("--check: {said}")),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("does not build"), "{}", stderr(&o));
    assert_eq!(tree(dir.path()), [PathBuf::from("file")]);
}

#[test]
fn a_cache_root_that_is_not_utf8_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = dir.path().as_os_str().as_bytes().to_vec();
    bytes.extend_from_slice(b"/cache\xff");
    let root = OsStr::from_bytes(&bytes);
    let o = run_with(
        &["check", "--oracle", "urllib3", "http://a/"],
        &[("URIDIFF_CACHE", root)],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "URIDIFF_CACHE=\"{}/cache\\xFF\" is not UTF-8",
            dir.path().display()
        )),
        "{err}"
    );
    assert!(!err.contains("no cache directory"), "{err}");
    assert!(tree(dir.path()).is_empty());
}

/// `{hash}`, `{dir}` and `{cache}` in the cache root's path are part of the
/// path: the Go adapter is built inside the root as given.
#[test]
fn placeholders_in_the_cache_root_are_not_filled() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("c{hash}{dir}{cache}");
    let o = run_with(
        &["check", "--json", "--oracle", "go-net-url", "http://a/"],
        &[("URIDIFF_CACHE", root.as_os_str())],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let case: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(case["outcomes"]["go-net-url"]["host"], "a");
    let built: Vec<PathBuf> = tree(dir.path());
    assert_eq!(built.len(), 3, "{built:?}");
    assert_eq!(built[0], Path::new("c{hash}{dir}{cache}"));
    assert_eq!(built[1], Path::new("c{hash}{dir}{cache}/go"));
    let program = built[2].file_name().unwrap().to_str().unwrap();
    assert!(program.starts_with("go-net-url-"), "{built:?}");
}

// 1. What lies above TMPDIR, or in the caller's environment, never runs.

/// A directory anyone may write to, above the adapters' TMPDIR: a
/// `node_modules/whatwg-url` (and `fast-uri`, `uri-js`, `url-parse`, the
/// other pinned npm libraries) and a Python package that would each leave a
/// mark when loaded; `PYTHONPATH` is to point at the Python one and
/// `PYTHONHOME` at nothing (either steers a Python that is not isolated).
/// Returns it, two TMPDIRs below it (`sub`, and `esm/sub` under a
/// `package.json` that makes `.js` files ES modules), and the mark's path.
fn hostile_parent() -> (tempfile::TempDir, [PathBuf; 2], PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("ran");
    let leave_mark = format!(
        "require('fs').writeFileSync({:?}, 'node');\nmodule.exports = {{}};\n",
        mark.to_str().unwrap()
    );
    for package in ["whatwg-url", "fast-uri", "uri-js", "url-parse"] {
        let module = dir.path().join("node_modules").join(package);
        fs::create_dir_all(&module).unwrap();
        fs::write(module.join("index.js"), &leave_mark).unwrap();
        fs::write(
            module.join("package.json"),
            format!(r#"{{"name": "{package}", "version": "0.0.0-hostile", "main": "index.js"}}"#),
        )
        .unwrap();
    }
    let python = dir.path().join("py/urllib3");
    fs::create_dir_all(&python).unwrap();
    fs::write(
        python.join("__init__.py"),
        format!("open({:?}, 'w').write('python')\n", mark.to_str().unwrap()),
    )
    .unwrap();
    let plain = dir.path().join("sub");
    let esm = dir.path().join("esm/sub");
    fs::create_dir_all(&plain).unwrap();
    fs::create_dir_all(&esm).unwrap();
    fs::write(dir.path().join("esm/package.json"), r#"{"type": "module"}"#).unwrap();
    (dir, [plain, esm], mark)
}

#[test]
fn nothing_above_tmpdir_runs_in_an_ordinary_check() {
    let (dir, tmps, mark) = hostile_parent();
    for tmp in &tmps {
        let o = run_with(
            &[
                "check",
                "--json",
                "--oracle",
                "whatwg-url",
                "--oracle",
                "node-url",
                "--oracle",
                "urllib3",
                "--oracle",
                "fast-uri",
                "--oracle",
                "uri-js",
                "--oracle",
                "url-parse",
                "http://a_b.example/",
            ],
            &[
                ("TMPDIR", tmp.as_os_str()),
                ("PYTHONPATH", dir.path().join("py").as_os_str()),
                ("PYTHONHOME", dir.path().join("nothing").as_os_str()),
            ],
        );
        let err = stderr(&o);
        assert!(!mark.exists(), "code above TMPDIR ran: {err}");
        assert_eq!(o.status.code(), Some(0), "{}: {err}", tmp.display());
        assert!(!err.contains("missing"), "{err}");
        let case: Value = serde_json::from_slice(&o.stdout).unwrap();
        // The reference (asked here: the WHATWG parsers see a host rfc2396
        // does not) and each adapter answered with the pinned libraries.
        for oracle in [
            "whatwg-url",
            "node-url",
            "urllib3",
            "fast-uri",
            "uri-js",
            "url-parse",
        ] {
            assert_eq!(
                case["outcomes"][oracle]["host"], "a_b.example",
                "{oracle}: {case}"
            );
        }
        assert!(tree(tmp).is_empty(), "{:?}", tree(tmp));
    }
}

/// The Node fetch client is a `.cjs` file too: a confirmation through it
/// works under a `package.json` that makes `.js` files ES modules.
#[test]
fn the_node_fetch_client_runs_under_an_es_module_package() {
    let (_dir, [_, esm], mark) = hostile_parent();
    let o = run_with(
        &[
            "bypass",
            "--json",
            "--confirm",
            "--validator",
            "split-host",
            "--fetcher",
            "node-url",
        ],
        &[("TMPDIR", esm.as_os_str())],
    );
    let err = stderr(&o);
    assert!(!mark.exists(), "code above TMPDIR ran: {err}");
    assert_eq!(o.status.code(), Some(1), "{err}");
    let confirmed = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|b| b["confirmed_by"] == "node-http-url-parse")
        .count();
    assert!(confirmed > 0, "{err}");
    assert!(tree(&esm).is_empty(), "{:?}", tree(&esm));
}

// 3. A signal during a build ends the build's every process and removes
// its temporary directory.

/// `(pid, parent, process group, state, name)` of every process.
fn processes() -> Vec<(i32, i32, i32, char, String)> {
    let mut out = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        // Gone between the listing and the read: not a process any more.
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // "pid (comm) state ppid pgrp ...": comm may hold spaces and ')'.
        let (head, tail) = stat.rsplit_once(") ").unwrap();
        let name = head.split_once(" (").unwrap().1.to_owned();
        let fields: Vec<&str> = tail.split(' ').collect();
        let state = fields[0].chars().next().unwrap();
        out.push((
            pid,
            fields[1].parse().unwrap(),
            fields[2].parse().unwrap(),
            state,
            name,
        ));
    }
    out
}

/// The processes below `root`: `(pid, group, name)`.
fn descendants(root: i32) -> Vec<(i32, i32, String)> {
    let all = processes();
    let mut found = vec![(root, 0, String::new())];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i].0;
        for (pid, ppid, group, _, name) in &all {
            if *ppid == parent {
                found.push((*pid, *group, name.clone()));
            }
        }
        i += 1;
    }
    found.remove(0);
    found
}

/// A program for `PATH` or `RUSTC_WRAPPER` in `dir`: a shell script.
fn script(dir: &Path, name: &str, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{text}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Polls (every 10 ms, at most `tries` times) until `found` gives a value.
fn poll<T>(tries: u32, mut found: impl FnMut() -> Option<T>) -> Option<T> {
    for _ in 0..tries {
        if let Some(value) = found() {
            return Some(value);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    None
}

/// Starts `uridiff ARGS` with `env`, waits until a `sleep` runs below it
/// (the stand-in for a compiler the build tool started: the build is under
/// way and would stay so for minutes, writing nothing), sends SIGTERM, and
/// returns the exit status, standard error, and what was left running
/// afterwards: the processes below uridiff when the signal came, and any
/// process in their groups (but the test's own: a process started later by
/// one of them is in its group).
fn terminate_during_build(
    args: &[&str],
    env: &[(&str, &OsStr)],
) -> (Option<i32>, String, Vec<i32>) {
    let mut child = Command::new(BIN)
        .args(args)
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let me = i32::try_from(child.id()).unwrap();
    let started = poll(30_000, || {
        let below = descendants(me);
        below
            .iter()
            .any(|(_, _, name)| name == "sleep")
            .then_some(below)
    });
    let Some(below) = started else {
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        panic!("the build never started: {}", stderr(&out));
    };
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&child),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    let ours = rustix::process::getpgrp().as_raw_nonzero().get();
    let groups: Vec<i32> = below
        .iter()
        .map(|&(_, group, _)| group)
        .filter(|&g| g != ours)
        .collect();
    let left = || -> Vec<i32> {
        let mut left: Vec<i32> = processes()
            .into_iter()
            .filter(|(pid, _, group, state, _)| {
                !matches!(state, 'Z' | 'X')
                    && (groups.contains(group) || below.iter().any(|(p, ..)| p == pid))
            })
            .map(|(pid, ..)| pid)
            .collect();
        left.sort_unstable();
        left
    };
    // SIGKILL is delivered at once, but a process is gone only once its
    // parent (init, for the orphans) has reaped it.
    let _ = poll(500, || left().is_empty().then_some(()));
    (out.status.code(), stderr(&out), left())
}

#[test]
fn sigterm_during_reproduce_check_ends_the_build_and_removes_its_project() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    // A cache root (and so a cargo target directory) of its own, and a
    // compiler that takes five minutes: cargo (and rustc, through the
    // wrapper) is at work when the signal comes.
    let cache = dir.path().join("cache");
    let wrapper = script(dir.path(), "slow-rustc", "sleep 300\nexec \"$@\"");
    let (code, err, left) = terminate_during_build(
        &[
            "reproduce",
            "--check",
            "--json",
            "--",
            "http://example.com:80x/",
        ],
        &[
            ("TMPDIR", tmp.as_os_str()),
            ("URIDIFF_CACHE", cache.as_os_str()),
            ("RUSTC_WRAPPER", wrapper.as_os_str()),
        ],
    );
    assert_eq!(code, Some(143), "{err}");
    assert!(left.is_empty(), "left running: {left:?}");
    assert!(tree(&tmp).is_empty(), "left behind: {:?}", tree(&tmp));
}

/// A first-use Go build, likewise: a `go` first on PATH whose `build`
/// takes five minutes (its other commands are the real go's).
#[test]
fn sigterm_during_a_first_use_go_build_ends_it_and_removes_its_directory() {
    let real = Command::new("sh")
        .args(["-c", "command -v go"])
        .output()
        .unwrap();
    let real = String::from_utf8(real.stdout).unwrap();
    assert!(
        !real.trim().is_empty(),
        "go not found: install it (apt-get install golang-go)"
    );
    let dir = tempfile::tempdir().unwrap();
    let (tmp, cache, bin) = (
        dir.path().join("tmp"),
        dir.path().join("cache"),
        dir.path().join("bin"),
    );
    for d in [&tmp, &bin] {
        fs::create_dir(d).unwrap();
    }
    script(
        &bin,
        "go",
        &format!(
            "if [ \"$1\" = build ]; then sleep 300; fi\nexec {} \"$@\"",
            real.trim()
        ),
    );
    let path = std::env::join_paths(
        std::iter::once(bin.clone())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let (code, err, left) = terminate_during_build(
        &["check", "--oracle", "go-net-url", "http://a/"],
        &[
            ("TMPDIR", tmp.as_os_str()),
            ("URIDIFF_CACHE", cache.as_os_str()),
            ("PATH", path.as_os_str()),
        ],
    );
    assert_eq!(code, Some(143), "{err}");
    assert!(left.is_empty(), "left running: {left:?}");
    assert!(tree(&tmp).is_empty(), "left behind: {:?}", tree(&tmp));
    // Nothing half-built in the cache either.
    let kept: Vec<PathBuf> = if cache.exists() {
        tree(&cache)
    } else {
        Vec::new()
    };
    assert!(
        kept.iter().all(|p| p == Path::new("go")),
        "in the cache: {kept:?}"
    );
}

// 2. The caller's Go environment and working directory never reach a
// build, and a kept program that cannot run is built again.

#[test]
fn go_programs_build_for_this_machine_whatever_the_callers_go_settings() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, work, tmp) = (
        dir.path().join("cache"),
        dir.path().join("work"),
        dir.path().join("tmp"),
    );
    fs::create_dir(&work).unwrap();
    fs::create_dir(&tmp).unwrap();
    // A module and a workspace in the working directory and above TMPDIR,
    // each asking for a Go that does not exist, and a `go env -w` file.
    for d in [&work, dir.path()] {
        fs::write(d.join("go.mod"), "module hostile\n\ngo 1.99\n").unwrap();
        fs::write(d.join("go.work"), "go 1.99\n\nuse ./nowhere\n").unwrap();
    }
    let goenv = dir.path().join("goenv");
    fs::write(&goenv, "GOOS=plan9\nGOARCH=arm\n").unwrap();
    let gowork = dir.path().join("go.work");
    let hostile: [(&str, &OsStr); 9] = [
        ("GOOS", OsStr::new("windows")),
        ("GOARCH", OsStr::new("arm64")),
        ("GOFLAGS", OsStr::new("-mod=vendor")),
        ("GO111MODULE", OsStr::new("off")),
        ("CGO_ENABLED", OsStr::new("1")),
        ("GOWORK", gowork.as_os_str()),
        ("GOENV", goenv.as_os_str()),
        ("TMPDIR", tmp.as_os_str()),
        ("URIDIFF_CACHE", cache.as_os_str()),
    ];
    // The Go oracle (the fetcher's parser) and the Go fetch client, built
    // on first use under all of that.
    let o = Command::new(BIN)
        .args([
            "bypass",
            "--json",
            "--confirm",
            "--validator",
            "split-host",
            "--fetcher",
            "go-net-url",
        ])
        .envs(hostile)
        .current_dir(&work)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let confirmed = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|b| b["confirmed_by"] == "go-net-http")
        .count();
    assert!(confirmed > 0, "{err}");
    assert!(tree(&tmp).is_empty(), "{:?}", tree(&tmp));
    let built = tree(&cache.join("go"));
    assert_eq!(built.len(), 2, "{built:?}");

    // Without those settings: the same programs, none built again.
    let o = run_with(
        &["check", "--json", "--oracle", "go-net-url", "http://a/"],
        &[("URIDIFF_CACHE", cache.as_os_str())],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(tree(&cache.join("go")), built);

    // A kept program the system cannot run is built again, not fatal.
    let program = cache.join("go").join(
        built
            .iter()
            .find(|p| p.to_str().unwrap().starts_with("go-net-url-"))
            .unwrap(),
    );
    fs::write(&program, "not a program\n").unwrap();
    let o = run_with(
        &["check", "--json", "--oracle", "go-net-url", "http://a/"],
        &[("URIDIFF_CACHE", cache.as_os_str())],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let case: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(case["outcomes"]["go-net-url"]["host"], "a");
    assert!(fs::read(&program).unwrap().starts_with(b"\x7fELF"));
    assert_eq!(tree(&cache.join("go")), built);
}

// 4. An adapter that hangs mid-batch: the error names the first input
// without an answer, and the answers before it are kept.

fn outcome<'a>(cases: &'a [Value], input: &str, oracle: &str) -> &'a Value {
    let case = cases
        .iter()
        .find(|c| c["input"] == input)
        .unwrap_or_else(|| panic!("no case for {input:?}"));
    &case["outcomes"][oracle]
}

fn json_lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn an_adapter_that_hangs_on_the_second_input_is_blamed_for_it_alone() {
    let adapter = crate::util::root().join("tests/adapters/v2.py");
    let o = Command::new(BIN)
        .args([
            "check",
            "--json",
            "--oracle-timeout",
            "2",
            "--oracle-cmd",
            &format!("stall=python3 -B {} hang", adapter.display()),
            "http://a/",
            "hang",
            "http://c/",
        ])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "no answer within 2 s for input \"hang\" (input 2 of a batch of 3; the first 1 answered)"
        ),
        "{err}"
    );
    assert!(!err.contains("for input \"http://a/\""), "{err}");
    let cases = json_lines(&o);
    assert_eq!(cases.len(), 3, "every case is printed");
    let first = outcome(&cases, "http://a/", "stall");
    assert_eq!(first["verdict"], "accept", "{first}");
    assert_eq!(first["path"], "http://a/", "{first}");
    for input in ["hang", "http://c/"] {
        let missing = outcome(&cases, input, "stall");
        assert_eq!(missing["notes"][0], "missing-outcome", "{input}: {missing}");
    }
}

/// The WHATWG reference likewise: a whatwg-url (in a cache root of the
/// test's) that hangs on one input. The adapter writes its answers once
/// per chunk it reads (64 KiB at most), so a 70 KB input between the first
/// and the hanging one puts them in different chunks: the first answer is
/// written before the hang, and must be kept.
#[test]
fn the_whatwg_reference_keeps_the_answers_before_a_hang() {
    let installed = uridiff::oracle::external::cache_root()
        .unwrap()
        .join("node/node_modules/whatwg-url");
    assert!(
        installed.join("package.json").is_file(),
        "whatwg-url is not installed in {}: run bash scripts/setup-oracles.sh",
        installed.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let fake = cache.join("node/node_modules/whatwg-url");
    fs::create_dir_all(&fake).unwrap();
    fs::write(
        fake.join("index.js"),
        format!(
            "const real = require({:?});\n\
             module.exports = Object.assign({{}}, real, {{\n\
             \x20 parseURL(input, options) {{\n\
             \x20   if (input.includes('hang')) {{ for (;;) {{}} }}\n\
             \x20   return real.parseURL(input, options);\n\
             \x20 }},\n\
             }});\n",
            installed.to_str().unwrap()
        ),
    )
    .unwrap();
    fs::write(
        fake.join("package.json"),
        r#"{"name": "whatwg-url", "version": "16.0.1", "main": "index.js"}"#,
    )
    .unwrap();
    let long = format!("http://c_d.example/{}", "a".repeat(70_000));
    let ok = dir.path().join("ok.py");
    fs::write(
        &ok,
        "import json, sys\n\
         print(json.dumps({'uridiff_protocol': 2, 'parser': 'ok 1', 'standard': 'none'}), flush=True)\n\
         for line in sys.stdin:\n\
         \x20   r = json.loads(line)\n\
         \x20   print(json.dumps({'id': r['id'], 'verdict': 'accept', 'path': r['input'], 'message': None}), flush=True)\n",
    )
    .unwrap();
    // An external oracle makes the inputs one batch (and one reference
    // batch: each has a host rfc2396 reads as none, which the WHATWG
    // parsers see).
    let o = Command::new(BIN)
        .args([
            "check",
            "--json",
            "--oracle-timeout",
            "3",
            "--oracle-cmd",
            &format!("ok=python3 -B {}", ok.display()),
            "http://a_b.example/",
            &long,
            "http://hang_b.example/",
        ])
        .env("URIDIFF_CACHE", &cache)
        .output()
        .unwrap();
    let err = stderr(&o);
    let cases = json_lines(&o);
    assert_eq!(cases.len(), 3, "{err}");
    // Messages quote the 70 KB input whole: shown cut short here.
    let short = |v: &Value| v.to_string().chars().take(400).collect::<String>();
    let first = outcome(&cases, "http://a_b.example/", "whatwg-url");
    assert_eq!(first["verdict"], "accept", "{}", short(first));
    assert_eq!(first["host"], "a_b.example", "{}", short(first));
    let hung = outcome(&cases, "http://hang_b.example/", "whatwg-url");
    assert_eq!(hung["notes"][0], "missing-outcome", "{}", short(hung));
    let message = hung["message"].as_str().unwrap();
    assert!(
        message.contains("no answer within 3 s for input"),
        "{}",
        short(hung)
    );
    assert!(
        !message.contains("\"http://a_b.example/\""),
        "{}",
        short(hung)
    );
}
