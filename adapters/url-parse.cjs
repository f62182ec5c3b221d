#!/usr/bin/env node
// uridiff external oracle `url-parse`: the npm package url-parse ("Small
// footprint URL parser that works seamlessly across Node.js and browser
// environments", its package description), through `new Url(input, {})`,
// and `new Url(input, base)` for pairs.
//
// Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
// line, then one JSON request {"id", "input", "base"} per line in and one
// JSON answer per line out, in request order, each echoing the request's id.
// url-parse is pinned in adapters/package.json and package-lock.json (with
// its two dependencies, querystringify and requires-port) and installed by
// scripts/setup-oracles.sh:
//
//     URIDIFF_URL_PARSE=<cache root>/node/node_modules/url-parse \
//         node adapters/url-parse.cjs
//
// The package is loaded by that absolute path, never by its bare name: Node
// resolves a bare name through the node_modules directory of every parent
// of this file before NODE_PATH, and uridiff writes this file under TMPDIR,
// where anyone may create /tmp/node_modules/url-parse. Its own two
// dependencies are found beside it, in the same node_modules directory of
// the cache root. The .cjs name keeps it CommonJS whatever a package.json
// above it says.
//
// url-parse validates nothing: its README says of `host` "The hostname might
// be invalid" and of `hostname` "This might be an invalid hostname", and
// asks its users to prefer the WHATWG `URL` interface "for better security
// and accuracy". It never fails an input except by an exception.
//
// What each key reports, read from the Url object (the README lists its
// properties):
//
// - Plain input: `new Url(input, {})`: the empty object is the location
//   the README says to pass "to parse an input independently of the
//   browser's current URL". An input without a scheme is read against that
//   empty location: `//evil.com/x` gives no protocol, no hostname and the
//   pathname "//evil.com/x"; that is reported as url-parse reads it
//   (scheme and host null), not as out-of-domain, since an application
//   calling it that way reads exactly that. An exception (a URIError when
//   the userinfo holds a malformed percent-encoding) is `reject` with its
//   text.
//   With a base: `new Url(input, base)`, the README's `baseURL` ("the base
//   URL to use in case `url` is a relative URL"); `resolved` is the
//   result's `href`.
// - scheme: `protocol` without its ':' (url-parse lower-cases it); null
//   when empty.
// - authority: not reported (key left out): url-parse keeps `auth` and
//   `host` apart and no authority.
// - userinfo: `auth` (username, ':' and password when there is a password;
//   url-parse percent-encodes an '@' in them); null when empty: url-parse
//   has no empty userinfo (`http://@h/` has `auth` "").
// - host: `hostname`, lower-cased by url-parse, an IPv6 literal with its
//   brackets; null when there is no protocol or `slashes` is false (no
//   authority: `mailto:a@b`), "" for an empty one (`file:///p`). A port
//   that is not digits stays in the hostname (`http://h:abc/` reads
//   "h:abc").
// - port: `port`, null when empty; url-parse drops a scheme's default port
//   (`http://h:80/` has none) and port 0.
// - path: `pathname`.
// - query: `query` (a string: the parser argument is left false) without
//   its '?': "" for a lone '?', null when empty.
// - fragment: `hash` without its '#', likewise.
// - message: the exception's text for `reject`, else null.
//
// IO: standard input is read in chunks; every complete line of a chunk is
// answered and the answers are written together, once per chunk.

"use strict";

const path = require("node:path");

const PACKAGE = process.env.URIDIFF_URL_PARSE || "";
if (!path.isAbsolute(PACKAGE)) {
  // A relative path would be read as a package name, searched for again.
  process.stderr.write(
    `url-parse adapter: URIDIFF_URL_PARSE must be the absolute path of the installed `
      + `package (<cache root>/node/node_modules/url-parse), not ${JSON.stringify(PACKAGE)}\n`,
  );
  process.exit(3);
}
let Url;
let version;
try {
  Url = require(PACKAGE);
  version = require(path.join(PACKAGE, "package.json")).version;
} catch (e) {
  process.stderr.write(
    `url-parse adapter: the npm package url-parse is not installed at ${PACKAGE}: `
      + `run bash scripts/setup-oracles.sh (${e.message})\n`,
  );
  process.exit(3);
}

const HELLO = {
  uridiff_protocol: 2,
  parser: `url-parse ${version}`,
  standard: "none (url-parse: \"The hostname might be invalid\")",
  runtime: `Node.js ${process.version}`,
};

// A property that is "" when absent: null then, else the text after its
// one-character prefix ('?', '#').
function after(text) {
  return text === "" ? null : text.slice(1);
}

function describe(id, u) {
  const scheme = u.protocol === "" ? null : u.protocol.replace(/:$/, "");
  return {
    id,
    verdict: "accept",
    scheme,
    userinfo: u.auth === "" ? null : u.auth,
    host: scheme !== null && u.slashes ? u.hostname : null,
    port: u.port === "" ? null : u.port,
    path: u.pathname,
    query: after(u.query),
    fragment: after(u.hash),
    message: null,
  };
}

function answer(request) {
  const { id, input, base } = request;
  try {
    if (base === null || base === undefined) {
      return describe(id, new Url(input, {}));
    }
    const u = new Url(input, base);
    const a = describe(id, u);
    a.resolved = u.href;
    return a;
  } catch (e) {
    return { id, verdict: "reject", message: `${e.name}: ${e.message}` };
  }
}

// The protocol loop is shared by the Node adapters (node-protocol.cjs,
// written beside this file).
require(path.join(__dirname, "node-protocol.cjs")).serve("url-parse", HELLO, answer);
