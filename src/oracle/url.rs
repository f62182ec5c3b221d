//! The `url` crate (WHATWG URL Standard) as an oracle.
//!
//! `url` normalises as it parses (lower-cases scheme and host, elides default
//! ports, removes dot segments, percent-encodes), so its components are read
//! from the serialization accessors. The syntax violations it reports
//! through `syntax_violation_callback` become notes; since that callback
//! makes `url` check every code point, [`run`] parses without it and
//! `check()` asks for [`notes`] only when `url` disagrees with rfc2396.

use std::cell::RefCell;

use std::borrow::Cow;

use super::{Note, Outcome, borrow_at, offset_in};
use crate::components::{Component, ComponentSet, Components};

/// `url` keeps the authority only as its parts.
const REPORTED: ComponentSet =
    ComponentSet::ALL.difference(ComponentSet::of(&[Component::Authority]));

/// Runs this oracle on `input` (its registry row is in `oracle/mod.rs`).
pub fn run(input: &str) -> Outcome<'_> {
    match url::Url::parse(input) {
        Ok(u) => accepted(input, &u),
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            Outcome::out_of_domain(url::ParseError::RelativeUrlWithoutBase.to_string())
        }
        Err(e) => Outcome::reject(e.to_string()),
    }
}

fn accepted<'a>(input: &'a str, u: &url::Url) -> Outcome<'a> {
    let serialization = u.as_str();
    // Every accessor returns a slice of the serialization; where the input
    // has the same text at the same offset (always, when url changed
    // nothing) the component borrows the input instead of copying.
    let take = |part: &str| -> Cow<'a, str> {
        match offset_in(serialization, part) {
            Some(at) => borrow_at(input, at, part),
            None => Cow::Owned(part.to_owned()),
        }
    };
    let mut c = Components::new(REPORTED);
    c.set(Component::Scheme, Some(take(u.scheme())));
    if u.has_authority() {
        // WHATWG keeps username and password apart and has no way to say
        // "empty userinfo": `@` with nothing before it is dropped, as is an
        // empty password's `:`.
        let userinfo = match (u.username(), u.password()) {
            ("", None) => None,
            (user, None) => Some(take(user)),
            (user, Some(password)) => {
                let start = u.scheme().len() + 3;
                let len = user.len() + 1 + password.len();
                Some(take(
                    serialization.get(start..start + len).unwrap_or_default(),
                ))
            }
        };
        c.set(Component::Userinfo, userinfo);
    }
    // rust-url models the empty host of `file:///p` as no host at all
    // (`host()` is `None`), where the URL Standard has the empty string (file
    // host state: "set url's host to the empty string"); with an authority
    // written, report it as the empty host the standard gives.
    let host = match u.host_str() {
        None if u.has_authority() => Some(Cow::Borrowed("")),
        host => host.map(take),
    };
    c.set(Component::Host, host);
    // The port's text in the serialization (url::Position slicing), not the
    // u16 of `port()`: the same digits url would send, borrowed from the
    // input where it kept them.
    let port = u
        .port()
        .map(|_| take(&u[url::Position::BeforePort..url::Position::AfterPort]));
    c.set(Component::Port, port);
    c.set(Component::Path, Some(take(u.path())));
    c.set(Component::Query, u.query().map(take));
    c.set(Component::Fragment, u.fragment().map(take));
    let mut outcome = Outcome::accept(c);
    if u.cannot_be_a_base() {
        outcome.note(Note::OpaquePath);
    }
    if serialization != input {
        outcome.note(Note::SerializationDiffers);
        outcome.serialization = Some(Cow::Owned(serialization.to_owned()));
    }
    outcome
}

/// The syntax violations `url` reports for `input`, each once.
pub fn notes(input: &str) -> Vec<Note> {
    let violations: RefCell<Vec<Note>> = RefCell::new(Vec::new());
    let record = |v: url::SyntaxViolation| {
        let mut seen = violations.borrow_mut();
        let note = Note::UrlSyntaxViolation(v);
        if !seen.contains(&note) {
            seen.push(note);
        }
    };
    let _ = url::Url::options()
        .syntax_violation_callback(Some(&record))
        .parse(input);
    violations.into_inner()
}

/// The URL Standard's basic URL parser with a base (`Url::join`).
pub fn resolve(base: &str, reference: &str) -> Result<String, super::Refusal> {
    let base = url::Url::parse(base).map_err(|e| super::Refusal::reject(format!("base: {e}")))?;
    base.join(reference)
        .map(String::from)
        .map_err(super::Refusal::reject)
}
