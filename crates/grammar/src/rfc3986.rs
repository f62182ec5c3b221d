//! RFC 3986 Appendix A as an executable reference, and section 5.2
//! resolution on its components.
//!
//! The grammar is [`GRAMMAR`], copied from the RFC's Appendix A
//! ([`APPENDIX_A`]) and read as RFC 5234 ABNF. [`Rfc3986::parse`] gives every
//! reading of a `URI-reference` and its [`Components`]. The one ambiguity of
//! the grammar is settled by the RFC's own sentence ([`IPV4_FIRST_MATCH`],
//! section 3.2.2): a host that matches `IPv4address` is not a `reg-name`.
//! RFC 3986 removed RFC 2396's other ambiguities from the grammar itself
//! (Appendix D.2: "five separate path matching rules").
//!
//! [`resolve`] is section 5.2, step by step, in its strict form.

use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

use crate::disambiguation::{Beaten, Outcome, Settlement};
use crate::earley::ParseError;
use crate::forest::{Parser, Reading};
use crate::syntax::{Grammar, GrammarError};

/// The grammar text: RFC 3986 Appendix A in RFC 5234 ABNF.
pub const GRAMMAR: &str = include_str!("../grammars/rfc3986.abnf");

/// RFC 3986 Appendix A, verbatim, as the grammar was copied from.
pub const APPENDIX_A: &str = include_str!("../grammars/rfc3986-appendix-a.txt");

/// The start rule.
pub const START: &str = "URI-reference";

/// The rules whose spans the readings report.
pub const TRACKED: &[&str] = &[
    "URI",
    "relative-ref",
    "scheme",
    "authority",
    "userinfo",
    "host",
    "IP-literal",
    "IPv6address",
    "IPvFuture",
    "IPv4address",
    "reg-name",
    "port",
    "path-abempty",
    "path-absolute",
    "path-noscheme",
    "path-rootless",
    "path-empty",
    "query",
    "fragment",
];

/// RFC 3986 section 3.2.2: a host that matches `IPv4address` is one.
pub static IPV4_FIRST_MATCH: Settlement = Settlement {
    id: "rfc3986-3.2.2-ipv4-first-match",
    rfc: "RFC 3986",
    section: "3.2.2",
    text: "The syntax rule for host is ambiguous because it does not completely \
           distinguish between an IPv4address and a reg-name.  In order to \
           disambiguate the syntax, we apply the \"first-match-wins\" algorithm: \
           If host matches the rule for IPv4address, then it should be \
           considered an IPv4 address literal and not a reg-name.",
};

/// Which alternative of `host` the reading took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// `IP-literal` (`[` IPv6 or IPvFuture `]`).
    IpLiteral,
    /// `IPv4address`.
    Ipv4,
    /// `reg-name` (possibly empty).
    RegName,
}

/// Which of the five path rules matched (section 3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathKind {
    /// `path-abempty`: begins with "/" or is empty, after an authority.
    Abempty,
    /// `path-absolute`: begins with "/" but not "//".
    Absolute,
    /// `path-noscheme`: begins with a segment without ":".
    Noscheme,
    /// `path-rootless`: begins with a segment.
    Rootless,
    /// `path-empty`: zero characters.
    Empty,
}

/// The components of one reading, as byte ranges of the input. `None` is
/// absent (its delimiter does not appear); an empty range is present and
/// empty. The path is never absent (section 3.3).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Components {
    /// `scheme`, without its `:`.
    pub scheme: Option<Range<usize>>,
    /// `authority`, without the `//`.
    pub authority: Option<Range<usize>>,
    /// `userinfo`, without its `@`.
    pub userinfo: Option<Range<usize>>,
    /// `host`, brackets included for an `IP-literal`.
    pub host: Option<Range<usize>>,
    /// Which alternative of `host`.
    pub host_kind: Option<HostKind>,
    /// `port`, without its `:`.
    pub port: Option<Range<usize>>,
    /// The path.
    pub path: Range<usize>,
    /// Which path rule matched.
    pub path_kind: PathKind,
    /// `query`, without its `?`.
    pub query: Option<Range<usize>>,
    /// `fragment`, without its `#`.
    pub fragment: Option<Range<usize>>,
}

const PATHS: [(&str, PathKind); 5] = [
    ("path-abempty", PathKind::Abempty),
    ("path-absolute", PathKind::Absolute),
    ("path-noscheme", PathKind::Noscheme),
    ("path-rootless", PathKind::Rootless),
    ("path-empty", PathKind::Empty),
];

