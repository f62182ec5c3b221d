//! A parser that claims no standard: a splitter whose own documentation
//! says it does not validate. What it accepts that every standard here
//! forbids is its documented leniency, not a defect: the self-checks that
//! would call it one (`invalid-ip-literal`, `invalid-scheme`) apply only
//! against a claimed standard (`triage::defects`).

use super::AUTHORITY_PARTS;
use crate::components::{Component, ComponentSet};
use crate::diff::Diff;
use crate::oracle::external::SelfCheck;
use crate::triage::Ctx;
use crate::triage::defects::{is_scheme, rewritten_literal};
use crate::triage::ip_literal::is_ip_literal;

/// The parser accepted, and reports what RFC 3986 forbids: a bracketed
/// host that is no `IP-literal` (section 3.2.2; a zone ID only as RFC
/// 6874's `%25`), a valid literal where the input's brackets hold an
/// invalid one (it rewrote it), or a scheme that is no
/// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (section 3.1; RFC 2396 and
/// the URL Standard have the same rule). Claims the acceptance, the scheme
/// and the authority's parts the tolerated text sits in.
pub(crate) fn lenient_splitter(ctx: &Ctx<'_, '_>) -> Diff {
    if !ctx.theirs.accepted() {
        return Diff::NONE;
    }
    let mut fields = ComponentSet::EMPTY;
    // A check the parser is held to all the same (`OracleId::held_to`)
    // is a defect's (`triage::defects`), not a tolerated leniency.
    if !ctx.oracle.held_to(SelfCheck::Scheme)
        && ctx.theirs(Component::Scheme).is_some_and(|s| !is_scheme(s))
    {
        fields = fields.with(Component::Scheme);
    }
    let bad_host = !ctx.oracle.held_to(SelfCheck::IpLiteral)
        && ctx.theirs(Component::Host).is_some_and(|h| {
            if is_ip_literal(h) {
                h.starts_with('[') && rewritten_literal(ctx.oracle, ctx.input, h).is_some()
            } else {
                h.bytes().any(|b| matches!(b, b'[' | b']'))
            }
        });
    if bad_host {
        fields = fields.union(AUTHORITY_PARTS);
    }
    if fields.is_empty() {
        return Diff::NONE;
    }
    Diff {
        verdict: true,
        fields,
    }
}

/// A parser that claims a standard but whose documentation says its parse
/// does not validate (its descriptor's `no_validation`: uri-js's README,
/// "URI validation has been removed as it was slow, exposed a
/// vulnerabilty, and was generally not useful") accepts what rfc2396
/// refuses: that documented leniency explains the verdict. What it
/// reports of the input is still judged field by field (peers, the
/// reference, dropped input).
pub(crate) fn non_validating_parser(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.open.verdict
        && ctx.theirs.accepted()
        && !ctx.ours.accepted()
        && ctx.oracle.descriptor().no_validation.is_some()
    {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// A parser whose documentation says it refuses a URI of some schemes
/// without a host (its descriptor's `host_required`: Addressable's
/// `validate` for `http:`) refuses what rfc2396 reads with no host or an
/// empty one, of such a scheme: the scheme's own specification requires
/// the host (RFC 9110 section 4.2.1: an `http` URI with an empty host
/// "MUST" be rejected as invalid; RFC 3986 section 3.1 leaves a scheme's
/// syntax to its specification).
pub(crate) fn scheme_host_required(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.open.verdict
        && !ctx.theirs.accepted()
        && ctx.ours.accepted()
        && crate::triage::arbiter::requires_host(ctx.oracle, ctx.ours)
    {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}

/// A parser whose documentation says it validates a URI of some schemes by
/// the scheme's own syntax (its descriptor's `scheme_syntax`: Ruby's
/// URI::MailTo, RFC 6068) refuses what rfc2396 reads as a URI of such a
/// scheme that the scheme's syntax refuses (`mailto:x`, no `addr-spec`):
/// RFC 2396 section 3 and RFC 3986 section 3.1 leave the scheme-specific
/// part to the scheme's specification.
pub(crate) fn scheme_syntax_refused(ctx: &Ctx<'_, '_>) -> Diff {
    if ctx.open.verdict
        && !ctx.theirs.accepted()
        && ctx.ours.accepted()
        && crate::triage::scheme_syntax::refused_by_scheme(ctx.oracle, ctx.ours)
    {
        Diff::VERDICT
    } else {
        Diff::NONE
    }
}
