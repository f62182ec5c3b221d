//! `uridiff bypass`: which validator/fetcher pairs a host confusion
//! defeats, as a matrix of the shortest working inputs.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use uridiff::Harness;
use uridiff::bypass::{self, Aim, Goal, MAX_HOST_BYTES, Mark, Matrix, Place, Validator};
use uridiff::fetch::{self, Client, Observation, Observer};
use uridiff::input::MAX_INPUT_BYTES;
use uridiff::oracle::{self, OracleId};

use super::error::{Failure, Status, diagnostic};
use super::io::stdout;
use super::text::visible;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The host the validator accepts (at most 1024 bytes).
    #[arg(long, value_name = "HOST", default_value = bypass::DEFAULT_ALLOW)]
    allow: String,
    /// Where the request should go instead (at most 1024 bytes).
    #[arg(long, value_name = "HOST", default_value = bypass::DEFAULT_TARGET, conflicts_with_all = ["deny", "deny_name", "target_domain"])]
    target: String,
    /// Find denylist bypasses instead: the validator reads a name or a
    /// public address, the fetcher's resolver reaches PLACE: `internal`
    /// (all of these), `loopback`, `private`, `link-local`, `metadata` or
    /// `unspecified`. One parser may be validator and fetcher: its host
    /// `127.1` is a name, its client's resolver dials 127.0.0.1.
    #[arg(long, value_name = "PLACE", conflicts_with_all = ["deny_name", "allow_no_host", "target_domain"])]
    deny: Option<String>,
    /// Find name-blocklist bypasses instead: the validator's host is not
    /// NAME (ASCII case-insensitively, as `host.lower() != NAME` compares
    /// text; no host is not NAME either), yet the fetcher reaches NAME
    /// (`%65vil.example`, `evil.example.`). One parser may be validator
    /// and fetcher.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["allow_no_host", "target_domain"])]
    deny_name: Option<String>,
    /// The validator accepts an input in which it reads no host, as a
    /// relative, same-site URL (`urlsplit(u).hostname is None`;
    /// `split-host` and `suffix` reading an empty host); a bypass is such
    /// an input whose fetcher reaches the target (--target or
    /// --target-domain): `http:///evil.example/`. One parser may be
    /// validator and fetcher.
    #[arg(long)]
    allow_no_host: bool,
    /// Any name under DOMAIN (and DOMAIN) is the attacker's: the fetcher
    /// reaching one is a bypass (`http://allowed.example.evil.example/`
    /// past `prefix`). Instead of --target; --allow must not be under it.
    #[arg(long, value_name = "DOMAIN")]
    target_domain: Option<String>,
    /// A validator: an oracle id (`uridiff oracles`; a shipped adapter's
    /// name starts it) or a string check: `prefix`, `contains`, `suffix`,
    /// `split-host`, `regex:PATTERN`. Repeatable; default: every oracle of
    /// this build and the --oracle ones, and the four fixed string checks.
    #[arg(long, value_name = "NAME")]
    validator: Vec<String>,
    /// A fetcher: an oracle id (a shipped adapter's name starts it).
    /// Repeatable; default: every oracle of this build and the --oracle ones.
    #[arg(long, value_name = "NAME")]
    fetcher: Vec<String>,
    /// Confirm with real HTTP clients: each fetcher that is one (libcurl's
    /// easy API; urllib3; urllib.request for python-urllib; Node's
    /// http.get with url.parse for node-url and with new URL for ada; Go's
    /// net/http for go-net-url) sends the bypass's request to trap servers
    /// uridiff starts on loopback (the allowed host on 127.0.0.2, the
    /// target on 127.0.0.3, or the 127.x addresses given), names mapped in
    /// the client's own resolver hook; confirmed when it arrives at the
    /// target's trap carrying its own random token (header
    /// X-Uridiff-Token): any other request at a trap is a stray, counted
    /// and ignored. Nothing outside 127.0.0.0/8 and ::1 is dialled.
    #[arg(long)]
    confirm: bool,
    /// Observe instead of predicting (as root): every input a validator
    /// passes (the shortest per validator, fetcher, shape and spelling of
    /// the fetcher's host, the model's bypasses first, at most
    /// --observe-budget requests) goes through
    /// every client whose parser is the fetcher (`uridiff fetch`'s
    /// clients), run unmodified in a network namespace whose only
    /// interface is lo, names mapped by its own /etc/hosts and DNS trap.
    /// A cell is a bypass only where a client was observed reaching the
    /// target: its trap address (a name blocklist: the name's; a denylist:
    /// a loopback address), or a name under --target-domain asked of the
    /// resolver or sent as Host. The model's prediction stays as the
    /// explanation ("observed" in JSON: reached, predicted, client,
    /// address, resolved_name, host_header, error).
    #[arg(long, conflicts_with = "confirm")]
    observe: bool,
    /// The most requests --observe sends.
    #[arg(long, value_name = "N", default_value_t = 400)]
    observe_budget: usize,
    /// One JSON object per bypass per line (the shortest input per
    /// validator, fetcher, shape, place and spelling of the fetcher's
    /// host): {"validator", "fetcher", "input", "validator_host",
    /// "fetcher_host", "shape", "fetcher_place", "fetcher_address"}.
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// The matrix as the report's Markdown section (a table of cell
    /// numbers, then each cell's input; with --observe, each cell marked
    /// observed, not observed or not sent, with the client).
    #[arg(long)]
    markdown: bool,
    /// The matrix as an HTML page: the report's page with only its
    /// Bypasses section (with --observe, each cell marked as in
    /// --markdown).
    #[arg(long, conflicts_with_all = ["json", "markdown"])]
    html: bool,
    /// Also seed the search with every input of this saved corpus (its
    /// fuzz targets' directories and curated.txt); default: ./corpus when
    /// it is one. The signature examples built into uridiff always seed it.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Files of inputs to try, one per line, which may hold the `{allow}`
    /// and `{target}` placeholders (`-`: standard input). Repeatable. Read
    /// like `report --lines`: a line that is not UTF-8 or over the input
    /// limit (its slots filled) is named and skipped.
    #[arg(long, value_name = "PATH")]
    lines: Vec<PathBuf>,
    #[command(flatten)]
    externals: super::externals::ExternalArgs,
    /// Inputs to try, which may hold the `{allow}` and `{target}`
    /// placeholders.
    inputs: Vec<String>,
}

