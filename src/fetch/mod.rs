//! Real HTTP clients against trap servers on loopback, for
//! `bypass --confirm`: does a client that reads a URL with a given parser
//! really connect where that parser says?
//!
//! - [`Trap`]: HTTP servers on loopback addresses (127.0.0.0/8, `::1`), one
//!   port for all, that answer every request with an empty 200 and record
//!   which address each request reached ([`Hit`]).
//! - [`Client`]: one HTTP client library, each through its own code path
//!   ([`clients`]: libcurl's easy API in this process; urllib3 and
//!   urllib.request in Python, `http.get` with `url.parse` and with
//!   `new URL` in Node, `net/http` in Go, each a process speaking JSON
//!   lines), sending one GET per [`Request`], with the request's [`Token`]
//!   in the header [`TOKEN_HEADER`] (`X-Uridiff-Token`), so that a hit is
//!   known to come from that request and not from a stray connection
//!   ([`Hit::carries`]).
//!
//! - Headless Chromium ([`ClientInfo::follows_redirect`]) is not sent the
//!   input: it is sent a trap page on [`REDIRECT_PAGE`] that answers `302`
//!   with the input as its `Location` ([`Trap::redirect`]), and what is
//!   observed is where it goes next: the open-redirect fetcher.
//!
//! # The guard
//!
//! Every client obeys the same rules, enforced in its own resolver and
//! socket hooks (each program's header says where), so that a confirmation
//! never reaches the network:
//!
//! - **Only loopback is dialled**: 127.0.0.0/8, `::1`, `::ffff:127.0.0.0/104`
//!   ([`is_loopback`]), checked right before the connection is made. Any
//!   other address is `refused`, with no connection attempted.
//! - **Names** in [`Request::hosts`] ([`mapped`]: ASCII case-insensitive,
//!   one trailing dot ignored) stand for their address; a host the client's
//!   own resolver reads as a number (Python: `getaddrinfo` with
//!   `AI_NUMERICHOST`, glibc's `inet_aton` forms included; Node: `net.isIP`,
//!   plus the `inet_aton` forms for a name Node would hand to
//!   `getaddrinfo`; Go: `net.ParseIP`; libcurl: its URL API's
//!   normalisation) is that address; **any other name is refused ("name not
//!   mapped: no DNS lookup") and never looked up.**
//! - **Port**: every connection goes to [`Request::port`], whatever the URL
//!   says (the URL's port still reaches the `Host` header).
//! - No proxies (the `*_proxy` variables are removed from the processes'
//!   environment and each library is told to use none), no redirects, one
//!   attempt, the request's timeout.
//!
//! # Protocol of the client processes
//!
//! One hello line `{"uridiff_fetch": 1, "client": .., "runtime": ..}`, then
//! for each request line `{"client", "url", "port", "hosts": {name: addr},
//! "timeout_ms", "token"}` one answer line `{"dialled", "refused", "error",
//! "status"}`, in order. `"token"` (32 hex digits) is sent as the
//! `X-Uridiff-Token` header; a client reading a line without it sends no
//! such header (older lines stay readable). A client that does not answer within the
//! request's timeout and a grace is killed with its process group.

mod client;
mod dns;
mod guard;
pub mod netns;
mod observe;
mod programs;
mod rows;
mod token;
mod trap;

pub use client::{Answer, Client, Request};
pub use dns::{DnsTrap, Query};
pub use observe::{MAX_NAMES, Observation, Observer, REDIRECT_PAGE, name_map};
pub use rows::{ClientInfo, clients, clients_for, clients_of};

/// Where the clients run, and so what keeps them on loopback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// In a network namespace whose only interface is `lo`
    /// ([`netns`]): each client resolves and connects on its own, and the
    /// traps observe where it went.
    Namespace,
    /// In the host's network, each client behind its in-client guard
    /// (names mapped, the port forced, only loopback dialled): the
    /// fallback where namespaces are not available.
    Guard,
}

impl Mode {
    /// `namespace` or `guard`, as the output says.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Namespace => "namespace",
            Mode::Guard => "guard",
        }
    }
}
pub use guard::{is_loopback, mapped};
pub use token::{TOKEN_HEADER, Token, Tokens};
pub use trap::{Hit, Trap};
