#!/usr/bin/env node
// uridiff external oracle `node-url`: Node.js's legacy url.parse, and
// url.resolve for pairs.
//
// Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
// line, then one JSON request {"id", "input", "base"} per line in and one
// JSON answer per line out, in request order, each echoing the request's id.
// Node.js core only:
//
//     node adapters/node-url.cjs
//
// A .cjs file, and Node's own module by its node: name: Node reads it as
// CommonJS whatever a package.json above it says, and no node_modules
// directory above it (uridiff writes it under TMPDIR, where anyone may
// create /tmp/node_modules) is ever searched.
//
// url.parse is the pre-WHATWG parser still found in much server code (and
// behind follow-redirects' CVE-2023-26159); the Node.js documentation marks
// it deprecated and "prone to errors that have security implications"
// (https://nodejs.org/docs/latest-v20.x/api/url.html#urlparseurlstring-parsequerystring-slashesdenotehost).
//
// What each key reports, read from the Url object
// (https://nodejs.org/docs/latest-v20.x/api/url.html#legacy-url-api):
//
// - The input goes through url.parse(input) exactly as an application calls
//   it (parseQueryString and slashesDenoteHost false, so `//h/p` is a path).
//   url.parse trims leading and trailing C0 controls and spaces, reads '\'
//   as '/' before the first '?' or '#', and percent-encodes some characters
//   (space, '"', '\n' ...) in what it returns; it throws for some inputs (a
//   TypeError ERR_INVALID_URL, or a URIError when the userinfo holds a
//   malformed percent-encoding): that is `reject`, with the error's name and
//   message. It never rejects otherwise.
//   With a base: url.resolve(base, input) gives a string (`resolved`), and
//   the answer describes url.parse of that string; an exception is `reject`.
// - scheme: `protocol` without its ':' (Node lower-cases it); null when
//   null.
// - authority: not reported (key left out): Node keeps `auth` and `host`
//   (host:port) apart and no authority.
// - userinfo: `auth`, which Node percent-decodes (decodeURIComponent);
//   null when null, "" for `http://@h/`.
// - host: `hostname`, what http.request connects to: lower-cased, and with
//   the brackets of a bracketed host removed (`http://[localhost]/` reads
//   "localhost"). The brackets are put back when the hostname holds a ':',
//   as Node's own url.format writes it back, so an IPv6 literal reads
//   "[::1]" as the RFC 3986 oracles report it. null when null; "" for an
//   empty host (`http:///p`).
// - port: `port` (digits; Node leaves a port that is not digits in the
//   path, and drops an empty one: `http://h:/` has port null).
// - path: `pathname` (Node writes "/" for an http URL with a host and no
//   path); null when null (`mailto:a@b` has none: Node reads "a" as auth
//   and "b" as host there).
// - query: `search` without its '?': "" for a lone '?', null when null.
// - fragment: `hash` without its '#', likewise.
// - message: the exception's text for `reject`, else null.
//
// IO: standard input is read in chunks; every complete line of a chunk is
// answered and the answers are written together, once per chunk.

"use strict";

const url = require("node:url");

const HELLO = {
  uridiff_protocol: 2,
  parser: `Node.js url.parse ${process.version}`,
  standard: "Node.js legacy url.parse (pre-WHATWG, no standard)",
  runtime: `Node.js ${process.version}`,
};

function strip(text, prefix) {
  return text === null || text === undefined ? null : text.slice(prefix.length);
}

function describe(id, u) {
  let host = u.hostname === undefined ? null : u.hostname;
  if (host !== null && host.includes(":")) {
    host = `[${host}]`;
  }
  return {
    id,
    verdict: "accept",
    scheme: u.protocol ? u.protocol.replace(/:$/, "") : null,
    userinfo: u.auth === undefined ? null : u.auth,
    host,
    port: u.port === undefined ? null : u.port,
    path: u.pathname === undefined ? null : u.pathname,
    query: strip(u.search, "?"),
    fragment: strip(u.hash, "#"),
    message: null,
  };
}

function answer(request) {
  const { id, input, base } = request;
  try {
    if (base === null || base === undefined) {
      return describe(id, url.parse(input));
    }
    const resolved = url.resolve(base, input);
    const a = describe(id, url.parse(resolved));
    a.resolved = resolved;
    return a;
  } catch (e) {
    return { id, verdict: "reject", message: `${e.name}: ${e.message}` };
  }
}

// The protocol loop is shared by the Node adapters (node-protocol.cjs,
// written beside this file).
require(require("node:path").join(__dirname, "node-protocol.cjs")).serve("node-url", HELLO, answer);