impl Components {
    /// The components of a reading of [`START`].
    pub fn of(reading: &Reading<'_>) -> Components {
        let host = reading.get("host");
        let same = |rule: &str| {
            host.as_ref()
                .is_some_and(|h| reading.all(rule).any(|r| r == *h))
        };
        let host_kind = host.as_ref().map(|_| {
            if same("IP-literal") {
                HostKind::IpLiteral
            } else if same("IPv4address") {
                HostKind::Ipv4
            } else {
                HostKind::RegName
            }
        });
        let (path, path_kind) = PATHS
            .iter()
            .find_map(|&(rule, kind)| reading.get(rule).map(|span| (span, kind)))
            .unwrap_or((0..0, PathKind::Empty));
        Components {
            scheme: reading.get("scheme"),
            authority: reading.get("authority"),
            userinfo: reading.get("userinfo"),
            host,
            host_kind,
            port: reading.get("port"),
            path,
            path_kind,
            query: reading.get("query"),
            fragment: reading.get("fragment"),
        }
    }
}

/// Section 3.2.2: a reading whose `reg-name` spans what another reading
/// reads as an `IPv4address` loses.
fn reg_name_over_ipv4(r: &Reading<'_>, all: &[Reading<'_>]) -> bool {
    r.all("reg-name").any(|name| {
        all.iter()
            .any(|o| o.all("IPv4address").any(|ip| ip == name))
    })
}

/// The RFC 3986 grammar, compiled.
#[derive(Clone, Debug)]
pub struct Rfc3986 {
    parser: Parser,
}

impl Rfc3986 {
    /// Reads and compiles [`GRAMMAR`].
    pub fn load() -> Result<Rfc3986, GrammarError> {
        Ok(Rfc3986 {
            parser: Grammar::abnf(GRAMMAR)?.parser(START, TRACKED)?,
        })
    }

    /// The grammar compiled once for the process.
    pub fn get() -> Result<&'static Rfc3986, &'static GrammarError> {
        static ONCE: OnceLock<Result<Rfc3986, GrammarError>> = OnceLock::new();
        ONCE.get_or_init(Rfc3986::load).as_ref()
    }

    /// The compiled grammar.
    pub fn parser(&self) -> &Parser {
        &self.parser
    }

    /// Parses `input` as a `URI-reference`: every reading, settled by
    /// section 3.2.2.
    pub fn parse(&self, input: impl AsRef<[u8]>) -> Result<Outcome<'_, Components>, ParseError> {
        let readings = self.parser.readings(input.as_ref())?;
        let settlements: [(&'static Settlement, Beaten); 1] =
            [(&IPV4_FIRST_MATCH, reg_name_over_ipv4)];
        Ok(Outcome::build(
            readings,
            &settlements,
            Components::of,
            |_| None,
        ))
    }
}

// ---------------------------------------------------------------------------
// Section 5.2: resolution
// ---------------------------------------------------------------------------

/// The five components of section 3 as text: `None` is undefined (its
/// delimiter is absent), `Some("")` defined and empty; the path is never
/// undefined (section 5.2.1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Parts {
    /// `scheme`.
    pub scheme: Option<String>,
    /// `authority`.
    pub authority: Option<String>,
    /// `path`.
    pub path: String,
    /// `query`.
    pub query: Option<String>,
    /// `fragment`.
    pub fragment: Option<String>,
}

impl Parts {
    /// The text of each component of `c`, read from `input`.
    pub fn from_components(input: &str, c: &Components) -> Parts {
        let text = |r: &Option<Range<usize>>| {
            r.as_ref()
                .map(|r| input.get(r.clone()).unwrap_or_default().to_owned())
        };
        Parts {
            scheme: text(&c.scheme),
            authority: text(&c.authority),
            path: input.get(c.path.clone()).unwrap_or_default().to_owned(),
            query: text(&c.query),
            fragment: text(&c.fragment),
        }
    }

    /// Section 5.3, component recomposition.
    pub fn recompose(&self) -> String {
        // result = ""
        let mut result = String::new();
        // if defined(scheme) then append scheme to result; append ":" to result;
        if let Some(scheme) = &self.scheme {
            result.push_str(scheme);
            result.push(':');
        }
        // if defined(authority) then append "//" to result; append authority to result;
        if let Some(authority) = &self.authority {
            result.push_str("//");
            result.push_str(authority);
        }
        // append path to result;
        result.push_str(&self.path);
        // if defined(query) then append "?" to result; append query to result;
        if let Some(query) = &self.query {
            result.push('?');
            result.push_str(query);
        }
        // if defined(fragment) then append "#" to result; append fragment to result;
        if let Some(fragment) = &self.fragment {
            result.push('#');
            result.push_str(fragment);
        }
        // return result;
        result
    }
}

