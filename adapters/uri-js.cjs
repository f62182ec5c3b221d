#!/usr/bin/env node
// uridiff external oracle `uri-js`: the npm package uri-js (URI.js, "an RFC
// 3986 compliant, scheme extendable URI parsing/validating/resolving
// library", fast-uri's ancestor), through URI.parse, and URI.resolve for
// pairs.
//
// Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
// line, then one JSON request {"id", "input", "base"} per line in and one
// JSON answer per line out, in request order, each echoing the request's id.
// uri-js is pinned in adapters/package.json and package-lock.json (4.4.1,
// its last release) and installed by scripts/setup-oracles.sh:
//
//     URIDIFF_URI_JS=<cache root>/node/node_modules/uri-js \
//         node adapters/uri-js.cjs
//
// The package is loaded by that absolute path, never by its bare name: Node
// resolves a bare name through the node_modules directory of every parent
// of this file before NODE_PATH, and uridiff writes this file under TMPDIR,
// where anyone may create /tmp/node_modules/uri-js. The .cjs name keeps it
// CommonJS whatever a package.json above it says. Its punycode is bundled
// in its dist file: it needs nothing else.
//
// `error`: URI.parse does not throw for a malformed input; what it finds
// wrong it writes to the returned object's `error` field ("HTTP URIs must
// have a host.", "URI can not be parsed.") and still returns every
// component it read. The answer is what parse returned, `accept`, with the
// error as a note ("error:" and its text), as for fast-uri: an application
// that reads `.host` without looking at `.error` uses that host.
//
// What each key reports (fields of the object URI.parse returns):
//
// - Plain input: URI.parse(input) with no options, as an application calls
//   it. uri-js parses every URI reference (a relative one has no scheme),
//   so no input is out of its domain. An exception (none is documented) is
//   `reject` with its text.
//   With a base: URI.resolve(base, input), then URI.parse of the string it
//   returns, which is `resolved`; an exception is `reject`.
// - scheme: `scheme` (lower-cased by uri-js), null when absent.
// - authority: not reported (key left out): uri-js keeps userinfo, host and
//   port and no authority.
// - userinfo, path, query, fragment: as parse returns them: percent-encoded
//   unreserved characters decoded (`%7e` gives "~"), other encodings kept.
//   null when absent, "" when present and empty (`http://@h/` has userinfo
//   ""). uri-js's scheme handlers reshape some schemes: a mailto: URI comes
//   back with `to` and no `path`, a urn: URI with `nid` and `nss`, a ws:
//   or wss: URI with `resourceName` (path and query joined) and no `path`
//   or `query` (README, "Scheme Extendable", "WS/WSS Support"). The path
//   and query a mailto handler takes, a urn handler's path, and a ws or
//   wss handler's path and query are left out (not reported: the parser
//   says nothing about them), and everything else as parse returned it.
// - host: `host`: lower-cased, an IPv6 literal without its brackets and
//   compressed (RFC 5952), a zone ID's `%25` read as `%`, an IPv4 address
//   with its leading zeros dropped (`192.068.001.000` gives "192.68.1.0");
//   for http, https, ws and wss an internationalised name in punycode
//   (IDNA, uri-js's bundled punycode). The brackets are put back when the
//   host holds a ':' and does not start with '[' (uri-js keeps an
//   IPvFuture literal's brackets: "[v1.a:b]"), so an IPv6 literal reads
//   "[::1]" as the other RFC 3986 oracles report it. null when absent, "" for an empty host
//   (`file:///p`).
// - port: `port` in decimal (parse gives a number), "" for an empty port
//   (`http://h:/`), null when absent.
// - notes: "error:" and the `error` text (printable ASCII, cut to the 64
//   characters of a note, ending in "..." when cut) when parse set `error`.
// - message: the exception's text for `reject`, else null.
//
// IO: standard input is read in chunks; every complete line of a chunk is
// answered and the answers are written together, once per chunk.

"use strict";

const path = require("node:path");

const PACKAGE = process.env.URIDIFF_URI_JS || "";
if (!path.isAbsolute(PACKAGE)) {
  // A relative path would be read as a package name, searched for again.
  process.stderr.write(
    `uri-js adapter: URIDIFF_URI_JS must be the absolute path of the installed `
      + `package (<cache root>/node/node_modules/uri-js), not ${JSON.stringify(PACKAGE)}\n`,
  );
  process.exit(3);
}
let URI;
let version;
try {
  URI = require(PACKAGE);
  version = require(path.join(PACKAGE, "package.json")).version;
} catch (e) {
  process.stderr.write(
    `uri-js adapter: the npm package uri-js is not installed at ${PACKAGE}: `
      + `run bash scripts/setup-oracles.sh (${e.message})\n`,
  );
  process.exit(3);
}

const HELLO = {
  uridiff_protocol: 2,
  parser: `uri-js ${version}`,
  standard: "RFC 3986 (URI.js: \"an RFC 3986 compliant ... URI parsing/validating/resolving library\")",
  runtime: `Node.js ${process.version}`,
};

// The longest note uridiff takes.
const NOTE_MAX = 64;

function text(value) {
  return value === undefined || value === null ? null : String(value);
}

// `error` as a note: printable ASCII only, at most NOTE_MAX characters (a
// longer one ends in "...").
function errorNote(error) {
  const note = `error:${String(error).replace(/[^\x20-\x7e]/g, "?")}`;
  return note.length <= NOTE_MAX ? note : `${note.slice(0, NOTE_MAX - 3)}...`;
}

function describe(id, c) {
  let host = text(c.host);
  // An IPvFuture literal comes with its brackets ("[v1.a:b]"): only a
  // bare IPv6 address gets them back.
  if (host !== null && host.includes(":") && !host.startsWith("[")) {
    host = `[${host}]`;
  }
  const notes = [];
  if (c.error !== undefined && c.error !== null && c.error !== "") {
    notes.push(errorNote(c.error));
  }
  const a = {
    id,
    verdict: "accept",
    scheme: text(c.scheme),
    userinfo: text(c.userinfo),
    host,
    port: text(c.port),
    path: text(c.path),
    query: text(c.query),
    fragment: text(c.fragment),
    message: null,
    notes,
  };
  // A scheme handler that takes components into keys of its own reports
  // nothing about them: their keys are left out (not reported), never
  // null (absent). mailto: `to` and the header fields in place of the
  // path and query; urn: `nid` and `nss` in place of the path; ws and wss:
  // `resourceName`, the path and query joined (RFC 6455 section 3,
  // "resource-name"; README "WS/WSS Support": `URI.parse("wss://example.com/foo?bar=baz")`
  // gives `resourceName: "/foo?bar=baz"`), in place of both.
  const scheme = (c.scheme || "").toLowerCase();
  if (scheme === "mailto") {
    delete a.path;
    delete a.query;
  } else if (scheme === "urn" && c.nid !== undefined) {
    delete a.path;
  } else if ((scheme === "ws" || scheme === "wss") && c.resourceName !== undefined) {
    delete a.path;
    delete a.query;
  }
  return a;
}

function answer(request) {
  const { id, input, base } = request;
  try {
    if (base === null || base === undefined) {
      return describe(id, URI.parse(input));
    }
    const resolved = URI.resolve(base, input);
    const a = describe(id, URI.parse(resolved));
    a.resolved = resolved;
    return a;
  } catch (e) {
    return { id, verdict: "reject", message: `${e.name}: ${e.message}` };
  }
}

// The protocol loop is shared by the Node adapters (node-protocol.cjs,
// written beside this file).
require(path.join(__dirname, "node-protocol.cjs")).serve("uri-js", HELLO, answer);
