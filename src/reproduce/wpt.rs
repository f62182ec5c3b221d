//! The web-platform-tests `urltestdata.json` entry of a WHATWG defect.

use super::*;

/// A URL record's serialization (URL Standard, URL serializer), from the
/// components the whatwg-url adapter reports.
pub(super) fn href(c: &Components<'_>) -> String {
    let mut out = String::new();
    out.push_str(c.get(Component::Scheme).unwrap_or(""));
    out.push(':');
    let path = c.get(Component::Path).unwrap_or("");
    match c.get(Component::Host) {
        Some(host) => {
            out.push_str("//");
            if let Some(userinfo) = c.get(Component::Userinfo) {
                out.push_str(userinfo);
                out.push('@');
            }
            out.push_str(host);
            if let Some(port) = c.get(Component::Port) {
                out.push(':');
                out.push_str(port);
            }
        }
        // "If url's host is null, url does not have an opaque path, url's
        // path's size is greater than 1, and url's path[0] is the empty
        // string, then append U+002F (/) followed by U+002E (.)".
        None if path.starts_with("//") => out.push_str("/."),
        None => {}
    }
    out.push_str(path);
    if let Some(query) = c.get(Component::Query) {
        out.push('?');
        out.push_str(query);
    }
    if let Some(fragment) = c.get(Component::Fragment) {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// The getters of the URL class (URL Standard, "URL class"): `search` and
/// `hash` are empty for a null or empty query or fragment, else carry
/// their `?` or `#`.
pub(super) fn wpt_fields(c: &Components<'_>) -> serde_json::Map<String, serde_json::Value> {
    let (username, password) = user_pass(c.get(Component::Userinfo));
    let hostname = c.get(Component::Host).unwrap_or("");
    let port = c.get(Component::Port).unwrap_or("");
    let host = if port.is_empty() {
        hostname.to_owned()
    } else {
        format!("{hostname}:{port}")
    };
    let marked = |mark: &str, value: Option<&str>| match value {
        Some(v) if !v.is_empty() => format!("{mark}{v}"),
        _ => String::new(),
    };
    let mut m = serde_json::Map::new();
    let mut put = |k: &str, v: String| {
        m.insert(k.to_owned(), serde_json::Value::String(v));
    };
    put("href", href(c));
    put(
        "protocol",
        format!("{}:", c.get(Component::Scheme).unwrap_or("")),
    );
    put("username", username.to_owned());
    put("password", password.to_owned());
    put("host", host);
    put("hostname", hostname.to_owned());
    put("port", port.to_owned());
    put("pathname", c.get(Component::Path).unwrap_or("").to_owned());
    put("search", marked("?", c.get(Component::Query)));
    put("hash", marked("#", c.get(Component::Fragment)));
    m
}

/// A web-platform-tests `url/resources/urltestdata.json` entry for the
/// reference's outcome: `{"input", "base", "failure": true}` or the URL
/// class's getters.
pub(super) fn wpt_entry(
    input: &str,
    base: Option<&str>,
    reference: &Outcome<'_>,
) -> Option<serde_json::Value> {
    let mut m = serde_json::Map::new();
    m.insert("input".to_owned(), input.into());
    m.insert(
        "base".to_owned(),
        base.map_or(serde_json::Value::Null, serde_json::Value::from),
    );
    match reference.verdict {
        Verdict::Reject => {
            m.insert("failure".to_owned(), true.into());
        }
        Verdict::Accept => m.extend(wpt_fields(&reference.components)),
        Verdict::OutOfDomain => return None,
    }
    Some(serde_json::Value::Object(m))
}