/// Section 5.4's base: "Within a representation with a well defined base
/// URI of `http://a/b/c/d;p?q` a relative reference is transformed to its
/// target URI as follows."
pub const EXAMPLES_BASE: &str = "http://a/b/c/d;p?q";

/// Section 5.4.1, "Normal Examples": reference and target, against
/// [`EXAMPLES_BASE`].
pub const NORMAL_EXAMPLES: [(&str, &str); 23] = [
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
];

/// Section 5.4.2, "Abnormal Examples" (`http:g` as "for strict parsers"),
/// against [`EXAMPLES_BASE`].
pub const ABNORMAL_EXAMPLES: [(&str, &str); 19] = [
    ("../../../g", "http://a/g"),
    ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"),
    ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
];

/// Why a reference could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// The grammar could not be loaded.
    Grammar(GrammarError),
    /// The base is not a `URI-reference`.
    Base(ParseError),
    /// The base has no scheme: section 5.2.1 requires one ("only the scheme
    /// component is required to be present in a base URI").
    BaseWithoutScheme,
    /// The reference is not a `URI-reference`.
    Reference(ParseError),
    /// The grammar gives the base or the reference more than one set of
    /// components (never for RFC 3986's grammar; kept so that nothing is
    /// picked silently).
    Ambiguous,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Grammar(e) => write!(f, "the RFC 3986 grammar: {e}"),
            ResolveError::Base(e) => write!(f, "the base is not a URI-reference: {e}"),
            ResolveError::BaseWithoutScheme => {
                f.write_str("the base has no scheme (RFC 3986 section 5.2.1)")
            }
            ResolveError::Reference(e) => write!(f, "the reference is not a URI-reference: {e}"),
            ResolveError::Ambiguous => {
                f.write_str("the grammar reads the input in more than one way")
            }
        }
    }
}

impl std::error::Error for ResolveError {}

/// Parses `input` with the grammar into its five components.
pub fn parse_parts(input: &str) -> Result<Parts, ResolveError> {
    let rfc = Rfc3986::get().map_err(|e| ResolveError::Grammar(e.clone()))?;
    let outcome = rfc.parse(input).map_err(ResolveError::Reference)?;
    let c = outcome.unique().ok_or(ResolveError::Ambiguous)?;
    Ok(Parts::from_components(input, c))
}

/// Resolves `reference` against `base` as RFC 3986 section 5.2 describes,
/// in its strict form, and recomposes the target (section 5.3).
///
/// ```
/// let t = grammar::rfc3986::resolve("http://a/b/c/d;p?q", "../../../g").unwrap();
/// assert_eq!(t, "http://a/g");
/// ```
pub fn resolve(base: &str, reference: &str) -> Result<String, ResolveError> {
    // 5.2.1. Pre-parse the Base URI: "The base URI (Base) is established
    // according to the procedure of Section 5.1 and parsed into the five
    // main components described in Section 3. Note that only the scheme
    // component is required to be present in a base URI". Normalization of
    // the base (sections 6.2.2 and 6.2.3) is optional, and not done here. A
    // base's fragment is parsed but never read by 5.2.2 (section 5.1 has it
    // stripped before use).
    let base = parse_parts(base).map_err(|e| match e {
        ResolveError::Reference(p) => ResolveError::Base(p),
        other => other,
    })?;
    if base.scheme.is_none() {
        return Err(ResolveError::BaseWithoutScheme);
    }
    let r = parse_parts(reference)?;
    Ok(transform(&base, &r).recompose())
}

/// Section 5.2.2, "Transform References", for a parsed base and reference,
/// in the strict form: a scheme in the reference is never dropped.
pub fn transform(base: &Parts, r: &Parts) -> Parts {
    // -- A non-strict parser may ignore a scheme in the reference
    // -- if it is identical to the base URI's scheme.
    // This is the strict parser: R.scheme stays defined.
    let mut t = Parts::default();
    // if defined(R.scheme) then
    if r.scheme.is_some() {
        // T.scheme    = R.scheme;
        t.scheme.clone_from(&r.scheme);
        // T.authority = R.authority;
        t.authority.clone_from(&r.authority);
        // T.path      = remove_dot_segments(R.path);
        t.path = remove_dot_segments(&r.path);
        // T.query     = R.query;
        t.query.clone_from(&r.query);
    } else {
        // if defined(R.authority) then
        if r.authority.is_some() {
            // T.authority = R.authority;
            t.authority.clone_from(&r.authority);
            // T.path      = remove_dot_segments(R.path);
            t.path = remove_dot_segments(&r.path);
            // T.query     = R.query;
            t.query.clone_from(&r.query);
        } else {
            // if (R.path == "") then
            if r.path.is_empty() {
                // T.path = Base.path;
                t.path.clone_from(&base.path);
                // if defined(R.query) then T.query = R.query;
                // else T.query = Base.query;
                t.query = if r.query.is_some() {
                    r.query.clone()
                } else {
                    base.query.clone()
                };
            } else {
                // if (R.path starts-with "/") then
                if r.path.starts_with('/') {
                    // T.path = remove_dot_segments(R.path);
                    t.path = remove_dot_segments(&r.path);
                } else {
                    // T.path = merge(Base.path, R.path);
                    // T.path = remove_dot_segments(T.path);
                    t.path = remove_dot_segments(&merge(base, &r.path));
                }
                // T.query = R.query;
                t.query.clone_from(&r.query);
            }
            // T.authority = Base.authority;
            t.authority.clone_from(&base.authority);
        }
        // T.scheme = Base.scheme;
        t.scheme.clone_from(&base.scheme);
    }
    // T.fragment = R.fragment;
    t.fragment.clone_from(&r.fragment);
    t
}

