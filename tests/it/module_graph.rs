//! The import graph between `src/`'s top-level modules is a DAG
//! (DESIGN.md, "Data flow": oracle → (diff, reference) → triage → case →
//! check/harness → (report, bypass, reproduce, corpus) → cmd). Edges are
//! read from the source text: every `crate::NAME` path outside comments
//! and outside `#[cfg(test)] mod tests` blocks and `tests.rs` files, where
//! NAME is a top-level module or a name `src/lib.rs` re-exports from one
//! (`crate::Case` is an edge to `case`). Test code may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Cycles that exist today and are another change's to break, each as
/// its modules sorted: the test fails on any other cycle, and on one of
/// these once it is gone (so that the entry goes with it).
const KNOWN_CYCLES: &[&[&str]] = &[];

type Graph = BTreeMap<String, BTreeSet<String>>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The identifiers a `crate::` path names first: `crate::a::b` gives `a`,
/// `crate::{a, b::c}` gives `a` and `b`.
fn crate_paths(line: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let ident = |s: &str| -> usize {
            s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(s.len())
        };
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let part = part.trim();
                names.push(&part[..ident(part)]);
            }
        } else {
            names.push(&rest[..ident(rest)]);
        }
    }
    names
}

fn graph(root: &Path) -> Graph {
    let src = root.join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let mut modules = BTreeSet::new();
    for line in lib.lines() {
        let line = line.trim();
        if let Some(name) = line
            .strip_prefix("pub mod ")
            .or_else(|| line.strip_prefix("mod "))
            .and_then(|r| r.strip_suffix(';'))
        {
            modules.insert(name.to_owned());
        }
    }
    // `pub use MODULE::{A, B};` and `pub use MODULE::A;` at the root.
    let mut reexports = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        if !modules.contains(module) {
            continue;
        }
        let names = names.trim_end_matches(';').trim_matches(['{', '}']);
        for name in names.split(',') {
            let name = name.trim();
            let name = name.rsplit("::").next().unwrap_or(name);
            reexports.insert(name.to_owned(), module.to_owned());
        }
    }
    let mut edges = Graph::new();
    for module in &modules {
        let mut files = Vec::new();
        let dir = src.join(module);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        } else {
            files.push(src.join(format!("{module}.rs")));
        }
        let out = edges.entry(module.clone()).or_default();
        for file in files {
            if file.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            for (i, line) in lines.iter().enumerate() {
                if *line == "#[cfg(test)]"
                    && lines.get(i + 1).is_some_and(|l| l.starts_with("mod tests"))
                {
                    break;
                }
                if line.starts_with("//") {
                    continue;
                }
                for name in crate_paths(line) {
                    let target = if modules.contains(name) {
                        Some(name.to_owned())
                    } else {
                        reexports.get(name).cloned()
                    };
                    if let Some(target) = target.filter(|t| t != module) {
                        out.insert(target);
                    }
                }
            }
        }
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan's
/// algorithm), each sorted.
fn cycles(g: &Graph) -> Vec<Vec<String>> {
    struct State<'g> {
        g: &'g Graph,
        next: usize,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        for w in s.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                component.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        g,
        next: 0,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found.sort();
    s.found
}

#[test]
fn the_reader_finds_edges_and_cycles() {
    assert_eq!(
        crate_paths("use crate::{a::B, c}; x(crate::d::e); $crate::f; my_crate::g"),
        ["a", "c", "d"]
    );
    let mut g = Graph::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        g.entry(a.to_owned()).or_default().insert(b.to_owned());
    }
    assert_eq!(cycles(&g), [["a", "b", "c"]]);
    g.get_mut("c").unwrap().remove("a");
    assert!(cycles(&g).is_empty());
}

#[test]
fn no_import_cycle_between_top_level_modules_but_the_known_ones() {
    let g = graph(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(g.len() >= 15, "{} modules read", g.len());
    let found = cycles(&g);
    let known: Vec<Vec<String>> = KNOWN_CYCLES
        .iter()
        .map(|c| c.iter().map(|m| (*m).to_owned()).collect())
        .collect();
    let edges = |c: &[String]| -> String {
        c.iter()
            .flat_map(|a| {
                g[a].iter()
                    .filter(|b| c.contains(b))
                    .map(move |b| format!("{a} -> {b}"))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let new: Vec<String> = found
        .iter()
        .filter(|c| !known.contains(c))
        .map(|c| format!("{c:?}: {}", edges(c)))
        .collect();
    assert!(new.is_empty(), "import cycles:\n{}", new.join("\n"));
    let gone: Vec<&Vec<String>> = known.iter().filter(|c| !found.contains(c)).collect();
    assert!(
        gone.is_empty(),
        "no longer a cycle, remove it from KNOWN_CYCLES: {gone:?}"
    );
}

/// Issue 30: no file under `src/` over 700 lines (a file that grows past
/// it is split by concept, as `src/triage/classes/` and
/// `src/oracle/external/shipped/` are); functions over 100 lines are
/// clippy's `too_many_lines`, denied in CI.
#[test]
fn no_source_file_over_700_lines() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() >= 50, "{} files read", files.len());
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(f).unwrap().lines().count();
            (lines > 700).then(|| format!("{}: {lines} lines", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}
