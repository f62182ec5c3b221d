//! What `--observe` says of each cell: observed (a client carried the
//! bypass to the target), not observed (sent, and no client did), or not
//! sent; in the words and marks the text, Markdown and HTML outputs share.

use super::{Bypass, Confirmation, Matrix, Observed};

/// What the clients did with a bypass a cell shows ([`Matrix::seen`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen<'b> {
    /// Observation did not run.
    NotAsked,
    /// A client carried it to the target: the one named.
    Observed(&'b Observed),
    /// It was sent and no client reached the target: what the first one
    /// tried did instead.
    NotObserved(&'b Observed),
    /// It was not sent: no client reads URLs with the fetcher's parser, or
    /// the budget ran out first.
    NotSent,
}

impl Seen<'_> {
    /// What the marks mean, for a summary line where observation ran.
    pub fn legend() -> &'static str {
        "each observed in a network namespace: ✔ a client was observed carrying it to the target, \
         ✗ the model predicted it and no client did (not a bypass), ? not sent"
    }

    /// `words` as a sentence after an entry: `; WORDS.`, or nothing.
    pub fn sentence(words: String) -> String {
        if words.is_empty() {
            words
        } else {
            format!("; {words}.")
        }
    }

    /// After a cell's number in a grid: ` ✔` observed, ` ✗` not observed,
    /// ` ?` not sent, nothing when observation did not run.
    pub fn mark(&self) -> &'static str {
        match self {
            Seen::NotAsked => "",
            Seen::Observed(_) => " ✔",
            Seen::NotObserved(_) => " ✗",
            Seen::NotSent => " ?",
        }
    }

    /// The words for a cell's entry (empty when observation did not run):
    /// `observed: CLIENT reached ...`, `not observed: CLIENT ...`, `not
    /// sent ...`. Every value the client or the input put there goes
    /// through `value` (a report's escaping).
    pub fn words(&self, value: impl Fn(&str) -> String) -> String {
        match self {
            Seen::NotAsked => String::new(),
            Seen::Observed(o) => format!("observed: {} reached {}", o.client, seen_at(o, &value)),
            Seen::NotObserved(o) => {
                let did = match &o.error {
                    Some(e) => format!("failed: {}", value(e)),
                    None if o.address.is_some() || o.resolved_name.is_some() => {
                        format!("went to {}", seen_at(o, &value))
                    }
                    None => "reached no trap".to_owned(),
                };
                format!("not observed: {} {did}", o.client)
            }
            Seen::NotSent => "not sent (no client reads URLs with this fetcher's parser, or the --observe budget ran out)".to_owned(),
        }
    }
}

/// Does a `uridiff fetch` client read URLs with `fetcher`'s parser, so
/// that `--observe` can send its cells?
pub(crate) fn has_client(fetcher: &str) -> bool {
    !crate::fetch::clients_of(fetcher).is_empty()
}

/// Where an observed request went: its address, the name it asked for,
/// its `Host` header, as far as known.
fn seen_at(o: &Observed, value: &impl Fn(&str) -> String) -> String {
    let mut parts = Vec::new();
    if let Some(a) = &o.address {
        parts.push(value(a));
    }
    if let Some(n) = &o.resolved_name {
        parts.push(format!("(resolved {})", value(n)));
    }
    if let Some(h) = &o.host_header {
        parts.push(format!("(Host {})", value(h)));
    }
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        parts.join(" ")
    }
}

