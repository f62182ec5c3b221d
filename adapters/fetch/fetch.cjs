#!/usr/bin/env node
// uridiff fetch client (Node.js): one GET per request line through Node's
// http module, that can only ever connect to a loopback address on the
// trap's port.
//
//     node fetch.cjs node-http-url-parse   # http.get(url.parse(input), ...)
//     node fetch.cjs node-http-new-url     # http.get(new URL(input), ...)
//
// A .cjs file, and Node's own modules by their node: names: Node reads it
// as CommonJS whatever a package.json above it says, and no node_modules
// directory above it (uridiff writes it under TMPDIR, where anyone may
// create /tmp/node_modules) is ever searched.
//
// Protocol (uridiff::fetch): one hello line {"uridiff_fetch": 1, "client",
// "runtime"}, then per line in {"client", "url", "port", "hosts": {name:
// addr}, "timeout_ms", "token"} one line out {"dialled", "refused",
// "error", "status"}, in order. "token" goes out as the request header
// X-Uridiff-Token (options.headers, merged like the other options below),
// so the trap can tell this request from a stray connection; a line
// without it sends no such header.
//
// How the request is made: Node merges http.get(input, options) as
// Object.assign(input-as-options, options) (lib/_http_client.js; a URL
// goes through urlToHttpOptions first, which takes the brackets off an
// IPv6 hostname), so `port` here replaces the URL's, and `lookup` and
// `createConnection` are the guard's. A `createConnection` with no
// `agent` makes ClientRequest open its own connection, one per request,
// with no pool: what `agent: false` does (a fresh Agent), with the guard
// on the socket's creation.
//
// The guard (not in uridiff's namespace: URIDIFF_FETCH_MODE below):
// - `lookup` (net calls it for a host that net.isIP does not read as an
//   address): a host named in "hosts" (ASCII case-insensitively, one
//   trailing dot ignored) stands for its address; otherwise, since Node
//   would hand the name to getaddrinfo (dns.lookup), which on glibc reads
//   inet_aton's number forms (0x7f.1, 127.1, 017700000001) as IPv4
//   addresses without any DNS, those forms are read here the same way
//   (inetAton below); any other name is refused ("name not mapped: no DNS
//   lookup") and never looked up. Both callback shapes are served (Node 20
//   asks with {all: true} when it tries address families in turn).
// - `createConnection`: the host net will connect to, when it is an
//   address (net.isIP: then no lookup happens), must be loopback; the port
//   is forced to the trap's; the socket's own 'lookup' result is checked
//   again before any connect (a loopback check after every lookup).
// - Loopback: 127.0.0.0/8, ::1, ::ffff:127.0.0.0/104.
// No proxies (Node's http reads no *_proxy variable), no redirects (http
// follows none), a timeout per request.
'use strict';

const http = require('node:http');
const net = require('node:net');
const url = require('node:url');
const readline = require('node:readline');

const CLIENT = process.argv[2] || '';
// URIDIFF_FETCH_MODE=namespace: uridiff runs this process in a network
// namespace whose only interface is lo, with its own hosts file and DNS
// trap (src/fetch/netns.rs): nothing can leave, so Node resolves and
// connects on its own (no lookup or createConnection of ours, the URL's
// port) and the trap observes where it went. Any other value keeps the
// guard. node-fetch (the global fetch, undici) runs only in the namespace:
// it has no hook to guard it with.
const GUARDED = process.env.URIDIFF_FETCH_MODE !== 'namespace';
if (CLIENT === 'node-fetch' && GUARDED) {
  process.stderr.write('fetch.cjs: node-fetch runs only in uridiff fetch\'s network namespace\n');
  process.exit(2);
}
if (CLIENT !== 'node-http-url-parse' && CLIENT !== 'node-http-new-url' && CLIENT !== 'node-fetch') {
  process.stderr.write(`fetch.cjs: unknown client ${JSON.stringify(CLIENT)}\n`);
  process.exit(2);
}

class Refused extends Error {}

// glibc inet_aton: 1 to 4 parts, each decimal, 0x-hex or 0-octal, the last
// filling the remaining bytes; nothing after the number but end of text
// (glibc also stops at whitespace: such a host never reaches here intact).
function inetAton(text) {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const values = [];
  for (const part of parts) {
    let m;
    let v;
    // `0x` needs a hex digit after it: glibc 2.36's getaddrinfo asks DNS
    // for "0x" and "1.0x".
    if ((m = /^0[xX]([0-9a-fA-F]+)$/.exec(part))) v = parseInt(m[1], 16);
    else if (/^0[0-7]*$/.test(part)) v = parseInt(part, 8);
    else if (/^[1-9][0-9]*$/.test(part)) v = parseInt(part, 10);
    else return null;
    if (!Number.isFinite(v)) return null;
    values.push(v);
  }
  const last = values.pop();
  let result = 0;
  for (const v of values) {
    if (v > 255) return null;
    result = result * 256 + v;
  }
  const room = 2 ** (8 * (4 - values.length));
  if (last >= room) return null;
  result = result * room + last;
  return [result >>> 24, (result >>> 16) & 255, (result >>> 8) & 255, result & 255].join('.');
}

function isLoopback(address) {
  const bare = address.split('%')[0];
  const kind = net.isIP(bare);
  if (kind === 4) return bare.split('.')[0] === '127';
  if (kind !== 6) return false;
  const full = expand6(bare);
  if (full === null) return false;
  if (full === '0000:0000:0000:0000:0000:0000:0000:0001') return true;
  // ::ffff:127.0.0.0/104, IPv4-mapped loopback, in any spelling.
  return full.startsWith('0000:0000:0000:0000:0000:ffff:7f');
}

