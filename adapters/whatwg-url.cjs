#!/usr/bin/env node
// uridiff external oracle `whatwg-url`: the npm package whatwg-url, the URL
// Standard's reference implementation (https://github.com/jsdom/whatwg-url,
// following https://url.spec.whatwg.org/), through its URL-record API.
//
// Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
// line, then one JSON request {"id", "input", "base"} per line in and one
// JSON answer per line out, in request order, each echoing the request's id.
// whatwg-url is pinned in adapters/package.json and package-lock.json
// (16.0.1: the newest release whose engines field admits Node 20; 17.x needs
// Node 22.14) and installed by scripts/setup-oracles.sh:
//
//     URIDIFF_WHATWG_URL=<cache root>/node/node_modules/whatwg-url \
//         node adapters/whatwg-url.cjs
//
// The package is loaded by that absolute path, never by its bare name: Node
// resolves a bare name through the node_modules directory of every parent
// of this file before NODE_PATH, and uridiff writes this file under TMPDIR,
// where anyone may create /tmp/node_modules/whatwg-url. The .cjs name keeps
// it CommonJS whatever a package.json above it says ("type": "module").
//
// The URL record API (whatwg-url's README, "Low-level URL Standard API"):
// parseURL(input, { baseURL }) runs the standard's "URL parser" and returns a
// URL record or null (failure); the record keeps a null query apart from an
// empty one, which the URL class's `search` getter does not.
//
// What each key reports, mapped as uridiff's in-process WHATWG oracles (`url`,
// `ada`) map theirs, so that the outcomes compare:
//
// - Plain input: parseURL(input). On failure, if parseURL(input) succeeds
//   against a base no input names ("x-uridiff-probe:/", a non-special
//   scheme, so a special-scheme input is never read as a same-scheme
//   reference), the input is a relative reference: `out-of-domain` (as for
//   `ada`); else `reject`.
//   With a base: parseURL(base) (failure gives `reject`, "base: ..."), then
//   parseURL(input, { baseURL }) (failure gives `reject`); `resolved` is
//   serializeURL of the result.
// - scheme: the record's scheme (the standard lower-cases it).
// - authority: not reported (key left out): the URL record has no authority,
//   only username, password, host and port.
// - userinfo: null when the host is null. Otherwise username and password
//   joined as the serializer writes them: null when both are empty (the
//   standard has no empty userinfo: `http://@h/` drops the '@'), the
//   username alone when the password is empty, else "username:password".
// - host: serializeHost(host): a domain as the host parser returns it
//   (lower-cased, IDNA), an IPv4 address in dotted decimal (`0x7f.1` gives
//   "127.0.0.1"), an IPv6 address compressed in brackets ("[::1]"), "" for
//   the empty host (`file:///p`); null when the record's host is null.
// - port: the record's port in decimal (serializeInteger); null when null,
//   which includes a scheme's default port (the standard drops it).
// - path: serializePath(record): the path list joined with '/', or the
//   opaque path as is (`mailto:a@b` gives "a@b").
// - query, fragment: the record's query and fragment (null or a string,
//   percent-encoded by the standard's encode sets).
// - notes: "opaque-path" when the record has an opaque path and
//   "serialization-differs" when serializeURL differs from the input (plain
//   inputs only), as the in-process `url` oracle notes them. When the installed whatwg-url exports
//   parseURLWithValidationErrors (17.x does; the pinned 16.0.1 does not),
//   the parse goes through it and each validation error the standard names
//   (https://url.spec.whatwg.org/#validation-error, "invalid-URL-unit",
//   "IPv4-non-decimal-part" ...) is a note too.
// - message: for `reject` and `out-of-domain`, what failed (with the
//   validation errors, when known).
//
// IO: standard input is read in chunks; every complete line of a chunk is
// answered and the answers are written together, once per chunk.

"use strict";

const path = require("node:path");

