//! A shipped adapter's reproduce template ([`Reproduce`]): the calls its
//! adapter makes, in its parser's language, that `uridiff reproduce`
//! writes as a test (issue 30: a fact of the adapter's row, not matched by
//! its name).

/// The test `reproduce` writes of a shipped adapter's defect: the calls
/// the adapter makes, in its parser's language, so that the test is the
/// bug report a user files upstream.
///
/// `parse` and `resolve` are templates in which `{input}` and `{base}`
/// stand for string literals of the input and the base (written in the
/// language's syntax by `reproduce::literal`); nothing else is replaced.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reproduce {
    /// The language of the parser's API.
    pub language: Language,
    /// What the test loads first: import lines (Python, JavaScript, Ruby),
    /// the import paths besides `log` (Go); empty for none.
    pub prelude: &'static str,
    /// The parse of `{input}`, bound to `u`.
    pub parse: &'static str,
    /// The resolution of `{input}` against `{base}`, bound to `u`; none
    /// when the adapter resolves no pair (then `parse` stands for it).
    pub resolve: Option<&'static str>,
    /// What a refusal raises (Python, Java, Ruby: the exception caught;
    /// unused in the languages where a refusal is a return value).
    pub refusal: &'static str,
    /// A statement after the parse that makes a lazy parser refuse
    /// (`urlsplit` checks the port only when `.port` is read); empty for none.
    pub refusal_probe: &'static str,
    /// The expression that reads each component from `u`.
    pub accessors: Accessors,
}

/// The expressions that read the components of a parse result `u`; none
/// where the API has no such accessor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Accessors {
    pub scheme: Option<&'static str>,
    pub userinfo: Option<&'static str>,
    pub host: Option<&'static str>,
    pub port: Option<&'static str>,
    pub path: Option<&'static str>,
    pub query: Option<&'static str>,
    pub fragment: Option<&'static str>,
}

impl Accessors {
    /// The accessor of component `c` (none for the authority, which no
    /// adapter's API gives whole).
    pub(crate) fn of(&self, c: crate::components::Component) -> Option<&'static str> {
        use crate::components::Component;
        match c {
            Component::Scheme => self.scheme,
            Component::Authority => None,
            Component::Userinfo => self.userinfo,
            Component::Host => self.host,
            Component::Port => self.port,
            Component::Path => self.path,
            Component::Query => self.query,
            Component::Fragment => self.fragment,
        }
    }
}

impl Reproduce {
    /// A template in `language`: `parse` bound to `u`, its components read
    /// by `accessors`; by default no prelude, no resolution (`parse` stands
    /// for it), no refusal to catch and no probe.
    pub(crate) const fn new(
        language: Language,
        parse: &'static str,
        accessors: Accessors,
    ) -> Reproduce {
        Reproduce {
            language,
            prelude: "",
            parse,
            resolve: None,
            refusal: "",
            refusal_probe: "",
            accessors,
        }
    }

    /// Loading `prelude` first (`Reproduce::prelude`).
    pub(crate) const fn prelude(self, prelude: &'static str) -> Reproduce {
        Reproduce { prelude, ..self }
    }

    /// Resolving with `resolve` (`Reproduce::resolve`).
    pub(crate) const fn resolve(self, resolve: &'static str) -> Reproduce {
        Reproduce {
            resolve: Some(resolve),
            ..self
        }
    }

    /// A refusal raising `refusal` (`Reproduce::refusal`).
    pub(crate) const fn refusal(self, refusal: &'static str) -> Reproduce {
        Reproduce { refusal, ..self }
    }

    /// With `probe` after the parse (`Reproduce::refusal_probe`).
    pub(crate) const fn refusal_probe(self, probe: &'static str) -> Reproduce {
        Reproduce {
            refusal_probe: probe,
            ..self
        }
    }
}

/// The language of a shipped adapter's parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Language {
    Python,
    Java,
    JavaScript,
    Go,
    Php,
    Ruby,
    Perl,
}
