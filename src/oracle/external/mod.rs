//! External oracles: a parser in any language, behind a pipe.
//!
//! An external oracle is a command that uridiff starts once and keeps alive
//! for the whole run, feeding it inputs in batches over its standard input
//! and reading one answer per input from its standard output. A command
//! given with `--oracle-cmd NAME=COMMAND` runs through `sh -c COMMAND` (so
//! it may be a whole shell command line); a shipped adapter (`--oracle
//! NAME`, [`shipped_names`]) runs its runtime directly.
//!
//! # Protocol, version 2
//!
//! 1. **Hello.** Before reading anything, the command writes one line:
//!
//!    ```json
//!    {"uridiff_protocol": 2, "parser": "urllib3 2.2.3", "standard": "RFC 3986", "runtime": "CPython 3.11.7"}
//!    ```
//!
//!    `parser` names the parser with its version, `standard` what it
//!    implements, `runtime` (optional) what runs it; keys uridiff does not
//!    know are ignored. Version 1 (below) is still spoken: the hello decides.
//!    Any other version, or no `uridiff_protocol` key, is an error.
//! 2. **Requests.** Each line of its standard input is one JSON object
//!    `{"id": N, "input": S, "base": B}`:
//!    - `id`: an integer uridiff assigns, strictly increasing over the life
//!      of the process (never reset per batch);
//!    - `input`: the string to parse (UTF-8; JSON escapes keep NULs,
//!      newlines, control characters and any other text exact; a raw
//!      newline never occurs inside a line);
//!    - `base`: `null` for a plain input; a string to **resolve** `input`
//!      against with the parser's own resolution function, and answer with
//!      the components of the resolved URI.
//! 3. **Answers.** For each request, in request order, exactly one line: one
//!    JSON object with
//!    - `id`: the request's id;
//!    - `verdict`: `"accept"`, `"reject"` or `"out-of-domain"` (an input the
//!      parser does not claim to handle; for a pair, a parser with no
//!      resolution function answers this, with a message saying so; one that
//!      refuses the base or the reference answers `reject`);
//!    - `scheme`, `authority`, `userinfo`, `host`, `port`, `path`, `query`,
//!      `fragment`: the raw component as a string, `""` when present but
//!      empty, `null` when absent (`http://h/?` has query `""`, `http://h/`
//!      query `null`). A key left out means "this parser does not report
//!      this component" (neither absent nor empty: unknown). Components are
//!      read only from an `accept`;
//!    - `message`: the parser's own error text, or `null`;
//!    - `resolved` (pairs only, optional): the resolved URI as the parser
//!      serializes it;
//!    - `notes` (optional): an array of short ids, such as PHP's
//!      `filter-validate-url:reject`: each 1 to 64 printable ASCII
//!      characters, at most 4096 distinct ones in a run (an answer with
//!      another note is not a protocol object).
//!
//!    A key that occurs twice in one answer makes it no protocol object.
//! 4. **End.** When its standard input closes, the command exits with
//!    status 0. uridiff may also kill it (and its process group) at any time.
//!
//! A minimal version 2 adapter, in Python (`urllib.parse`, which also
//! resolves with `urljoin`):
//!
//! ```python
//! import json, sys
//! from urllib.parse import urljoin, urlsplit
//! print(json.dumps({"uridiff_protocol": 2, "parser": "urlsplit", "standard": "RFC 3986"}), flush=True)
//! for line in sys.stdin:
//!     request = json.loads(line)
//!     text = request["input"] if request["base"] is None else urljoin(request["base"], request["input"])
//!     parts = urlsplit(text)
//!     print(json.dumps({"id": request["id"], "verdict": "accept", "scheme": parts.scheme or None,
//!                       "path": parts.path, "message": None}), flush=True)
//! ```
//!
//! # Protocol, version 1
//!
//! The hello says `"uridiff_protocol": 1` (and has no `runtime`); each
//! request line is the input alone, as one JSON string; each answer is the
//! object above without `id`, `resolved` and `notes` (unknown keys are
//! ignored, so a v1 adapter may send them). Version 1 has no base: with a
//! base, a v1 oracle's outcomes are missing, with the message "the pipe
//! protocol (v1) has no base URL" ([`V1_NO_BASE`]).
//!
//! # Timing and buffering
//!
//! The hello line, and all the answers to each batch, must come within a
//! timeout the caller sets (per batch, not per input); so must the exit
//! after the input closes. uridiff writes a whole batch before it expects
//! the first answer, and reads while it writes, so an adapter may buffer
//! its answers: it should flush when it has answered every request it has
//! read (flushing per line works, only slower). Standard error is
//! free-form; its last lines are shown when the command fails.
//!
//! # Line lengths
//!
//! Every line read from an adapter has a byte limit: 64 KiB for the hello
//! line ([`HELLO_LINE_LIMIT`]); for an answer, 1 MiB plus 24 bytes per
//! byte of the batch's longest input with its base ([`ANSWER_LINE_BASE`],
//! [`ANSWER_LINE_PER_BYTE`]: room for four copies with every byte escaped).
//! A command that writes more without a newline is killed, and the error
//! says the line was too long; uridiff never holds more than that limit of
//! one line.
//!
//! # Faults
//!
//! Every fault gives an [`ExternalError`] that names the oracle, its command
//! and, where known, the input (whole, never shortened), with a stable
//! [`kind`](ExternalError::kind): a command that is not found (`missing`),
//! exits before answering (`exited`), does not answer a batch within the
//! timeout (`timeout`), answers with something that is not a protocol
//! object (`not-json`), a line too long (`line-too-long`), a bad hello
//! (`bad-hello`); at the end, one that does not exit after its input
//! closed (`no-exit`) or exits with a failure status after its last answer
//! (`failed-at-end`). After a fault the process is killed and every later
//! batch fails at once (`stopped`); [`Externals`] marks every later outcome
//! of that oracle missing.
//!
//! Misaligned answers are never kept:
//!
//! - **Version 2** matches by id: an answer whose `id` is not the id of the
//!   oldest unanswered request (dropped, repeated, reordered or invented)
//!   is a `wrong-id` fault that names the id expected and the id got; the
//!   answers before it are kept (their ids matched).
//! - **Version 1** has no ids, so a batch whose answer count is wrong (too
//!   few before the adapter exits or the deadline passes, a line that is
//!   not an answer, or a surplus line) is discarded whole: every input of
//!   that batch is missing. A surplus line is noticed when it arrives with
//!   the batch's answers; one that comes later (at the next batch or at the
//!   end) can no longer take back the answers already returned, and the
//!   error (`wrong-count`) says they may be misaligned. Use version 2.
//!
//! # Processes
//!
//! Each command runs in its own process group, killed whole when its
//! [`External`] is dropped, so what `sh -c` or a runtime started under it
//! ends too. So do the builds uridiff runs (a shipped Go adapter's `go
//! build`, `reproduce --check`'s cargo), each while it runs. On SIGINT or
//! SIGTERM the binary calls [`kill_all`], which kills every live group and
//! removes the temporary directories they work in, before it exits.

pub(crate) mod cache;
mod client;
mod error;
pub(crate) mod process;
mod set;
pub(crate) mod shipped;
mod version;
mod wire;

pub use cache::CacheRootError;
pub use client::{ANSWER_LINE_BASE, ANSWER_LINE_PER_BYTE, External, Query, Submitted, V1_NO_BASE};
pub use error::{ExternalError, Position, UsageError};
pub use process::kill_all;
pub use set::{Externals, Spec};
pub use shipped::{
    HostReading, Missing, Resolver, SchemeSyntax, SelfCheck, ShippedStatus, cache_root,
    shipped_names, shipped_status,
};
pub use version::AdapterVersion;
pub use wire::{HELLO_LINE_LIMIT, Hello, PROTOCOL_VERSION};
