//! The HTML report: one self-contained offline page (inline style and
//! script, nothing fetched). The report's sections are embedded as JSON; a
//! small script lists every signature with its examples and lets a person
//! filter by severity, basis, class and parser, search, sort, and expand any
//! example to its side-by-side table of every parser's components.
//!
//! The page's state lives in the address's fragment
//! (`#severity=high&basis=defect&q=evil&sort=count&expand=3`), so a view can
//! be linked to, and a headless browser can be pointed at one (the test in
//! `tests/it/html_report.rs` does).

use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;

use super::{Example, Group, PairCount, Report, Totals};
use crate::text::{Reader, reproduce};

#[derive(Serialize)]
struct ExampleData<'r> {
    input: &'r str,
    #[serde(skip_serializing_if = "Option::is_none")]
    base: Option<&'r str>,
    source: &'r str,
    /// The command a person pastes ([`Reader::Person`]: no hidden
    /// character, so the page shows it exactly).
    reproduce: String,
    case: &'r serde_json::Value,
}

#[derive(Serialize)]
struct GroupData<'r> {
    #[serde(flatten)]
    group: &'r Group,
    examples: Vec<ExampleData<'r>>,
}

#[derive(Serialize)]
struct PairData<'r> {
    #[serde(flatten)]
    pair: &'r PairCount,
    example: ExampleData<'r>,
}

#[derive(Serialize)]
struct Data<'r> {
    totals: &'r Totals,
    groups: Vec<GroupData<'r>>,
    pairs: Vec<PairData<'r>>,
    unexplained: Vec<ExampleData<'r>>,
    non_utf8: &'r [String],
    not_checked: &'r [(String, String)],
    external_errors: &'r [String],
    missing_references: &'r [String],
    root_causes: Vec<super::RootCauseGroup<'r>>,
    bypass: Option<&'r crate::bypass::Matrix>,
}

fn example(e: &Example) -> ExampleData<'_> {
    ExampleData {
        input: &e.input,
        base: e.base.as_deref(),
        source: &e.source,
        reproduce: reproduce(
            &e.input,
            e.base.as_deref(),
            Some(Path::new(&e.source)),
            Reader::Person,
        ),
        case: &e.case,
    }
}