const PACKAGE = process.env.URIDIFF_WHATWG_URL || "";
if (!path.isAbsolute(PACKAGE)) {
  // A relative path would be read as a package name, searched for again.
  process.stderr.write(
    `whatwg-url adapter: URIDIFF_WHATWG_URL must be the absolute path of the installed `
      + `package (<cache root>/node/node_modules/whatwg-url), not ${JSON.stringify(PACKAGE)}\n`,
  );
  process.exit(3);
}
let whatwg;
let version;
try {
  whatwg = require(PACKAGE);
  version = require(path.join(PACKAGE, "package.json")).version;
} catch (e) {
  process.stderr.write(
    `whatwg-url adapter: the npm package whatwg-url is not installed at ${PACKAGE}: `
      + `run bash scripts/setup-oracles.sh (${e.message})\n`,
  );
  process.exit(3);
}

const HELLO = {
  uridiff_protocol: 2,
  parser: `whatwg-url ${version}`,
  standard: "WHATWG URL Standard (reference implementation)",
  runtime: `Node.js ${process.version}`,
};

const PROBE_BASE = whatwg.parseURL("x-uridiff-probe:/");

// parseURL, with the validation errors when this whatwg-url reports them
// (null otherwise).
const parse = typeof whatwg.parseURLWithValidationErrors === "function"
  ? (input, options) => {
    const { url, validationErrors } = whatwg.parseURLWithValidationErrors(input, options);
    return { url, errors: validationErrors.map(String) };
  }
  : (input, options) => ({ url: whatwg.parseURL(input, options), errors: null });

function userinfo(u) {
  if (u.host === null || (u.username === "" && u.password === "")) {
    return null;
  }
  return u.password === "" ? u.username : `${u.username}:${u.password}`;
}

// `input` is null for a pair, whose serialization is `resolved` instead.
function describe(id, u, input) {
  const notes = [];
  if (whatwg.hasAnOpaquePath(u)) {
    notes.push("opaque-path");
  }
  if (input !== null && whatwg.serializeURL(u) !== input) {
    notes.push("serialization-differs");
  }
  return {
    id,
    verdict: "accept",
    scheme: u.scheme,
    userinfo: userinfo(u),
    host: u.host === null ? null : whatwg.serializeHost(u.host),
    port: u.port === null ? null : whatwg.serializeInteger(u.port),
    path: whatwg.serializePath(u),
    query: u.query,
    fragment: u.fragment,
    message: null,
    notes,
  };
}

function failure(what, errors) {
  return errors === null || errors.length === 0
    ? `${what}: the URL parser returned failure`
    : `${what}: the URL parser returned failure (${errors.join(", ")})`;
}

function answer(request) {
  const { id, input, base } = request;
  if (base === null || base === undefined) {
    const { url, errors } = parse(input);
    if (url === null) {
      if (whatwg.parseURL(input, { baseURL: PROBE_BASE }) !== null) {
        return { id, verdict: "out-of-domain", message: "a relative reference and no base URL" };
      }
      return { id, verdict: "reject", message: failure("input", errors) };
    }
    const a = describe(id, url, input);
    if (errors !== null) {
      a.notes.push(...errors);
    }
    return a;
  }
  const parsedBase = parse(base);
  if (parsedBase.url === null) {
    return { id, verdict: "reject", message: failure("base", parsedBase.errors) };
  }
  const { url, errors } = parse(input, { baseURL: parsedBase.url });
  if (url === null) {
    return { id, verdict: "reject", message: failure("input against the base", errors) };
  }
  const a = describe(id, url, null);
  a.resolved = whatwg.serializeURL(url);
  if (errors !== null) {
    a.notes.push(...errors);
  }
  return a;
}

// The protocol loop is shared by the Node adapters (node-protocol.cjs,
// written beside this file).
require(path.join(__dirname, "node-protocol.cjs")).serve("whatwg-url", HELLO, answer);