/// The goal the flags ask for.
fn goal(args: &Args) -> Result<Goal, Failure> {
    let hosts = [
        ("--allow", Some(&args.allow)),
        ("--target", Some(&args.target)),
        ("--deny-name", args.deny_name.as_ref()),
        ("--target-domain", args.target_domain.as_ref()),
    ];
    for (flag, host) in hosts {
        let Some(host) = host else { continue };
        if host.len() > MAX_HOST_BYTES {
            return Err(Failure::Usage(format!(
                "{flag}: {} bytes, over the {MAX_HOST_BYTES}-byte limit of a host (a DNS name is at most 253)",
                host.len()
            )));
        }
    }
    for (flag, name) in [
        ("--deny-name", args.deny_name.as_ref()),
        ("--target-domain", args.target_domain.as_ref()),
    ] {
        if name.is_some_and(|n| n.strip_suffix('.').unwrap_or(n).is_empty()) {
            return Err(Failure::Usage(format!("{flag}: an empty name")));
        }
    }
    if let Some(deny) = &args.deny {
        let places = Place::parse_deny(deny).ok_or_else(|| {
            Failure::Usage(format!(
                "--deny {deny}: not an internal place (internal, loopback, private, link-local, metadata, unspecified)"
            ))
        })?;
        return Ok(Goal::Deny {
            allow: args.allow.clone(),
            places,
        });
    }
    if let Some(name) = &args.deny_name {
        return Ok(Goal::DenyName {
            allow: args.allow.clone(),
            name: name.clone(),
        });
    }
    let aim = match &args.target_domain {
        Some(domain) => {
            if !args.allow_no_host && bypass::under_domain(&args.allow, domain) {
                return Err(Failure::Usage(format!(
                    "--allow {}: under --target-domain {domain}; the allowed host cannot be the attacker's",
                    args.allow
                )));
            }
            Aim::Domain(domain.clone())
        }
        None => Aim::Host(args.target.clone()),
    };
    if args.allow_no_host {
        return Ok(Goal::NoHost {
            allow: args.allow.clone(),
            aim,
        });
    }
    match aim {
        Aim::Domain(domain) => Ok(Goal::ReachDomain {
            allow: args.allow.clone(),
            domain,
        }),
        Aim::Host(target) => {
            if args.allow.eq_ignore_ascii_case(&target) {
                return Err(Failure::Usage(
                    "--allow and --target name the same host".to_owned(),
                ));
            }
            Ok(Goal::Reach {
                allow: args.allow.clone(),
                target,
            })
        }
    }
}

