//! `bypass --observe`: the matrix's candidates through the real clients in
//! the network namespace, and the account of what they did.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::net::IpAddr;
use std::time::Duration;

use uridiff::bypass::{self, Aim, Bypass, Goal, Matrix};
use uridiff::fetch::{self, Client, Observation, Observer};

use super::super::error::Failure;
use super::super::fetch::Sandbox;
use super::super::text::visible;

/// What `--observe` did.
#[derive(Debug, Default)]
pub(super) struct ObserveSummary {
    pub(super) requests: usize,
    pub(super) budget_spent: bool,
    pub(super) errors: Vec<String>,
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
pub(super) fn observe(
    matrix: &mut Matrix,
    budget: usize,
    sandbox: Sandbox,
) -> Result<ObserveSummary, Failure> {
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
    let map = names(&goal);
    // The model's bypasses first, then what the validators pass whatever
    // the fetcher's parser reads; each (client, input) is sent once.
    let mut order: Vec<(bool, Bypass)> = matrix.all().map(|b| (true, b.clone())).collect();
    order.extend(matrix.passed().map(|b| (false, b.clone())));
    let inputs: Vec<String> = order.iter().map(|(_, b)| b.input.clone()).collect();
    let observer = Observer::namespace(
        map.clone(),
        &super::super::fetch::ports_of(&inputs),
        Duration::from_secs(5),
    )
    .map_err(Failure::Usage)?;
    let mut run = Run {
        goal,
        map,
        observer,
        budget,
        summary: ObserveSummary::default(),
        clients: BTreeMap::new(),
        seen: BTreeMap::new(),
    };
    let mut results: Vec<(bool, Bypass)> = Vec::new();
    for (predicted, mut b) in order {
        if let Some(observed) = run.send(&b, predicted) {
            b.observed = Some(observed);
            results.push((predicted, b));
        }
    }
    let summary = run.finish();
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

/// The names the run maps: the allowed host and the goal's target name,
/// those that are names (an address needs no mapping).
fn names(goal: &Goal) -> Vec<(String, IpAddr)> {
    let mut names: Vec<&str> = vec![goal.allow()];
    let target_names: Vec<String> = match goal {
        Goal::Reach { target, .. }
        | Goal::NoHost {
            aim: Aim::Host(target),
            ..
        } => vec![target.clone()],
        Goal::DenyName { name, .. } => vec![name.clone()],
        Goal::Deny { .. } | Goal::ReachDomain { .. } | Goal::NoHost { .. } => Vec::new(),
    };
    names.extend(target_names.iter().map(String::as_str));
    fetch::name_map(names.into_iter().filter(|n| {
        matches!(
            bypass::read(n, bypass::Reading::Literal),
            bypass::Read::Name(_)
        )
    }))
}

/// One `--observe` run: the traps, the clients started so far, and what
/// each (client, input) did.
struct Run {
    goal: Goal,
    map: Vec<(String, IpAddr)>,
    observer: Observer,
    budget: usize,
    summary: ObserveSummary,
    clients: BTreeMap<&'static str, Option<Client>>,
    seen: BTreeMap<(&'static str, String), Observation>,
}

impl Run {
    /// Sends `b`'s input through every client of its fetcher's parser
    /// until one reaches the target: that one's observation, else the
    /// first client's; `None` when no client ran it.
    fn send(&mut self, b: &Bypass, predicted: bool) -> Option<bypass::Observed> {
        let infos = fetch::clients_of(&b.fetcher);
        if infos.is_empty() {
            if !self.summary.without_client.contains(&b.fetcher) {
                self.summary.without_client.push(b.fetcher.clone());
            }
            return None;
        }
        let mut first: Option<Observation> = None;
        let mut hit: Option<Observation> = None;
        for info in infos {
            let Some(observation) = self.observation(info, &b.input) else {
                if self.summary.budget_spent {
                    break;
                }
                continue;
            };
            if reached(&self.goal, &self.map, &observation) {
                hit = Some(observation);
                break;
            }
            first.get_or_insert(observation);
        }
        let o = hit.as_ref().or(first.as_ref())?;
        Some(bypass::Observed {
            reached: hit.is_some(),
            predicted,
            client: o.client.to_owned(),
            address: o.address.map(|a| a.to_string()),
            resolved_name: o.resolved_name.clone(),
            host_header: o.host_header.clone(),
            error: o.error.clone(),
        })
    }

    /// What `info` did with `input`: sent once (later asks get the same
    /// observation); `None` when the budget is spent or the client did not
    /// start.
    fn observation(
        &mut self,
        info: &'static fetch::ClientInfo,
        input: &str,
    ) -> Option<Observation> {
        let key = (info.id, input.to_owned());
        if let Some(o) = self.seen.get(&key) {
            return Some(o.clone());
        }
        if self.summary.requests >= self.budget {
            self.summary.budget_spent = true;
            return None;
        }
        let errors = &mut self.summary.errors;
        let client = self.clients.entry(info.id).or_insert_with(|| {
            match Client::start_in(info, Duration::from_secs(180), fetch::Mode::Namespace) {
                Ok(c) => Some(c),
                Err(e) => {
                    errors.push(format!("{}: {e}", info.id));
                    None
                }
            }
        });
        let client = client.as_mut()?;
        self.summary.requests += 1;
        let o = self.observer.observe(client, input);
        self.seen.insert(key, o.clone());
        Some(o)
    }

    /// Stops the clients; the run's account, with their errors.
    fn finish(mut self) -> ObserveSummary {
        for (id, client) in std::mem::take(&mut self.clients) {
            if let Some(client) = client {
                for e in client.finish() {
                    self.summary.errors.push(format!("{id}: {e}"));
                }
            }
        }
        self.summary
    }
}

/// `--observe`'s account: requests, and each cell the model predicted
/// that no client was observed to carry out, with what was seen instead.
pub(super) fn write_observed(
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
                "; no client for {} (their cells, marked ?, are the model's predictions, not counted)",
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
