//! The oracle-neutral model of a parsed reference.
//!
//! Every oracle maps its result into [`Components`]. Absent and empty are
//! never conflated: `None` means the component does not occur, `Some("")`
//! that it occurs with no characters. The port stays text, because RFC 2396
//! allows both `""` and `99999`, which a `u16` would hide.

use std::borrow::Cow;
use std::fmt;

pub use crate::rfc2396::Component;

/// A set of [`Component`]s, as a bit mask.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ComponentSet(u8);

impl ComponentSet {
    /// No component.
    pub(crate) const EMPTY: ComponentSet = ComponentSet(0);
    /// Every component.
    pub const ALL: ComponentSet = ComponentSet(0xff);

    const fn bit(c: Component) -> u8 {
        1 << (c as u8)
    }

    /// The set of the listed components.
    // Const evaluation only: an out-of-range index is a compile error.
    #[allow(clippy::indexing_slicing)]
    pub const fn of(components: &[Component]) -> Self {
        let mut bits = 0;
        let mut i = 0;
        while i < components.len() {
            bits |= Self::bit(components[i]);
            i += 1;
        }
        ComponentSet(bits)
    }

    /// Is `c` in the set?
    pub const fn contains(self, c: Component) -> bool {
        self.0 & Self::bit(c) != 0
    }

    /// This set with `c` added.
    #[must_use]
    pub const fn with(self, c: Component) -> Self {
        ComponentSet(self.0 | Self::bit(c))
    }

    /// Both sets together.
    #[must_use]
    pub const fn union(self, other: Self) -> Self {
        ComponentSet(self.0 | other.0)
    }

    /// What the two sets share.
    #[must_use]
    pub const fn intersection(self, other: Self) -> Self {
        ComponentSet(self.0 & other.0)
    }

    /// This set without the members of `other`.
    #[must_use]
    pub const fn difference(self, other: Self) -> Self {
        ComponentSet(self.0 & !other.0)
    }

    /// Is the set empty?
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The members, in the order they appear in a reference.
    pub fn iter(self) -> impl Iterator<Item = Component> {
        Component::ALL
            .into_iter()
            .filter(move |&c| self.contains(c))
    }
}

impl fmt::Debug for ComponentSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(component_name))
            .finish()
    }
}

/// The stable lower-case name of a component, as used in reports and JSON.
pub fn component_name(c: Component) -> &'static str {
    match c {
        Component::Scheme => "scheme",
        Component::Authority => "authority",
        Component::Userinfo => "userinfo",
        Component::Host => "host",
        Component::Port => "port",
        Component::Path => "path",
        Component::Query => "query",
        Component::Fragment => "fragment",
    }
}

/// The component with this name ([`component_name`]'s inverse).
pub(crate) fn component_from_name(name: &str) -> Option<Component> {
    Component::ALL
        .into_iter()
        .find(|&c| component_name(c) == name)
}

/// The components one oracle reported for an input it accepted.
///
/// `reported` says which components the oracle speaks about at all: the
/// Appendix B expression, for one, splits off the authority but not its
/// userinfo, host and port, so those are not "absent" for it but unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Components<'a> {
    values: [Option<Cow<'a, str>>; 8],
    reported: ComponentSet,
}

impl<'a> Components<'a> {
    /// No values yet; the oracle reports the components in `reported`.
    pub fn new(reported: ComponentSet) -> Self {
        Components {
            values: Default::default(),
            reported,
        }
    }

    /// Sets a component's value (`None`: absent).
    pub fn set(&mut self, c: Component, value: Option<impl Into<Cow<'a, str>>>) {
        if let Some(slot) = self.values.get_mut(c as usize) {
            *slot = value.map(Into::into);
        }
    }

    /// A component's value: `None` when absent or not reported.
    pub fn get(&self, c: Component) -> Option<&str> {
        self.values.get(c as usize).and_then(|v| v.as_deref())
    }

    /// The same components, owning their values.
    pub fn into_owned(self) -> Components<'static> {
        Components {
            values: self.values.map(|v| v.map(|c| Cow::Owned(c.into_owned()))),
            reported: self.reported,
        }
    }

    /// Does every value borrow from the parsed text (none was rebuilt)?
    pub(crate) fn all_borrowed(&self) -> bool {
        self.values
            .iter()
            .all(|v| !matches!(v, Some(Cow::Owned(_))))
    }

    /// Which components this oracle reports.
    pub fn reported(&self) -> ComponentSet {
        self.reported
    }

    /// The reported components with their values, in order.
    pub fn iter(&self) -> impl Iterator<Item = (Component, Option<&str>)> {
        self.reported.iter().map(|c| (c, self.get(c)))
    }
}