/// The oracles a run can ask: this build's parsers (not the references)
/// and the external ones started.
fn parsers(externals: &[OracleId]) -> Vec<OracleId> {
    oracle::registry()
        .iter()
        .filter(|info| info.validates && !info.reference)
        .map(|info| info.id)
        .chain(externals.iter().copied())
        .filter(|id| !id.is_reference())
        .collect()
}

/// An oracle id the run has, or a usage error listing those it has.
fn known_parser(name: &str, flag: &str, available: &[OracleId]) -> Result<OracleId, Failure> {
    available
        .iter()
        .copied()
        .find(|id| id.as_str() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = available.iter().map(OracleId::as_str).collect();
            Failure::Usage(format!(
                "{flag} {name}: not an oracle of this run (have: {}{})",
                names.join(", "),
                if flag == "--validator" {
                    ", prefix, contains, suffix, split-host, regex:PATTERN"
                } else {
                    ""
                }
            ))
        })
}

/// The inputs given on the command line and in --lines files that can be
/// checked for `goal`. A --lines file is read line by line, as `report
/// --lines` reads one: a line that is no input (over the input limit, not
/// UTF-8) is reported and skipped, the rest are used. So is an input that,
/// its slots filled with the hosts of `goal`, would be over the input limit
/// (a long `--allow` in many `{allow}` slots). When inputs were given and
/// none is left, nothing the user asked about would be checked: an error.
fn given_inputs(args: &Args, goal: &Goal) -> Result<Vec<String>, Failure> {
    let mut given = Vec::new();
    let mut skipped = 0usize;
    let mut keep = |text: String, from: &dyn Fn() -> String, skipped: &mut usize| {
        if let Err(too_long) = bypass::fits(&text, goal) {
            diagnostic(format_args!(
                "{}: with its slots filled the input would be {too_long}; not checked",
                from()
            ));
            *skipped += 1;
        } else {
            given.push(text);
        }
    };
    for (n, input) in args.inputs.iter().enumerate() {
        let from = || {
            let start: String = input.chars().take_while(|&c| c != '\n').take(40).collect();
            let more = if start.len() < input.len() { "…" } else { "" };
            format!("INPUT {} (\"{start}{more}\")", n + 1)
        };
        keep(input.clone(), &from, &mut skipped);
    }
    for path in &args.lines {
        for line in super::io::file_lines(path)? {
            let (number, text) = line?;
            let from = || format!("--lines {}:{number}", path.display());
            match text {
                Ok(text) if text.is_empty() => {}
                Ok(text) => keep(text, &from, &mut skipped),
                Err(why) => {
                    diagnostic(format_args!("{}: {why}; not checked", from()));
                    skipped += 1;
                }
            }
        }
    }
    if given.is_empty() && skipped > 0 {
        let which = if skipped == 1 {
            "the input given cannot be".to_owned()
        } else {
            format!("none of the {skipped} inputs given can be")
        };
        return Err(Failure::Usage(format!(
            "nothing was checked: {which} (said above); an input must be UTF-8 text within the {MAX_INPUT_BYTES}-byte input limit once its slots are filled"
        )));
    }
    Ok(given)
}