impl Matrix {
    /// What observation says of `bypass`.
    pub fn seen<'b>(&self, bypass: &'b Bypass) -> Seen<'b> {
        if self.observation != Confirmation::Ran {
            return Seen::NotAsked;
        }
        match &bypass.observed {
            Some(o) if o.reached => Seen::Observed(o),
            Some(o) => Seen::NotObserved(o),
            None => Seen::NotSent,
        }
    }

    /// Did the parser model predict a bypass of the pair (one kept without
    /// an observation, or observed and `predicted`)?
    pub fn predicted(&self, validator: &str, fetcher: &str) -> bool {
        self.all()
            .filter(|b| b.validator == validator && b.fetcher == fetcher)
            .any(|b| b.observed.as_ref().is_none_or(|o| o.predicted))
    }

    /// A cell's whole account where observation ran (empty otherwise): what
    /// the clients did ([`Seen::words`]), by which client, and what the
    /// parser model predicted of the pair; a cell not sent says why (no
    /// client of the fetcher's parser, or the budget). Values go through
    /// `value`.
    pub fn cell_words(&self, bypass: &Bypass, value: impl Fn(&str) -> String) -> String {
        let seen = self.seen(bypass);
        let model = match (seen, &bypass.observed) {
            (Seen::NotAsked, _) => return String::new(),
            (Seen::NotSent, _) => {
                return if has_client(&bypass.fetcher) {
                    "not sent: the --observe budget ran out first; the model predicted it"
                        .to_owned()
                } else {
                    format!(
                        "not sent: no client reads URLs with {}'s parser; the model predicted it",
                        bypass.fetcher
                    )
                };
            }
            (_, Some(o)) if o.predicted => "the model predicted it",
            _ if self.predicted(&bypass.validator, &bypass.fetcher) => {
                "the model did not predict this input (the client rewrote the URL), only others of this pair that no client carried out"
            }
            _ => "the model predicted no bypass of this pair (the client rewrote the URL)",
        };
        format!("{}; {model}", seen.words(value))
    }

    /// When observation ran and no client carried out any bypass of the
    /// pair: the one the model predicted that a cell shows instead, marked
    /// not observed or not sent (a sent one first, then the shortest).
    pub fn unobserved(&self, validator: &str, fetcher: &str) -> Option<&Bypass> {
        if self.observation != Confirmation::Ran || self.cell(validator, fetcher).is_some() {
            return None;
        }
        self.all()
            .filter(|b| b.validator == validator && b.fetcher == fetcher)
            .filter(|b| b.observed.as_ref().is_none_or(|o| o.predicted))
            .min_by_key(|b| (b.observed.is_none(), b.order_key()))
    }

    /// [`Matrix::unobserved`] of every pair, validators then fetchers in
    /// order (empty unless observation ran).
    pub fn unobserved_cells(&self) -> Vec<&Bypass> {
        self.validators
            .iter()
            .flat_map(|v| {
                self.fetchers
                    .iter()
                    .filter_map(move |f| self.unobserved(v, f))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bypass::{Goal, Place, Validator};
    use crate::oracle::OracleId;

    fn bypass(input: &str, observed: Option<Observed>) -> Bypass {
        Bypass {
            validator: "url".into(),
            fetcher: "curl".into(),
            input: input.into(),
            validator_host: Some("a".into()),
            fetcher_host: "b".into(),
            shape: input.into(),
            fetcher_place: Place::Name,
            fetcher_address: None,
            confirmed_by: None,
            observed,
        }
    }

    fn observed(reached: bool, error: Option<&str>) -> Observed {
        Observed {
            reached,
            predicted: true,
            client: "libcurl".into(),
            address: reached.then(|| "127.0.0.3".into()),
            resolved_name: reached.then(|| "b".into()),
            host_header: reached.then(|| "b`|".into()),
            error: error.map(str::to_owned),
        }
    }

    #[test]
    fn a_pair_no_client_carried_out_shows_its_prediction_marked() {
        let goal = Goal::Reach {
            allow: "a".into(),
            target: "b".into(),
        };
        let mut m = Matrix::new(
            &[Validator::Parser(OracleId::Url)],
            &[OracleId::Curl],
            &goal,
        );
        m.add(bypass("http://x", Some(observed(false, Some("refused")))));
        m.add(bypass("http://yy", None));
        // Not observed: no cell, words unchanged.
        assert_eq!(m.seen(m.all().next().unwrap()), Seen::NotAsked);
        assert!(m.unobserved("url", "curl").is_none());
        assert!(m.cell("url", "curl").is_some());
        m.observation = Confirmation::Ran;
        assert!(m.cell("url", "curl").is_none());
        let shown = m.unobserved("url", "curl").unwrap();
        assert_eq!(shown.input, "http://x");
        assert_eq!(m.seen(shown).mark(), " ✗");
        assert_eq!(
            m.seen(shown).words(|v| format!("<{v}>")),
            "not observed: libcurl failed: <refused>"
        );
        let unsent = m.all().find(|b| b.input == "http://yy").unwrap();
        assert_eq!(m.seen(unsent), Seen::NotSent);
        assert_eq!(m.seen(unsent).mark(), " ?");
        assert_eq!(m.unobserved_cells().len(), 1);
        // Reached: a cell of its own, named by its client.
        m.add_observed(bypass("http://zzz", Some(observed(true, None))));
        let cell = m.cell("url", "curl").unwrap();
        assert_eq!(cell.input, "http://zzz");
        assert_eq!(m.seen(cell).mark(), " ✔");
        assert_eq!(
            m.seen(cell).words(|v| format!("<{v}>")),
            "observed: libcurl reached <127.0.0.3> (resolved <b>) (Host <b`|>)"
        );
        assert!(m.unobserved("url", "curl").is_none());
        assert!(m.unobserved_cells().is_empty());
    }
}