/// `json` made safe to stand inside `<script type="application/json">`
/// and unable to act on the page's source:
///
/// - `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026`: with no `<`, nothing
///   in the data can end the element (`</script>`) or enter the HTML
///   tokenizer's escaped states (`<!--` then `<script>`, in which the
///   element's own end tag no longer ends it: HTML Living Standard, 13.2.5,
///   script data states);
/// - U+2028 and U+2029, which end a line in JavaScript source before
///   ES2019, and every other hidden character ([`crate::text::is_hidden`]),
///   as `\uXXXX` (a surrogate pair above U+FFFF), so that not even the
///   page's source shows them raw.
///
/// They occur only inside JSON strings, where the escape means the same
/// character (RFC 8259 section 7), so the data stays exact.
fn escape_for_script(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        let escaped = matches!(c, '<' | '>' | '&') || (crate::text::is_hidden(c) && !c.is_ascii());
        if escaped {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes the page.
pub fn write(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let data = Data {
        totals: &report.totals,
        groups: report
            .groups
            .iter()
            .map(|g| GroupData {
                group: g,
                examples: g.examples.iter().map(example).collect(),
            })
            .collect(),
        pairs: report
            .pairs
            .iter()
            .map(|p| PairData {
                pair: p,
                example: example(&p.example),
            })
            .collect(),
        unexplained: report.unexplained.iter().map(example).collect(),
        non_utf8: &report.non_utf8,
        not_checked: &report.not_checked,
        external_errors: &report.external_errors,
        missing_references: &report.missing_references,
        root_causes: report.root_causes(),
        bypass: report.bypass.as_ref(),
    };
    let json = escape_for_script(&serde_json::to_string(&data)?);
    write!(out, "{HEAD}")?;
    writeln!(
        out,
        "<script type=\"application/json\" id=\"data\">{json}</script>"
    )?;
    write!(out, "{BODY}")
}

const HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>uridiff disagreement report</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
th.sort{cursor:pointer;text-decoration:underline}
td.n{text-align:right}
code{background:#f4f4f4;padding:0 .2em;word-break:break-all}
.high{color:#b00020;font-weight:bold}.medium{color:#a15c00}.low{color:#555}
.defect{background:#fff4e5}.unexplained{background:#fde8e8}
#filters label{margin-right:1em}
.example{cursor:pointer}
.detail td.diff{background:#fde8e8}
.hidden{display:none}
#bypass td.hit{background:#c62828;color:#fff;text-align:center}
#bypass td.confirmed{background:#6a0010;color:#fff;text-align:center;font-weight:bold}
#bypass td.none{background:#e8f5e9;text-align:center;color:#2e7d32}
#bypass td.self{background:#eee;text-align:center;color:#999}
#bypass td.unobserved{background:#fff3e0;text-align:center;color:#6d4c41}
</style>
</head>
<body>
<h1>uridiff disagreement report</h1>
<noscript><p>This page lists its data with a script; the same report is available as Markdown
(<code>uridiff report --format md</code>).</p></noscript>
"#;

const BODY: &str = r##"<h2>Summary</h2>
<table id="totals"></table>
<div id="external"></div>
<h2>Root causes</h2>
<table id="rootcauses"><thead><tr><th>root cause</th><th>parser</th><th>status</th><th>upstream</th><th>signatures</th><th>inputs</th></tr></thead><tbody></tbody></table>
<h2>Signatures</h2>
<div id="filters">
<label>severity <select id="f-severity"><option value="">any</option><option>high</option><option>medium</option><option>low</option></select></label>
<label>basis <select id="f-basis"><option value="">any</option><option>defect</option><option>spec</option><option>unexplained</option></select></label>
<label>class <select id="f-class"><option value="">any</option></select></label>
<label>parser <select id="f-oracle"><option value="">any</option></select></label>
<label>search <input id="f-q" type="search" placeholder="input, effect, signature"></label>
</div>
<p id="shown"></p>
<table id="groups"><thead><tr>
<th class="sort" data-sort="severity">severity</th><th class="sort" data-sort="signature">signature</th>
<th class="sort" data-sort="count">inputs</th><th>effect</th><th>examples (click to expand)</th>
</tr></thead><tbody></tbody></table>
<h2>Host confusions per parser pair</h2>
<table id="pairs"><thead><tr><th>parsers</th><th>inputs</th><th>same address, other spelling</th><th>shortest example</th><th>hosts</th></tr></thead><tbody></tbody></table>
<h2>Bypasses</h2>
<p id="bypass-summary"></p>
<table id="bypass"><thead></thead><tbody></tbody></table>
<ol id="bypass-list"></ol>
<h2>Inputs not checked</h2>
<ul id="unchecked"></ul>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const RANK = {high: 3, medium: 2, low: 1};
// Hidden characters (controls, bidirectional controls, invisibles) shown as
// \u{...}, and a run of backslashes before "u{" or a hidden character
// doubled, so that the six characters \u{200b} are not shown as U+200B is:
// the rule of uridiff::text::visible, which the tests hold this to.
const HIDDEN = "[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]|[\udb40-\udb43][\udc00-\udfff]";
const SHOWN = new RegExp("\\\\+(?=u\\{|" + HIDDEN + ")|" + HIDDEN, "g");
function visible(s) {
  return String(s).replace(SHOWN, m => m[0] === "\\" ? m + m : "\\u{" + m.codePointAt(0).toString(16) + "}");
}
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c));
  return e;
}
function code(s) { return el("code", {}, visible(s)); }
function state() {
  const p = new URLSearchParams(location.hash.slice(1));
  return {severity: p.get("severity") || "", basis: p.get("basis") || "", cls: p.get("class") || "",
          oracle: p.get("oracle") || "", q: p.get("q") || "", sort: p.get("sort") || "severity",
          expand: p.get("expand")};
}
function setState(change) {
  const s = Object.assign(state(), change);
  const p = new URLSearchParams();
  if (s.severity) p.set("severity", s.severity);
  if (s.basis) p.set("basis", s.basis);
  if (s.cls) p.set("class", s.cls);
  if (s.oracle) p.set("oracle", s.oracle);
  if (s.q) p.set("q", s.q);
  if (s.sort && s.sort !== "severity") p.set("sort", s.sort);
  if (s.expand !== null && s.expand !== undefined) p.set("expand", s.expand);
  history.replaceState(null, "", "#" + p.toString());
  render();
}
function detail(ex) {
  const c = ex.case, names = Object.keys(c.outcomes || {});
  const rows = ["verdict", "scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment"];
  const t = el("table", {class: "detail"});
  t.append(el("tr", {}, el("th", {}, ""), ...names.map(n => el("th", {}, n))));
  const ref = (c.outcomes || {}).rfc2396 || {};
  for (const r of rows) {
    const tr = el("tr", {}, el("th", {}, r));
    for (const n of names) {
      const o = c.outcomes[n];
      let v;
      if (r === "verdict") v = o.verdict;
      else if (o.verdict !== "accept") v = "";
      else if (!(r in o)) v = "·";
      else v = o[r] === null ? "-" : "\"" + visible(o[r]) + "\"";
      const differs = r === "verdict" ? o.verdict !== ref.verdict : (o.verdict === "accept" && r in o && ref.verdict === "accept" && r in ref && o[r] !== ref[r]);
      tr.append(el("td", differs ? {class: "diff"} : {}, v));
    }
    t.append(tr);
  }
  const box = el("div", {class: "expanded"}, t);
  if (c.base !== undefined) box.prepend(el("p", {}, "base ", code(c.base), ", resolved by rfc2396 to ", code(c.resolved || "")));
  const f = el("ul", {});
  for (const x of c.findings || []) f.append(el("li", {class: x.basis}, x.class + " / " + x.basis + " / " + x.severity + " / " + x.oracle + " (" + x.fields.join(",") + "): " + visible(x.effect)));
  for (const h of c.host_confusions || []) f.append(el("li", {}, "host confusion " + h.oracles.join(" / ") + ": " + h.hosts.map(x => x === null ? "none" : visible(x)).join(" vs ")));
  box.append(f, el("p", {}, "reproduce: ", code(ex.reproduce), " (from ", code(ex.source), ")"));
  return box;
}
function render() {
  const s = state();
  for (const [id, v] of [["f-severity", s.severity], ["f-basis", s.basis], ["f-class", s.cls], ["f-oracle", s.oracle], ["f-q", s.q]]) document.getElementById(id).value = v;
  const q = s.q.toLowerCase();
  let groups = DATA.groups.map((g, i) => Object.assign({index: i}, g)).filter(g =>
    (!s.severity || g.severity === s.severity) && (!s.basis || g.basis === s.basis) &&
    (!s.cls || g.class === s.cls) && (!s.oracle || g.oracle === s.oracle) &&
    (!q || g.signature.toLowerCase().includes(q) || g.effect.toLowerCase().includes(q) ||
      g.examples.some(e => e.input.toLowerCase().includes(q))));
  const by = {severity: (a, b) => RANK[b.severity] - RANK[a.severity] || b.count - a.count,
              count: (a, b) => b.count - a.count, signature: (a, b) => a.signature < b.signature ? -1 : 1};
  groups.sort(by[s.sort] || by.severity);
  const body = document.querySelector("#groups tbody");
  body.replaceChildren();
  let n = 0;
  for (const g of groups) {
    const list = el("ol", {});
    g.examples.forEach((ex, j) => {
      const key = g.index + "." + j;
      const item = el("li", {class: "example", "data-key": key}, code(ex.base !== undefined ? ex.base + "  +  " + ex.input : ex.input));
      item.addEventListener("click", () => setState({expand: s.expand === key ? null : key}));
      if (s.expand === key) item.append(detail(ex));
      list.append(item);
    });
    body.append(el("tr", {class: "group " + g.basis, "data-signature": g.signature},
      el("td", {class: g.severity}, g.severity), el("td", {}, code(g.signature)),
      el("td", {class: "n"}, String(g.count)), el("td", {}, visible(g.effect)), el("td", {}, list)));
    n++;
  }
  document.getElementById("shown").textContent = n + " of " + DATA.groups.length + " signatures shown";
}
function setup() {
  const t = DATA.totals, rows = [["inputs read", t.inputs], ["distinct UTF-8 inputs", t.distinct],
    ["not UTF-8 (not checked)", t.non_utf8], ["not checked", DATA.not_checked.length],
    ["valid RFC 2396 references", t.rfc2396_valid], ["with findings", t.with_findings],
    ["with a suspected parser defect", t.defects], ["with a host confusion", t.host_confusions],
    ["unexplained", t.unexplained]];
  for (const sev of ["high", "medium", "low"]) if (t.by_severity[sev]) rows.push(["highest severity " + sev, t.by_severity[sev]]);
  const totals = document.getElementById("totals");
  for (const [k, v] of rows) totals.append(el("tr", {}, el("th", {}, k), el("td", {class: "n"}, String(v))));
  const ext = document.getElementById("external");
  for (const e of DATA.external_errors) ext.append(el("p", {class: "unexplained"}, "external oracle failed: " + visible(e)));
  for (const e of DATA.missing_references) ext.append(el("p", {class: "unexplained"}, "reference missing (what it would decide is undecided): " + visible(e)));
  // Root causes, new ones ("to report upstream") first, as the report sorts them.
  const causes = document.querySelector("#rootcauses tbody");
  for (const r of DATA.root_causes) {
    causes.append(el("tr", {class: r.root_cause.status === "new" ? "unexplained" : ""},
      el("td", {}, code(r.root_cause.id)), el("td", {}, r.oracle), el("td", {}, r.root_cause.status),
      el("td", {}, r.root_cause.upstream ? visible(r.root_cause.upstream) : "none found"),
      el("td", {}, r.signatures.map(visible).join(" ")), el("td", {class: "n"}, String(r.inputs))));
  }
  const classes = [...new Set(DATA.groups.map(g => g.class))].sort();
  const oracles = [...new Set(DATA.groups.map(g => g.oracle))].sort();
  for (const c of classes) document.getElementById("f-class").append(el("option", {}, c));
  for (const o of oracles) document.getElementById("f-oracle").append(el("option", {}, o));
  const pairs = document.querySelector("#pairs tbody");
  for (const p of DATA.pairs) pairs.append(el("tr", {}, el("td", {}, p.oracles.join(" / ")),
    el("td", {class: "n"}, String(p.count)), el("td", {class: "n"}, String(p.same_address)),
    el("td", {}, code(p.example.input)), el("td", {}, p.hosts.map(h => h === null ? "none" : visible(h)).join(" vs "))));
  // The bypass matrix: rows validate, columns fetch; a red cell is a
  // bypass (dark red: confirmed by a client on loopback), its number the
  // list entry below, its title the input.
  const bm = DATA.bypass;
  if (bm) {
    const goal = bm.target === null ? "denylist of " + bm.deny.join(", ") : visible(bm.allow) + " allowed, " + visible(bm.target) + " reached";
    // A count of zero confirmed means something only when confirmation ran.
    // --observe (src/bypass/seen.rs): what clients did with a shown bypass.
    const at = o => [o.address, o.resolved_name && "(resolved " + visible(o.resolved_name) + ")",
      o.host_header && "(Host " + visible(o.host_header) + ")"].filter(x => x).join(" ") || "nothing";
    const model = b => !b.observed || b.observed.predicted ? "; the model predicted it" : "; the model did not predict it (the client rewrote the URL)";
    const seen = b => bm.observation !== "ran" ? ["", ""] : !b.observed ? [" ?", "not sent" + model(b)]
      : b.observed.reached ? [" ✔", "observed: " + b.observed.client + " reached " + at(b.observed) + model(b)]
      : [" ✗", "not observed: " + b.observed.client + (b.observed.error ? " failed: " + visible(b.observed.error) : " went to " + at(b.observed)) + model(b)];
    const confirmed = bm.observation === "ran" ? "each observed in a network namespace: ✔ a client was observed carrying it to the target, ✗ the model predicted it and no client did (not a bypass), ? not sent"
      : bm.observation.startsWith("did not run") ? "none observed: observation " + visible(bm.observation) + ", so these are the parser model's predictions"
      : bm.confirmation === "ran" ? bm.confirmed + " confirmed by a real client"
      : bm.confirmation === "not asked" ? "none observed or confirmed: these are the parser model's predictions (without --model, as root, every candidate goes through the real clients in a network namespace; --confirm sends these through real clients on loopback)"
      : "none confirmed: confirmation " + visible(bm.confirmation);
    document.getElementById("bypass-summary").textContent = goal + ": " + bm.pairs_bypassed + " of " +
      (bm.validators.length * bm.fetchers.length) + " validator/fetcher pairs bypassed, " + confirmed +
      " (" + bm.checked + " inputs checked)";
    const head = el("tr", {}, el("th", {}, "validator \\ fetcher"));
    for (const f of bm.fetchers) head.append(el("th", {}, f));
    document.querySelector("#bypass thead").append(head);
    const body = document.querySelector("#bypass tbody"), list = document.getElementById("bypass-list");
    let n = 0;
    for (const v of bm.validators) {
      const row = el("tr", {}, el("th", {}, visible(v)));
      for (const f of bm.fetchers) {
        const b = bm.cells.find(c => c.validator === v && c.fetcher === f)
          || (bm.unobserved_cells || []).find(c => c.validator === v && c.fetcher === f);
        if (v === f) row.append(el("td", {class: "self"}, "="));
        else if (!b) row.append(el("td", {class: "none"}, "·"));
        else {
          n += 1;
          const [mark, words] = seen(b);
          row.append(el("td", {class: b.confirmed_by ? "confirmed" : mark === " ✗" || mark === " ?" ? "unobserved" : "hit", title: visible(b.input)}, String(n) + (b.confirmed_by ? " ✔" : mark)));
          list.append(el("li", {}, v + " → " + f + ": ", code(b.input), " (" + v + " reads " +
            (b.validator_host === null ? "no host" : visible(b.validator_host)) + ", " + f + " reads " +
            visible(b.fetcher_host) + ", " + b.fetcher_place + "; shape " + b.shape +
            (b.confirmed_by ? "; confirmed by " + b.confirmed_by : "") + ")" + (words ? "; " + words + "." : "")));
        }
      }
      body.append(row);
    }
  }
  const un = document.getElementById("unchecked");
  for (const s of DATA.non_utf8) un.append(el("li", {}, code(s), ": not UTF-8"));
  for (const [s, why] of DATA.not_checked) un.append(el("li", {}, code(s), ": " + visible(why)));
  const map = {"f-severity": "severity", "f-basis": "basis", "f-class": "cls", "f-oracle": "oracle"};
  for (const [id, key] of Object.entries(map)) document.getElementById(id).addEventListener("change", e => setState({[key]: e.target.value, expand: null}));
  document.getElementById("f-q").addEventListener("input", e => setState({q: e.target.value, expand: null}));
  for (const th of document.querySelectorAll("th.sort")) th.addEventListener("click", () => setState({sort: th.dataset.sort}));
  window.addEventListener("hashchange", render);
  render();
}
setup();
</script>
</body>
</html>
"##;
