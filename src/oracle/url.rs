//! The `url` crate (WHATWG URL Standard) as an oracle.
//!
//! `url` normalises as it parses (lower-cases scheme and host, elides default
//! ports, removes dot segments, percent-encodes), so its components are read
//! from the serialization accessors and every syntax violation it reports
//! through `syntax_violation_callback` is kept as a note.

use std::cell::RefCell;

use super::{Oracle, OracleId, Outcome};
use crate::components::{Component, ComponentSet, Components};

/// `url::Url::parse` with no base.
#[derive(Clone, Copy, Debug, Default)]
pub struct Url;

/// `url` keeps the authority only as its parts.
const REPORTED: ComponentSet =
    ComponentSet::ALL.difference(ComponentSet::of(&[Component::Authority]));

impl Oracle for Url {
    fn id(&self) -> OracleId {
        OracleId::Url
    }

    fn run<'a>(&self, input: &'a str) -> Outcome<'a> {
        let violations: RefCell<Vec<&'static str>> = RefCell::new(Vec::new());
        let record = |v: url::SyntaxViolation| {
            let mut seen = violations.borrow_mut();
            let description = v.description();
            if !seen.contains(&description) {
                seen.push(description);
            }
        };
        let parsed = url::Url::options()
            .syntax_violation_callback(Some(&record))
            .parse(input);
        let mut outcome = match parsed {
            Ok(u) => {
                let mut c = Components::new(REPORTED);
                c.set(Component::Scheme, Some(u.scheme().to_owned()));
                if u.has_authority() {
                    // WHATWG keeps username and password apart and has no
                    // way to say "empty userinfo": `@` with nothing before it
                    // is dropped, as is an empty password's `:`.
                    let userinfo = match (u.username(), u.password()) {
                        ("", None) => None,
                        (user, None) => Some(user.to_owned()),
                        (user, Some(password)) => Some(format!("{user}:{password}")),
                    };
                    c.set(Component::Userinfo, userinfo);
                }
                c.set(Component::Host, u.host_str().map(str::to_owned));
                c.set(Component::Port, u.port().map(|p| p.to_string()));
                c.set(Component::Path, Some(u.path().to_owned()));
                c.set(Component::Query, u.query().map(str::to_owned));
                c.set(Component::Fragment, u.fragment().map(str::to_owned));
                let mut outcome = Outcome::accept(c);
                if u.cannot_be_a_base() {
                    outcome.note("opaque-path");
                }
                if u.as_str() != input {
                    outcome.note("serialization-differs");
                }
                outcome
            }
            Err(url::ParseError::RelativeUrlWithoutBase) => {
                Outcome::out_of_domain(url::ParseError::RelativeUrlWithoutBase.to_string())
            }
            Err(e) => Outcome::reject(e.to_string()),
        };
        for v in violations.into_inner() {
            outcome.note(v);
        }
        outcome
    }
}