/// The seeds: the built-in signature examples and curated inputs, and the
/// saved corpus's inputs when there is one.
fn seeds(args: &Args) -> Result<Vec<String>, Failure> {
    let mut seeds: BTreeSet<String> = bypass::built_in_seeds().into_iter().collect();
    let root = match &args.corpus {
        Some(dir) => {
            if !uridiff::corpus::is_corpus(dir) {
                return Err(Failure::Usage(format!(
                    "--corpus {}: not a saved corpus (no curated.txt or fuzz target directories)",
                    dir.display()
                )));
            }
            Some(dir.clone())
        }
        None => {
            let here = PathBuf::from("corpus");
            uridiff::corpus::is_corpus(&here).then_some(here)
        }
    };
    if let Some(root) = root {
        let corpus = uridiff::corpus::load(&root)
            .map_err(|e| Failure::Usage(format!("--corpus {}: {e}", root.display())))?;
        seeds.extend(corpus.inputs.into_keys());
    }
    Ok(seeds.into_iter().collect())
}

pub(crate) fn run(args: &Args, sandbox: super::fetch::Sandbox) -> Result<Status, Failure> {
    let goal = goal(args)?;
    let given = given_inputs(args, &goal)?;
    // A shipped adapter named as validator or fetcher is started as if
    // given with --oracle.
    let shipped = uridiff::oracle::external::shipped_names();
    let named: Vec<String> = args
        .validator
        .iter()
        .chain(&args.fetcher)
        .filter(|n| shipped.contains(&n.as_str()))
        .cloned()
        .collect();
    let external_args = args.externals.with_shipped(&named);
    let mut validators = Vec::new();
    for name in &args.validator {
        validators.push(Validator::parse(name).map_err(Failure::Usage)?);
    }
    for name in &args.fetcher {
        if bypass::StringCheck::parse(name)
            .map_err(Failure::Usage)?
            .is_some()
        {
            return Err(Failure::Usage(format!(
                "--fetcher {name}: a string check validates, it fetches nothing"
            )));
        }
    }
    let seeds = seeds(args)?;
    let externals = super::externals::start_if_asked(&external_args).map_err(Failure::Usage)?;
    let external_ids: Vec<OracleId> = externals.as_ref().map(|e| e.ids()).unwrap_or_default();
    let available = parsers(&external_ids);
    for v in &validators {
        if let Some(id) = v.parser() {
            known_parser(id.as_str(), "--validator", &available)?;
        }
    }
    if validators.is_empty() {
        validators = bypass::default_validators(&available);
    }
    let fetchers: Vec<OracleId> = if args.fetcher.is_empty() {
        available.clone()
    } else {
        args.fetcher
            .iter()
            .map(|name| known_parser(name, "--fetcher", &available))
            .collect::<Result<_, _>>()?
    };
    let mut builder = Harness::builder();
    if let Some(externals) = externals {
        builder = builder.externals(Box::new(externals));
    }
    let mut harness = builder.build();
    let mut matrix = bypass::search_with(
        &mut harness,
        &seeds,
        &given,
        &validators,
        &fetchers,
        &goal,
        args.observe,
    );
    let observed = if args.observe {
        let summary = observe(&mut matrix, args.observe_budget, sandbox)?;
        for e in &summary.errors {
            diagnostic(format_args!("--observe: {e}"));
        }
        if summary.budget_spent {
            diagnostic(format_args!(
                "--observe: the budget of {} requests ran out before every candidate was sent (--observe-budget); the cells of those not sent count as not observed",
                args.observe_budget
            ));
        }
        Some(summary)
    } else {
        None
    };
    let mut status = if matrix.is_empty() {
        Status::Clean
    } else {
        Status::Found
    };
    let summary = if args.confirm {
        let summary = bypass::confirm::confirm(&mut matrix, bypass::confirm::Budget::default());
        if let Some(why) = &summary.not_confirmable {
            diagnostic(format_args!("--confirm: {why}"));
            status = Status::Error;
        }
        for e in &summary.errors {
            diagnostic(format_args!("--confirm: {e}"));
            status = Status::Error;
        }
        Some(summary)
    } else {
        None
    };
    let mut out = stdout();
    if args.json {
        for b in matrix.all() {
            writeln!(out, "{}", serde_json::to_string(b)?)?;
        }
    } else if args.markdown {
        uridiff::report::md::bypass_section(&mut out, &matrix)?;
    } else if args.html {
        let mut page = uridiff::report::Builder::new();
        page.bypass(matrix);
        uridiff::report::html::write(&page.finish(), &mut out)?;
    } else {
        write_text(&mut out, &matrix, &goal, summary.as_ref())?;
        if let Some(observed) = &observed {
            write_observed(&mut out, &matrix, observed)?;
        }
    }
    out.flush()?;
    for error in harness.finish() {
        diagnostic(error);
        status = Status::Error;
    }
    Ok(status)
}