/// Section 5.2.3, "Merge Paths".
pub fn merge(base: &Parts, reference_path: &str) -> String {
    // If the base URI has a defined authority component and an empty path,
    // then return a string consisting of "/" concatenated with the
    // reference's path; otherwise,
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{reference_path}");
    }
    // return a string consisting of the reference's path component appended
    // to all but the last segment of the base URI's path (i.e., excluding
    // any characters after the right-most "/" in the base URI path, or
    // excluding the entire base URI path if it does not contain any "/"
    // characters).
    let kept = match base.path.rfind('/') {
        Some(i) => base.path.get(..=i).unwrap_or_default(),
        None => "",
    };
    format!("{kept}{reference_path}")
}

/// Section 5.2.4, "Remove Dot Segments", with its two string buffers.
///
/// ```
/// use grammar::rfc3986::remove_dot_segments;
/// assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
/// assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
/// ```
pub fn remove_dot_segments(path: &str) -> String {
    // 1. The input buffer is initialized with the now-appended path
    //    components and the output buffer is initialized to the empty string.
    //
    // Every step below only removes a prefix of the input buffer or
    // replaces one with "/", and each such prefix ends in "/" or in the
    // buffer's end (so the "/" it leaves is its own last byte or first
    // byte): the buffer is always a slice of `path`, and the whole loop is
    // linear in its length. Rewriting the buffer in place would move the
    // rest of it at every step (quadratic on a long path of dot segments).
    let mut input = path;
    let mut output = String::with_capacity(path.len());
    // 2. While the input buffer is not empty, loop as follows:
    while !input.is_empty() {
        // A. If the input buffer begins with a prefix of "../" or "./", then
        //    remove that prefix from the input buffer; otherwise,
        if let Some(rest) = input.strip_prefix("../") {
            input = rest;
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest;
        }
        // B. if the input buffer begins with a prefix of "/./" or "/.", where
        //    "." is a complete path segment, then replace that prefix with
        //    "/" in the input buffer; otherwise,
        else if let Some(rest) = input.strip_prefix("/.").filter(|r| r.starts_with('/')) {
            input = rest;
        } else if input == "/." {
            input = "/";
        }
        // C. if the input buffer begins with a prefix of "/../" or "/..",
        //    where ".." is a complete path segment, then replace that prefix
        //    with "/" in the input buffer and remove the last segment and its
        //    preceding "/" (if any) from the output buffer; otherwise,
        else if let Some(rest) = input.strip_prefix("/..").filter(|r| r.starts_with('/')) {
            input = rest;
            remove_last_segment(&mut output);
        } else if input == "/.." {
            input = "/";
            remove_last_segment(&mut output);
        }
        // D. if the input buffer consists only of "." or "..", then remove
        //    that from the input buffer; otherwise,
        else if input == "." || input == ".." {
            input = "";
        }
        // E. move the first path segment in the input buffer to the end of
        //    the output buffer, including the initial "/" character (if any)
        //    and any subsequent characters up to, but not including, the next
        //    "/" character or the end of the input buffer.
        else {
            let from = usize::from(input.starts_with('/'));
            let end = input
                .get(from..)
                .and_then(|rest| rest.find('/'))
                .map_or(input.len(), |i| i + from);
            let (segment, rest) = input.split_at(end);
            output.push_str(segment);
            input = rest;
        }
    }
    // 3. Finally, the output buffer is returned as the result of
    //    remove_dot_segments.
    output
}

/// "remove the last segment and its preceding "/" (if any) from the output
/// buffer" (section 5.2.4, step 2C).
fn remove_last_segment(output: &mut String) {
    match output.rfind('/') {
        Some(i) => output.truncate(i),
        None => output.clear(),
    }
}