// The eight groups of an IPv6 address, four hex digits each (a trailing
// dotted IPv4 part becomes two groups).
function expand6(text) {
  let t = text.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (v4) {
    const b = v4[1].split('.').map(Number);
    t = t.slice(0, -v4[1].length) +
      ((b[0] << 8) | b[1]).toString(16) + ':' + ((b[2] << 8) | b[3]).toString(16);
  }
  const halves = t.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return null;
  const groups = head.concat(Array(halves.length === 2 ? fill : 0).fill('0'), tail);
  return groups.map((g) => g.padStart(4, '0')).join(':');
}

function key(name) {
  const lower = name.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

// The global fetch (undici): redirects not followed ('manual'), the
// request's timeout as an abort signal, the body read to its end.
function answerFetch(request, done) {
  const timeout = Math.max(request.timeout_ms, 1);
  const headers = request.token ? { 'X-Uridiff-Token': String(request.token) } : {};
  let result;
  try {
    result = fetch(request.url, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeout) });
  } catch (e) {
    done({ dialled: null, refused: null, error: `${e.name}: ${e.message}`, status: null });
    return;
  }
  result
    .then(async (res) => {
      await res.arrayBuffer();
      done({ dialled: null, refused: null, error: null, status: res.status });
    })
    .catch((e) => {
      const cause = e.cause ? ` (${e.cause.code || e.cause.message || e.cause})` : '';
      done({ dialled: null, refused: null, error: `${e.name}: ${e.message}${cause}`, status: null });
    });
}

function answer(request, done) {
  if (CLIENT === 'node-fetch') {
    answerFetch(request, done);
    return;
  }
  const hosts = new Map(Object.entries(request.hosts || {}).map(([k, v]) => [key(k), v]));
  const port = request.port;
  const state = { dialled: null, refused: null };
  const refuse = (reason) => {
    if (state.refused === null) state.refused = reason;
    return new Refused(reason);
  };
  // The address a host name stands for, or a refusal.
  const resolve = (host) => {
    const mapped = hosts.get(key(host));
    const address = mapped !== undefined ? mapped : net.isIP(host) ? host : inetAton(host);
    if (address === null) throw refuse(`name not mapped: no DNS lookup (${host})`);
    if (!isLoopback(address)) throw refuse(`${address} is not a loopback address`);
    return address;
  };
  const lookup = (hostname, options, callback) => {
    if (typeof options === 'function') {
      callback = options;
      options = {};
    }
    let address;
    try {
      address = resolve(hostname);
    } catch (e) {
      process.nextTick(callback, e);
      return;
    }
    const family = net.isIP(address);
    state.dialled = address;
    if (options && options.all) process.nextTick(callback, null, [{ address, family }]);
    else process.nextTick(callback, null, address, family);
  };
  const createConnection = (options) => {
    const host = options.host || 'localhost';
    if (net.isIP(host)) {
      if (!isLoopback(host)) throw refuse(`${host} is not a loopback address`);
      state.dialled = host;
    }
    const socket = net.createConnection({ ...options, port, lookup });
    socket.on('lookup', (err, address) => {
      if (!err && !isLoopback(address)) socket.destroy(refuse(`${address} is not a loopback address`));
    });
    return socket;
  };

  let finished = false;
  let timer = null;
  const finish = (status, error) => {
    if (finished) return;
    finished = true;
    // A request refused before it had a socket never closes: its timer
    // must not keep the process alive after the last request.
    clearTimeout(timer);
    done({ dialled: state.dialled, refused: state.refused, error, status });
  };
  const timeout = Math.max(request.timeout_ms, 1);
  // The port goes to createConnection only: ClientRequest writes the Host
  // header from options.port, which stays the URL's.
  const headers = request.token ? { 'X-Uridiff-Token': String(request.token) } : {};
  // In the namespace: a connection of its own per request (agent: false,
  // as the guard's createConnection does), everything else Node's.
  const options = GUARDED ? { lookup, createConnection, timeout, headers } : { agent: false, timeout, headers };
  let req;
  try {
    const onResponse = (res) => {
      res.resume();
      res.on('end', () => finish(res.statusCode, null));
      res.on('error', (e) => finish(res.statusCode, `${e.name}: ${e.message}`));
    };
    // http.get(options, cb) for url.parse's object, merged the way
    // ClientRequest merges (input, options); http.get(URL, options, cb)
    // for the WHATWG URL.
    req = CLIENT === 'node-http-url-parse'
      ? http.get({ ...url.parse(request.url), ...options }, onResponse)
      : http.get(new URL(request.url), options, onResponse);
  } catch (e) {
    finish(null, `${e.name}: ${e.message}`);
    return;
  }
  req.on('timeout', () => req.destroy(new Error(`timeout after ${timeout} ms`)));
  req.on('error', (e) => finish(null, `${e.name}: ${e.message}`));
  timer = setTimeout(() => req.destroy(new Error(`timeout after ${timeout} ms`)), timeout);
  timer.unref();
}

process.stdout.write(JSON.stringify({
  uridiff_fetch: 1,
  client: `${CLIENT} (Node ${process.versions.node})`,
  runtime: `Node.js ${process.version}`,
}) + '\n');

// One request at a time, in order.
const queue = [];
let busy = false;
function next() {
  if (busy || queue.length === 0) return;
  busy = true;
  const line = queue.shift();
  answer(JSON.parse(line), (result) => {
    process.stdout.write(JSON.stringify(result) + '\n', () => {
      busy = false;
      next();
    });
  });
}
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return;
  queue.push(line);
  next();
});