/// What `--observe` did.
#[derive(Debug, Default)]
struct ObserveSummary {
    requests: usize,
    budget_spent: bool,
    errors: Vec<String>,
    without_client: Vec<String>,
}

/// The address each mapped name stands for, and where a request must
/// arrive (or what it must ask for) to reach the goal's target.
fn reached(goal: &Goal, map: &[(String, IpAddr)], seen: &Observation) -> bool {
    let mapped = |name: &str| {
        let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
        map.iter().find(|(n, _)| *n == name).map(|(_, ip)| *ip)
    };
    let at = |host: &str| match bypass::read(host, bypass::Reading::Literal) {
        bypass::Read::Address(a) => Some(a),
        bypass::Read::Name(n) => mapped(&n),
    };
    let under = |domain: &str| {
        seen.resolved_name
            .as_deref()
            .is_some_and(|n| bypass::under_domain(n, domain))
            || seen
                .host_header
                .as_deref()
                .map(|h| {
                    h.rsplit_once(':')
                        .filter(|(_, p)| p.bytes().all(|b| b.is_ascii_digit()))
                        .map_or(h, |(h, _)| h)
                })
                .is_some_and(|h| bypass::under_domain(h, domain))
    };
    match goal {
        Goal::Reach { target, .. }
        | Goal::NoHost {
            aim: Aim::Host(target),
            ..
        } => seen.address.is_some() && seen.address == at(target),
        Goal::DenyName { name, .. } => seen.address.is_some() && seen.address == mapped(name),
        Goal::Deny { places, .. } => seen.address.is_some_and(|a| {
            places.contains(&bypass::place_of(a))
                && !map
                    .iter()
                    .any(|(_, ip)| *ip == a && a != IpAddr::from(std::net::Ipv4Addr::LOCALHOST))
        }),
        Goal::ReachDomain { domain, .. }
        | Goal::NoHost {
            aim: Aim::Domain(domain),
            ..
        } => under(domain),
    }
}

