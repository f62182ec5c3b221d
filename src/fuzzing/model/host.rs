//! Host models of the `structured` target: domain labels, hostnames, IPv4
//! in dotted and number forms, IP literals, percent-encoded and `reg_name`
//! hosts. Split from the rest of the model only by size; the decoding
//! contract of the parent module holds here too.

use std::fmt::Write as _;

use arbitrary::{Arbitrary, Unstructured};

use super::{
    LABEL, MAX_HOSTNAME_LABELS, MAX_LABEL_CHARS, MAX_PERCENT_HOST_CHARS, PERCENT_HOST, Text,
    Weights, pick, short_vec,
};

/// A domain label: letters, digits and `-`.
#[derive(Clone, Debug)]
pub struct Label(Vec<u8>);

impl<'a> Arbitrary<'a> for Label {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        short_vec(u, MAX_LABEL_CHARS).map(Label)
    }
}

impl Label {
    fn render(&self, out: &mut String) {
        for &b in &self.0 {
            out.push(pick(LABEL, b));
        }
        // An empty label would be an empty host or `..`: a label of its own.
        if self.0.is_empty() {
            out.push('h');
        }
    }
}

/// A host.
#[derive(Clone, Debug)]
pub enum HostModel {
    /// A hostname of labels (`a-b.example`), maybe with a trailing dot.
    Hostname(Vec<Label>, bool),
    /// Dotted decimal, each part 0..=999 (RFC 2396 has no range check).
    Ipv4([u16; 4]),
    /// A number form WHATWG reads as an IPv4 address.
    Ipv4Number(u32, Ipv4NumberForm),
    /// An IPv6-like literal in brackets: eight groups, of which the given
    /// number at the end are left out for a `::`.
    IpLiteral([u16; 8], usize),
    /// Any text (a reg_name, or worse).
    RegName(Text),
    /// A percent-encoded hostname.
    Percent(Vec<u8>),
    /// Nothing.
    Empty,
}

/// How a [`HostModel::Ipv4Number`] writes its number.
#[derive(Clone, Copy, Debug)]
pub enum Ipv4NumberForm {
    /// `0x` and hex digits: the whole address.
    Hex,
    /// Its low byte in octal, then `.1`: two parts, the first octal.
    Octal,
    /// The top byte, then the low 24 bits: two decimal parts.
    TwoParts,
    /// One decimal number: the whole address.
    Decimal,
}

/// The forms alike.
const IPV4_NUMBER_FORMS: Weights<Ipv4NumberForm> = Weights::new(&[
    (Ipv4NumberForm::Hex, 1),
    (Ipv4NumberForm::Octal, 1),
    (Ipv4NumberForm::TwoParts, 1),
    (Ipv4NumberForm::Decimal, 1),
]);

impl<'a> Arbitrary<'a> for Ipv4NumberForm {
    /// One byte.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        IPV4_NUMBER_FORMS.pick(u.arbitrary()?).map(|(form, _)| form)
    }
}

/// Which variant of [`HostModel`] is drawn.
#[derive(Clone, Copy, Debug)]
enum HostForm {
    Hostname,
    Ipv4,
    Ipv4Number,
    IpLiteral,
    RegName,
    Percent,
    Empty,
}

/// Hostnames most of the time (what most URLs hold), the other forms less
/// often.
const HOST_FORMS: Weights<HostForm> = Weights::new(&[
    (HostForm::Hostname, 150),
    (HostForm::Ipv4, 30),
    (HostForm::Ipv4Number, 20),
    (HostForm::IpLiteral, 15),
    (HostForm::RegName, 20),
    (HostForm::Percent, 10),
    (HostForm::Empty, 11),
]);

/// A hostname ends with a dot one time in eight (numerator, denominator).
const TRAILING_DOT: (u8, u8) = (1, 8);

/// The groups of an IPv6 address.
const IPV6_GROUPS: usize = 8;

/// A dotted-decimal part is written modulo this: up to three digits.
const IPV4_PART_LIMIT: u16 = 1000;

impl<'a> Arbitrary<'a> for HostModel {
    /// One byte for the form, then what the form reads.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let (form, _) = HOST_FORMS.pick(u.arbitrary()?)?;
        Ok(match form {
            HostForm::Hostname => HostModel::Hostname(
                short_vec(u, MAX_HOSTNAME_LABELS)?,
                u.ratio(TRAILING_DOT.0, TRAILING_DOT.1)?,
            ),
            HostForm::Ipv4 => HostModel::Ipv4(u.arbitrary()?),
            HostForm::Ipv4Number => HostModel::Ipv4Number(u.arbitrary()?, u.arbitrary()?),
            HostForm::IpLiteral => {
                let groups = u.arbitrary()?;
                let elided: u8 = u.arbitrary()?;
                HostModel::IpLiteral(groups, usize::from(elided) % (IPV6_GROUPS + 1))
            }
            HostForm::RegName => HostModel::RegName(u.arbitrary()?),
            HostForm::Percent => HostModel::Percent(short_vec(u, MAX_PERCENT_HOST_CHARS)?),
            HostForm::Empty => HostModel::Empty,
        })
    }
}

impl HostModel {
    pub(super) fn render(&self, out: &mut String) {
        match self {
            HostModel::Hostname(labels, dot) => {
                for (i, label) in labels.iter().enumerate() {
                    if i > 0 {
                        out.push('.');
                    }
                    label.render(out);
                }
                if labels.is_empty() {
                    out.push_str("example.com");
                }
                if *dot {
                    out.push('.');
                }
            }
            HostModel::Ipv4(parts) => {
                let parts: Vec<String> = parts
                    .iter()
                    .map(|p| (p % IPV4_PART_LIMIT).to_string())
                    .collect();
                out.push_str(&parts.join("."));
            }
            HostModel::Ipv4Number(n, form) => {
                let _ = match form {
                    Ipv4NumberForm::Hex => write!(out, "0x{n:x}"),
                    Ipv4NumberForm::Octal => write!(out, "0{:o}.1", n % 256),
                    Ipv4NumberForm::TwoParts => write!(out, "{}.{}", n >> 24, n & 0xff_ffff),
                    Ipv4NumberForm::Decimal => write!(out, "{n}"),
                };
            }
            HostModel::IpLiteral(groups, elided) => {
                out.push('[');
                let shown: Vec<String> = groups
                    .iter()
                    .take(IPV6_GROUPS.saturating_sub(*elided))
                    .map(|g| format!("{g:x}"))
                    .collect();
                out.push_str(&shown.join(":"));
                if *elided > 0 {
                    out.push_str("::");
                }
                out.push(']');
            }
            HostModel::RegName(text) => text.render(out),
            HostModel::Percent(bytes) => {
                for &b in bytes {
                    let c = pick(PERCENT_HOST, b);
                    let _ = write!(out, "%{:02X}", c as u32);
                }
                out.push_str("example");
            }
            HostModel::Empty => {}
        }
    }
}
