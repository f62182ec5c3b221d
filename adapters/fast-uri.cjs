#!/usr/bin/env node
// uridiff external oracle `fast-uri`: the npm package fast-uri (Fastify's
// "Dependency-free RFC 3986 URI toolbox", descended from uri-js), through
// fastUri.parse, and fastUri.resolve for pairs.
//
// Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
// line, then one JSON request {"id", "input", "base"} per line in and one
// JSON answer per line out, in request order, each echoing the request's id.
// fast-uri is pinned in adapters/package.json and package-lock.json and
// installed by scripts/setup-oracles.sh:
//
//     URIDIFF_FAST_URI=<cache root>/node/node_modules/fast-uri \
//         node adapters/fast-uri.cjs
//
// The package is loaded by that absolute path, never by its bare name: Node
// resolves a bare name through the node_modules directory of every parent
// of this file before NODE_PATH, and uridiff writes this file under TMPDIR,
// where anyone may create /tmp/node_modules/fast-uri. The .cjs name keeps
// it CommonJS whatever a package.json above it says.
//
// `error`: fast-uri's parse never throws for a malformed input. Its README
// (Options): "Malformed authorities, out-of-range ports, and raw leading or
// trailing C0 controls or spaces (U+0000-U+0020) are reported through the
// parsed component's `error` field", while parse still returns every
// component it read (`http://example.com\@evil.com/` gives host "evil.com"
// and error "URI authority must not contain a literal backslash."); only
// resolve(), normalize() and equal() act on it. An application that reads
// `.host` without looking at `.error` connects to that host, so the answer
// is what parse returned, `accept`, with the error as a note
// ("error:" and its text): both facts are kept, the host a careless caller
// reads and that fast-uri flagged the input.
//
// What each key reports (fields of the object parse returns):
//
// - Plain input: fastUri.parse(input) with no options, as an application
//   calls it. fast-uri parses every URI reference (a relative one has no
//   scheme), so no input is out of its domain. An exception (none is
//   documented) is `reject` with its text.
//   With a base: fastUri.resolve(base, input) (the README: "resolve()
//   rejects them [malformed inputs] in either input", by throwing: that is
//   `reject`), then fastUri.parse of the string it returns, which is
//   `resolved`.
// - scheme: `scheme` (lower-cased by fast-uri), null when absent.
// - authority: not reported (key left out): fast-uri keeps userinfo, host
//   and port and no authority.
// - userinfo: `userinfo` as parse returns it (its percent-encodings kept:
//   `u%7e` stays), null when absent, "" for `http://@h/`.
// - host: `host`: lower-cased, an IPv6 literal without its brackets and
//   compressed (RFC 5952), a zone ID with its `%25` read as `%`, a
//   character a reg-name does not allow percent-encoded (`b%40c`). For the
//   schemes whose handler marks the host a domain (http, https, ws, wss), a
//   host that is no IP address and holds anything but lower-case letters
//   and reg-name punctuation (a digit, a '%', non-ASCII text) goes through
//   Node's own WHATWG URL (`new URL('http://' + host).hostname`): IDNA to
//   punycode, `0x7f.1` or `127.1` read as 127.0.0.1, and a host that URL
//   refuses (`1.2.3.4.5`) kept as written with an `error`. That part
//   depends on the Node.js running it, so the hello's parser line names
//   Node's URL parser (ada) and its version too. The brackets are put back
//   when the host holds a ':' and does not start with '[' (fast-uri keeps
//   an IPvFuture literal's brackets: "[v1.a:b]"), so an IPv6 literal reads
//   "[::1]" as the other RFC 3986 oracles report it. null when absent, "" for an empty
//   host (`file:///p`).
// - port: `port` in decimal (parse gives a number), "" for an empty port
//   (`http://h:/`), null when absent.
// - path, query, fragment: `path`, `query`, `fragment`; null when absent.
//   fast-uri's scheme handlers (README, "Scheme supports") reshape some
//   schemes: a mailto: URI comes back with `to` and no `path`, a urn: URI
//   with `nid` and `nss`, a ws: or wss: URI with `resourceName` (path
//   and query joined) and no `path` or `query`. The path and query a
//   mailto handler takes (and its userinfo, host and port: a mailto URI
//   has no authority, RFC 6068, and the handler deletes one with an
//   `error`), a urn handler's path, and a ws or wss handler's path and
//   query are left out (not reported: the parser says nothing about
//   them), and everything else as parse returned it.
// - notes: "error:" and the `error` text (printable ASCII, cut to the 64
//   characters of a note, ending in "..." when cut) when parse set `error`.
// - message: the exception's text for `reject`, else null.
//
// IO: standard input is read in chunks; every complete line of a chunk is
// answered and the answers are written together, once per chunk.

"use strict";

const path = require("node:path");

const PACKAGE = process.env.URIDIFF_FAST_URI || "";
if (!path.isAbsolute(PACKAGE)) {
  // A relative path would be read as a package name, searched for again.
  process.stderr.write(
    `fast-uri adapter: URIDIFF_FAST_URI must be the absolute path of the installed `
      + `package (<cache root>/node/node_modules/fast-uri), not ${JSON.stringify(PACKAGE)}\n`,
  );
  process.exit(3);
}
let fastUri;
let version;
try {
  fastUri = require(PACKAGE);
  version = require(path.join(PACKAGE, "package.json")).version;
} catch (e) {
  process.stderr.write(
    `fast-uri adapter: the npm package fast-uri is not installed at ${PACKAGE}: `
      + `run bash scripts/setup-oracles.sh (${e.message})\n`,
  );
  process.exit(3);
}

const HELLO = {
  uridiff_protocol: 2,
  // fast-uri maps the domain hosts of http, https, ws and wss through
  // Node's URL (ada): its answers depend on that too.
  parser: `fast-uri ${version} (domain hosts: Node.js URL, ada ${process.versions.ada})`,
  standard: "RFC 3986 (fast-uri: \"Dependency-free RFC 3986 URI toolbox\")",
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
  // path and query, and no authority at all (RFC 6068's `mailtoURI =
  // "mailto:" [ to ] [ hfields ]` has none: the handler deletes userinfo,
  // host and port and sets `error` "URI mailto must not have an authority
  // component."); urn: `nid` and `nss` in place of the path; ws and wss:
  // `resourceName`, the path and query joined (RFC 6455 section 3,
  // "resource-name"; README "Scheme supports"), in place of both.
  const scheme = (c.scheme || "").toLowerCase();
  if (scheme === "mailto") {
    delete a.path;
    delete a.query;
    delete a.userinfo;
    delete a.host;
    delete a.port;
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
      return describe(id, fastUri.parse(input));
    }
    const resolved = fastUri.resolve(base, input);
    const a = describe(id, fastUri.parse(resolved));
    a.resolved = resolved;
    return a;
  } catch (e) {
    return { id, verdict: "reject", message: `${e.name}: ${e.message}` };
  }
}

// The protocol loop is shared by the Node adapters (node-protocol.cjs,
// written beside this file).
require(path.join(__dirname, "node-protocol.cjs")).serve("fast-uri", HELLO, answer);