/// Sends the matrix's candidates through the real clients in the network
/// namespace and marks each with what was observed.
fn observe(
    matrix: &mut Matrix,
    budget: usize,
    sandbox: super::fetch::Sandbox,
) -> Result<ObserveSummary, Failure> {
    use super::fetch::Sandbox;
    match sandbox {
        Sandbox::Entered => {}
        Sandbox::NotAsked => {
            return Err(Failure::Usage(
                "--observe: no network namespace was entered".to_owned(),
            ));
        }
        Sandbox::Unavailable(why) => {
            return Err(Failure::Usage(format!(
                "--observe needs a network namespace (run as root): {why}"
            )));
        }
    }
    let isolation = fetch::netns::isolation();
    if !isolation.holds() {
        return Err(Failure::Usage(format!(
            "--observe: the network namespace is not isolated, nothing is sent: {isolation:?}"
        )));
    }
    let goal = matrix.goal.clone();
    let mut names: Vec<&str> = vec![goal.allow()];
    let target_names: Vec<String> = match &goal {
        Goal::Reach { target, .. }
        | Goal::NoHost {
            aim: Aim::Host(target),
            ..
        } => vec![target.clone()],
        Goal::DenyName { name, .. } => vec![name.clone()],
        Goal::Deny { .. } | Goal::ReachDomain { .. } | Goal::NoHost { .. } => Vec::new(),
    };
    names.extend(target_names.iter().map(String::as_str));
    let map = fetch::name_map(names.into_iter().filter(|n| {
        matches!(
            bypass::read(n, bypass::Reading::Literal),
            bypass::Read::Name(_)
        )
    }));
    // The model's bypasses first, then what the validators pass whatever
    // the fetcher's parser reads; each (client, input) is sent once.
    let mut order: Vec<(bool, bypass::Bypass)> = matrix.all().map(|b| (true, b.clone())).collect();
    order.extend(matrix.passed().map(|b| (false, b.clone())));
    let inputs: Vec<String> = order.iter().map(|(_, b)| b.input.clone()).collect();
    let mut observer = Observer::namespace(
        map.clone(),
        &super::fetch::ports_of(&inputs),
        Duration::from_secs(5),
    )
    .map_err(Failure::Usage)?;
    let mut summary = ObserveSummary::default();
    let mut clients: BTreeMap<&'static str, Option<Client>> = BTreeMap::new();
    let mut seen: BTreeMap<(&'static str, String), Observation> = BTreeMap::new();
    let mut results: Vec<(bool, bypass::Bypass)> = Vec::new();
    for (predicted, mut b) in order {
        let infos: Vec<&'static fetch::ClientInfo> = fetch::clients()
            .iter()
            .filter(|c| c.parser == Some(b.fetcher.as_str()))
            .collect();
        if infos.is_empty() {
            if !summary.without_client.contains(&b.fetcher) {
                summary.without_client.push(b.fetcher.clone());
            }
            continue;
        }
        let mut first: Option<Observation> = None;
        let mut hit: Option<Observation> = None;
        for info in infos {
            let key = (info.id, b.input.clone());
            let observation = if let Some(o) = seen.get(&key) {
                o.clone()
            } else {
                if summary.requests >= budget {
                    summary.budget_spent = true;
                    break;
                }
                let client = clients.entry(info.id).or_insert_with(|| {
                    match Client::start_in(info, Duration::from_secs(180), fetch::Mode::Namespace) {
                        Ok(c) => Some(c),
                        Err(e) => {
                            summary.errors.push(format!("{}: {e}", info.id));
                            None
                        }
                    }
                });
                let Some(client) = client.as_mut() else {
                    continue;
                };
                summary.requests += 1;
                let o = observer.observe(client, &b.input);
                seen.insert(key, o.clone());
                o
            };
            if reached(&goal, &map, &observation) {
                hit = Some(observation);
                break;
            }
            first.get_or_insert(observation);
        }
        let Some(o) = hit.as_ref().or(first.as_ref()) else {
            continue;
        };
        b.observed = Some(bypass::Observed {
            reached: hit.is_some(),
            predicted,
            client: o.client.to_owned(),
            address: o.address.map(|a| a.to_string()),
            resolved_name: o.resolved_name.clone(),
            host_header: o.host_header.clone(),
            error: o.error.clone(),
        });
        results.push((predicted, b));
    }
    for (id, client) in clients {
        if let Some(client) = client {
            for e in client.finish() {
                summary.errors.push(format!("{id}: {e}"));
            }
        }
    }
    for (predicted, b) in results {
        if predicted {
            if let Some(kept) = matrix.all_mut().find(|k| {
                k.validator == b.validator && k.fetcher == b.fetcher && k.input == b.input
            }) {
                kept.observed = b.observed;
            }
        } else if b.observed.as_ref().is_some_and(|o| o.reached) {
            matrix.add_observed(b);
        }
    }
    matrix.observation = bypass::Confirmation::Ran;
    Ok(summary)
}

/// `--observe`'s account: requests, and each cell the model predicted
/// that no client was observed to carry out, with what was seen instead.
fn write_observed(
    out: &mut impl Write,
    matrix: &Matrix,
    summary: &ObserveSummary,
) -> Result<(), Failure> {
    writeln!(
        out,
        "\nobserved in a network namespace: {} requests{}{}",
        summary.requests,
        if summary.budget_spent {
            ", budget spent"
        } else {
            ""
        },
        if summary.without_client.is_empty() {
            String::new()
        } else {
            format!(
                "; no client for {} (their cells are not observed, so not bypasses)",
                summary.without_client.join(", ")
            )
        }
    )?;
    let dropped: Vec<&bypass::Bypass> = matrix
        .all()
        .filter(|b| {
            b.observed
                .as_ref()
                .is_some_and(|o| o.predicted && !o.reached)
        })
        .filter(|b| matrix.cell(&b.validator, &b.fetcher).is_none())
        .collect();
    let mut told = BTreeSet::new();
    for b in dropped {
        if !told.insert((&b.validator, &b.fetcher)) {
            continue;
        }
        if let Some(o) = &b.observed {
            writeln!(
                out,
                "  predicted, not observed: {} -> {}: {}: {} {}",
                visible(&b.validator),
                b.fetcher,
                visible(&b.input),
                o.client,
                match (&o.address, &o.error) {
                    (_, Some(e)) => format!("failed: {}", uridiff::text::visible_lines(e)),
                    (Some(a), None) => format!(
                        "arrived at {a} (Host {})",
                        o.host_header.as_deref().map(visible).unwrap_or_default()
                    ),
                    (None, None) => "arrived nowhere".to_owned(),
                }
            )?;
        }
    }
    Ok(())
}

/// The matrix as text: a grid of cell numbers, then each cell's input.
fn write_text(
    out: &mut impl Write,
    matrix: &Matrix,
    goal: &Goal,
    confirmed: Option<&bypass::confirm::Summary>,
) -> Result<(), Failure> {
    match goal {
        Goal::Reach { allow, target } => writeln!(
            out,
            "bypass: the validator reads host \"{}\", the fetcher \"{}\"",
            visible(allow),
            visible(target)
        )?,
        Goal::Deny { places, .. } => {
            let names: Vec<&str> = places.iter().map(|p| p.as_str()).collect();
            writeln!(
                out,
                "bypass of a denylist: the validator reads a name or a public address, the fetcher's resolver reaches {}",
                names.join(", ")
            )?;
        }
        Goal::DenyName { .. } | Goal::ReachDomain { .. } | Goal::NoHost { .. } => {
            writeln!(out, "bypass: the validator {}", visible(&goal.describe()))?;
        }
    }
    writeln!(
        out,
        "{} inputs checked; {} of {} validator/fetcher pairs bypassed",
        matrix.checked,
        matrix.cells_found(),
        matrix.validators.len() * matrix.fetchers.len()
    )?;
    if let Some(summary) = confirmed
        && let Some(why) = &summary.not_confirmable
    {
        writeln!(
            out,
            "confirmed by real clients on loopback: none, confirmation did not run ({})",
            visible(why)
        )?;
    } else if let Some(summary) = confirmed {
        writeln!(
            out,
            "confirmed by real clients on loopback: {} of those pairs ({} requests{}){}{}",
            matrix.cells_confirmed(),
            summary.requests,
            if summary.budget_spent {
                ", budget spent"
            } else {
                ""
            },
            if summary.without_client.is_empty() {
                String::new()
            } else {
                format!("; no HTTP client for {}", summary.without_client.join(", "))
            },
            // Hits without the token of the request out confirm nothing;
            // a number here means something else reached the traps.
            match summary.strays {
                0 => String::new(),
                1 => "; 1 stray request at the traps ignored (without the request's token)"
                    .to_owned(),
                n => format!(
                    "; {n} stray requests at the traps ignored (without the request's token)"
                ),
            }
        )?;
    }
    writeln!(out)?;
    let width = matrix
        .validators
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(0)
        .max("validator \\ fetcher".len());
    write!(out, "{:<width$}", "validator \\ fetcher")?;
    for f in &matrix.fetchers {
        write!(out, "  {f}")?;
    }
    writeln!(out)?;
    let (rows, listed) = matrix.grid();
    for (v, row) in matrix.validators.iter().zip(&rows) {
        write!(out, "{:<width$}", visible(v))?;
        for (f, mark) in matrix.fetchers.iter().zip(row) {
            let mark = match mark {
                Mark::Same => "=".to_owned(),
                Mark::None => "·".to_owned(),
                Mark::Bypass(n, b) if b.confirmed_by.is_some() => format!("{n}✔"),
                Mark::Bypass(n, b) => format!("{n}{}", matrix.seen(b).mark().trim_start()),
            };
            write!(out, "  {mark:^w$}", w = f.len())?;
        }
        writeln!(out)?;
    }
    if !listed.is_empty() {
        writeln!(out)?;
    }
    for (n, b) in listed.iter().enumerate() {
        writeln!(
            out,
            "{:>3}  {} -> {}: {}",
            n + 1,
            visible(&b.validator),
            b.fetcher,
            visible(&b.input)
        )?;
        writeln!(
            out,
            "     {} reads {}, {} reads {} ({}{}); shape {}",
            visible(&b.validator),
            b.validator_host
                .as_deref()
                .map_or_else(|| "no host".to_owned(), |h| format!("\"{}\"", visible(h))),
            b.fetcher,
            if b.fetcher_host.is_empty() {
                "no host".to_owned()
            } else {
                format!("\"{}\"", visible(&b.fetcher_host))
            },
            b.fetcher_place,
            b.fetcher_address
                .as_deref()
                .map(|a| format!(" {a}"))
                .unwrap_or_default(),
            b.shape
        )?;
        if let Some(client) = &b.confirmed_by {
            writeln!(
                out,
                "     confirmed: {client}'s request arrived at the target's trap"
            )?;
        }
        let seen = matrix.seen(b);
        if let Some(o) = &b.observed
            && seen != bypass::Seen::NotAsked
        {
            writeln!(
                out,
                "     {}; the model {}",
                seen.words(|v| format!("\"{}\"", uridiff::text::visible_lines(v))),
                if o.predicted {
                    "predicted it"
                } else {
                    "did not predict it (the client rewrote the URL)"
                }
            )?;
        } else if seen == bypass::Seen::NotSent {
            writeln!(out, "     {}", seen.words(|v| v.to_owned()))?;
        }
    }
    if listed.is_empty() {
        writeln!(out, "no bypass")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(summary: &bypass::confirm::Summary) -> String {
        let goal = Goal::Reach {
            allow: "allowed.example".into(),
            target: "evil.example".into(),
        };
        let matrix = Matrix::new(&[], &[], &goal);
        let mut out = Vec::new();
        write_text(&mut out, &matrix, &goal, Some(summary)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strays_are_told_when_there_are_some() {
        let mut summary = bypass::confirm::Summary {
            requests: 4,
            ..Default::default()
        };
        assert!(!text(&summary).contains("stray"), "{}", text(&summary));
        summary.strays = 2;
        assert!(
            text(&summary).contains(
                "(4 requests); 2 stray requests at the traps ignored (without the request's token)\n"
            ),
            "{}",
            text(&summary)
        );
    }
}
