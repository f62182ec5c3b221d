//! The macros the class catalogue (`classes/`) is written with: one
//! `classes!` invocation declares every class and its rule, so that a
//! class is one row. Kept apart from the rows so that the catalogue files
//! hold the catalogue.

/// An example's oracle: an `OracleId` variant, or a shipped adapter's name.
macro_rules! example_oracle {
    ($id:ident) => {
        ExampleOracle::Oracle(OracleId::$id)
    };
    ($name:literal) => {
        ExampleOracle::External($name)
    };
}

/// A rule's scope: `Any`, or targets joined with `|`.
macro_rules! scope {
    (@what Oracle $id:ident) => {
        OracleId::$id
    };
    (@what Standard $standard:ident) => {
        Standard::$standard
    };
    (@what External $name:literal) => {
        $name
    };
    (Any) => {
        Scope::Any
    };
    (NoStandard) => {
        Scope::NoStandard
    };
    ($($target:ident($what:tt))|+) => {
        Scope::Only(&[$(Target::$target(scope!(@what $target $what))),+])
    };
}

/// Gathers the catalogue's rows from its files and declares them with one
/// `classes!`: `catalogue! { [] part_a part_b }` calls `part_a! { [] part_b }`,
/// each part's macro appends its rows inside the brackets and calls
/// `catalogue!` back with the parts left, so the rows keep the order the
/// parts are named in (the rules' precedence). The enum needs every variant
/// in one invocation, and a macro cannot expand to bare rows, hence the
/// callbacks.
macro_rules! catalogue {
    ([$($rows:tt)*]) => {
        classes! { $($rows)* }
    };
    ([$($rows:tt)*] $next:ident $($rest:ident)*) => {
        $next! { [$($rows)*] $($rest)* }
    };
}

macro_rules! classes {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $id:literal {
            basis: $basis:ident,
            severity: $severity:ident,
            $(rule: $rule:path, scope: $($target:ident $(($what:tt))?)|+,)?
            spec: $spec:literal,
            examples: [$(($oracle:tt, $input:literal)),* $(,)?],
            $(with_base: [$(($b_oracle:tt, $b_base:literal, $b_input:literal)),* $(,)?],)?
        }
    )*) => {
        /// The named kinds of finding. Ids are stable kebab-case.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Class {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Class {
            /// Every class, in catalogue order (the rules' precedence).
            pub const ALL: &'static [Class] = &[$(Class::$variant,)*];

            /// The stable kebab-case id.
            pub fn id(self) -> &'static str {
                match self { $(Class::$variant => $id,)* }
            }

            /// The class with this id.
            pub fn from_id(id: &str) -> Option<Class> {
                match id { $($id => Some(Class::$variant),)* _ => None }
            }

            /// Spec difference or parser defect.
            pub fn basis(self) -> Basis {
                match self { $(Class::$variant => $basis,)* }
            }

            /// The severity unless the facts raise it (hosts or ports
            /// differ) or cap it (a refusal alone is at most medium).
            pub fn default_severity(self) -> Severity {
                match self { $(Class::$variant => $severity,)* }
            }

            /// The spec sections or documentation behind the class.
            pub fn spec(self) -> &'static str {
                match self { $(Class::$variant => $spec,)* }
            }

            /// What the class means, in one paragraph (its doc comment).
            pub fn description(self) -> &'static str {
                match self { $(Class::$variant => concat!($($doc, "\n"),*).trim_ascii(),)* }
            }

            /// Example inputs, each with the oracle whose finding it must
            /// produce.
            pub fn examples(self) -> &'static [(ExampleOracle, &'static str)] {
                match self { $(Class::$variant => &[$((example_oracle!($oracle), $input)),*],)* }
            }

            /// Example (base, reference) pairs, each with the oracle whose
            /// finding `check_with_base` must produce.
            pub fn examples_with_base(self) -> &'static [(ExampleOracle, &'static str, &'static str)] {
                match self {
                    $(Class::$variant => &[$($((example_oracle!($b_oracle), $b_base, $b_input)),*)?],)*
                }
            }
        }

        /// The spec rules, in catalogue order: the order triage tries them.
        pub(crate) const RULES: &[Rule] = &[$($(
            Rule {
                class: Class::$variant,
                scope: scope!($($target $(($what))?)|+),
                explain: $rule,
            },
        )?)*];
    };
}
