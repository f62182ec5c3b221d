//! The `http` crate (`http::Uri`) as an oracle.
//!
//! `http::Uri` parses HTTP request targets (RFC 9112 section 3.2): origin-form
//! (`/path?q`), absolute-form, authority-form (`host:port`) and `*`. It drops
//! a fragment, so a `#` in the input is noted as `fragment-dropped`.
//! Components are read from the raw authority text, not from `port_u16()`.

use super::{Oracle, OracleId, Outcome};
use crate::components::{Component, ComponentSet, Components};

/// `http::Uri::try_from`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Http;

impl Oracle for Http {
    fn id(&self) -> OracleId {
        OracleId::Http
    }

    fn run<'a>(&self, input: &'a str) -> Outcome<'a> {
        let uri = match http::Uri::try_from(input) {
            Ok(uri) => uri,
            Err(e) => return Outcome::reject(e.to_string()),
        };
        let mut c = Components::new(ComponentSet::ALL);
        c.set(Component::Scheme, uri.scheme_str().map(str::to_owned));
        if let Some(authority) = uri.authority() {
            let text = authority.as_str();
            c.set(Component::Authority, Some(text.to_owned()));
            c.set(
                Component::Userinfo,
                text.rsplit_once('@')
                    .map(|(userinfo, _)| userinfo.to_owned()),
            );
            c.set(Component::Host, Some(authority.host().to_owned()));
            c.set(
                Component::Port,
                authority.port().map(|p| p.as_str().to_owned()),
            );
        }
        c.set(Component::Path, Some(uri.path().to_owned()));
        c.set(Component::Query, uri.query().map(str::to_owned));
        let mut outcome = Outcome::accept(c);
        if input.contains('#') {
            outcome.note("fragment-dropped");
        }
        if uri.scheme().is_none() && uri.authority().is_some() {
            outcome.note("authority-form");
        }
        outcome
    }
}
