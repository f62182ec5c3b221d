//! Each grammar file is its RFC's Appendix A: every rule of the file is a
//! rule of the RFC text with the same right-hand side (whitespace and `;`
//! comments normalised), and no rule is missing from either. The RFC text is
//! kept verbatim beside the grammar (`grammars/*-appendix-a.txt`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeMap;

use grammar::{Grammar, rfc2396, rfc3986};

/// Is this line a page footer or header of RFC text?
fn page_break(line: &str) -> bool {
    let t = line.trim_start_matches('\u{c}');
    t.starts_with("Berners-Lee, et")
        || ((t.starts_with("RFC 3986 ") || t.starts_with("RFC 2396 "))
            && t.contains("URI Generic Syntax"))
}

/// The text of a line without its `;` comment (a `;` inside a literal is
/// not a comment).
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => return line.get(..i).unwrap_or(line),
            _ => {}
        }
    }
    line
}

/// The rule name a line starts with (`name =` or `name =/`), if it does.
fn rule_start(line: &str) -> Option<(String, String)> {
    let t = line.trim_start();
    let name: String = t
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let rest = t.get(name.len()..)?.trim_start();
    let rhs = rest.strip_prefix('=')?;
    Some((name, rhs.to_owned()))
}

/// Rules of grammar text (an appendix or a grammar file): name and
/// right-hand side with runs of white space made one space.
fn rules(text: &str, skip_title: bool) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        if (skip_title && i == 0) || page_break(line) {
            continue;
        }
        let line = strip_comment(line.trim_start_matches('\u{c}'));
        if line.trim().is_empty() {
            continue;
        }
        if let Some((name, rhs)) = rule_start(line) {
            assert!(!out.contains_key(&name), "rule {name} twice");
            out.insert(name.clone(), rhs);
            current = Some(name);
        } else {
            let name = current
                .as_ref()
                .expect("a continuation line before any rule");
            let body = out.get_mut(name).unwrap();
            body.push(' ');
            body.push_str(line);
        }
    }
    out.into_iter()
        .map(|(k, v)| (k, v.split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect()
}

fn same_rules(grammar_file: &str, appendix: &str) -> usize {
    let file = rules(grammar_file, false);
    let rfc = rules(appendix, true);
    assert_eq!(
        file.keys().collect::<Vec<_>>(),
        rfc.keys().collect::<Vec<_>>(),
        "the grammar file and the RFC text define different rules"
    );
    for (name, rhs) in &file {
        assert_eq!(Some(rhs), rfc.get(name), "rule {name}");
    }
    file.len()
}

#[test]
fn each_rule_of_rfc3986_abnf_is_the_rule_of_rfc_3986_appendix_a() {
    assert_eq!(same_rules(rfc3986::GRAMMAR, rfc3986::APPENDIX_A), 36);
    let rfc = rules(rfc3986::APPENDIX_A, true);
    assert_eq!(rfc["path-empty"], "0<pchar>");
    assert_eq!(rfc["h16"], "1*4HEXDIG");
}

#[test]
fn each_rule_of_rfc2396_bnf_is_the_rule_of_rfc_2396_appendix_a() {
    assert_eq!(same_rules(rfc2396::GRAMMAR, rfc2396::APPENDIX_A), 40);
    let rfc = rules(rfc2396::APPENDIX_A, true);
    assert_eq!(rfc["abs_path"], "\"/\" path_segments");
}

#[test]
fn the_appendix_files_are_the_rfc_pages() {
    assert!(rfc3986::APPENDIX_A.starts_with("Appendix A.  Collected ABNF for URI\n"));
    assert!(rfc3986::APPENDIX_A.contains("[Page 49]\n\u{c}\nRFC 3986                   URI Generic Syntax               January 2005\n"));
    assert!(rfc2396::APPENDIX_A.starts_with("A. Collected BNF for URI\n"));
    assert!(rfc2396::APPENDIX_A.contains(
        "[Page 27]\n\nRFC 2396                   URI Generic Syntax                August 1998\n"
    ));
}

/// The engine reads every rule of each file, and supplies exactly the core
/// rules RFC 3986 section 1.3 names (ALPHA, DIGIT, HEXDIG).
#[test]
fn the_engine_reads_both_files_rule_for_rule() {
    let g = Grammar::abnf(rfc3986::GRAMMAR).unwrap();
    let mut core: Vec<&str> = g.rule_names().filter(|n| g.is_core_rule(n)).collect();
    core.sort_unstable();
    assert_eq!(core, ["ALPHA", "DIGIT", "HEXDIG"]);
    let file = rules(rfc3986::GRAMMAR, false);
    let own: Vec<&str> = g.rule_names().filter(|n| !g.is_core_rule(n)).collect();
    assert_eq!(own.len(), file.len());
    assert!(own.iter().all(|n| file.contains_key(*n)));

    let g = Grammar::bnf(rfc2396::GRAMMAR).unwrap();
    let file = rules(rfc2396::GRAMMAR, false);
    assert_eq!(g.rule_names().count(), file.len());
    assert!(g.rule_names().all(|n| file.contains_key(n)));
    // Every rule can be a start rule.
    for name in g.rule_names() {
        g.parser(name, &[]).unwrap();
    }
}
