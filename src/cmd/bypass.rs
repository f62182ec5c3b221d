//! `uridiff bypass`: which validator/fetcher pairs a host confusion
//! defeats, as a matrix of the shortest working inputs.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;

use uridiff::Harness;
use uridiff::bypass::{self, Aim, Goal, MAX_HOST_BYTES, Matrix, Place, Validator};
use uridiff::input::MAX_INPUT_BYTES;
use uridiff::oracle::{self, OracleId};

mod observe;
mod plain;

use self::observe::{observe, write_observed};
use self::plain::write_text;
use super::error::{Failure, Status, diagnostic};
use super::io::stdout;

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
    /// Observe, or fail (exit 2) where it cannot: as root, every input a
    /// validator passes (the shortest per validator, fetcher, shape and
    /// spelling of the fetcher's host, the model's bypasses first, at most
    /// --observe-budget requests) goes through every client whose parser
    /// is the fetcher (`uridiff fetch`'s clients), run unmodified in a
    /// network namespace whose only interface is lo, names mapped by its
    /// own /etc/hosts and DNS trap. A cell is a bypass only where a client
    /// was observed reaching the target: its trap address (a name
    /// blocklist: the name's; a denylist: a loopback address), or a name
    /// under --target-domain asked of the resolver or sent as Host. The
    /// model's prediction stays as the explanation ("observed" in JSON:
    /// reached, predicted, client, address, resolved_name, host_header,
    /// error). This is what `bypass` does by default; without the flag,
    /// where no namespace can be entered (not root), the cells are the
    /// model's predictions and the output says so.
    #[arg(long, conflicts_with_all = ["confirm", "model"])]
    observe: bool,
    /// Print the parser model's predictions only, sending nothing: a cell
    /// is where the fetcher's parser reads the target, not where a client
    /// was seen to go (a parser's client may rewrite the URL before it
    /// dials, or fail).
    #[arg(long, conflicts_with = "confirm")]
    model: bool,
    /// The most requests observation sends (every in-process oracle and
    /// shipped adapter with the built-in seeds need about 1 600).
    #[arg(long, value_name = "N", default_value_t = 2000)]
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

/// A string check (`prefix`, `regex:...`) validates; named as a fetcher
/// it is a usage error.
fn no_string_check_fetches(fetchers: &[String]) -> Result<(), Failure> {
    for name in fetchers {
        if bypass::StringCheck::parse(name)
            .map_err(Failure::Usage)?
            .is_some()
        {
            return Err(Failure::Usage(format!(
                "--fetcher {name}: a string check validates, it fetches nothing"
            )));
        }
    }
    Ok(())
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
    no_string_check_fetches(&args.fetcher)?;
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
    // Observed unless told otherwise: the model alone claims cells a
    // client disproves (urllib.request passes the whole userinfo to the
    // resolver) and misses what clients rewrite before dialling.
    let unobserved = match (&sandbox, args.observe || args.model || args.confirm) {
        (super::fetch::Sandbox::Unavailable(why), false) => Some(why.clone()),
        _ => None,
    };
    let observing = args.observe || (!args.model && !args.confirm && unobserved.is_none());
    let mut matrix = bypass::search_with(
        &mut harness,
        &seeds,
        &given,
        &validators,
        &fetchers,
        &goal,
        observing,
    );
    let observed = if observing {
        Some(observe_told(&mut matrix, args.observe_budget, sandbox)?)
    } else {
        None
    };
    if let Some(why) = unobserved {
        let why = format!("no network namespace ({why}); run as root to observe, or give --model");
        diagnostic(format_args!(
            "bypass: not observed: {why}; the cells are the parser model's predictions"
        ));
        matrix.observation = bypass::Confirmation::DidNotRun(why);
    }
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
    write_matrix(args, matrix, &goal, summary.as_ref(), observed.as_ref())?;
    for error in harness.finish() {
        diagnostic(error);
        status = Status::Error;
    }
    Ok(status)
}

/// `report --observe`: the report's matrix observed as `bypass --observe`
/// observes one, its errors and a spent budget told on standard error;
/// whether a client failed.
pub(crate) fn observe_report(
    matrix: &mut Matrix,
    budget: usize,
    sandbox: super::fetch::Sandbox,
) -> Result<bool, Failure> {
    let summary = observe_told(matrix, budget, sandbox)?;
    diagnostic(format_args!(
        "--observe: {} requests in a network namespace",
        summary.requests
    ));
    Ok(!summary.errors.is_empty())
}

/// `--observe`, its errors and a spent budget told on standard error.
fn observe_told(
    matrix: &mut Matrix,
    budget: usize,
    sandbox: super::fetch::Sandbox,
) -> Result<observe::ObserveSummary, Failure> {
    let summary = observe(matrix, budget, sandbox)?;
    for e in &summary.errors {
        diagnostic(format_args!("--observe: {e}"));
    }
    if summary.budget_spent {
        diagnostic(format_args!(
            "--observe: the budget of {budget} requests ran out before every candidate was sent (--observe-budget); the cells of those not sent count as not observed"
        ));
    }
    Ok(summary)
}

/// The matrix in the output asked for: JSON lines, Markdown, an HTML page
/// or text (with `--confirm`'s and `--observe`'s accounts).
fn write_matrix(
    args: &Args,
    matrix: Matrix,
    goal: &Goal,
    confirmed: Option<&bypass::confirm::Summary>,
    observed: Option<&observe::ObserveSummary>,
) -> Result<(), Failure> {
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
        write_text(&mut out, &matrix, goal, confirmed)?;
        if let Some(observed) = observed {
            write_observed(&mut out, &matrix, observed)?;
        }
    }
    out.flush()?;
    Ok(())
}
