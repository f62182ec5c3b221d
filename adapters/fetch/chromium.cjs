#!/usr/bin/env node
// uridiff fetch client: headless Chromium following a redirect, the
// open-redirect fetcher.
//
//     node chromium.cjs chromium
//
// Runs only in uridiff fetch's network namespace (URIDIFF_FETCH_MODE=
// namespace: only lo, a private /etc/hosts, a DNS trap; src/fetch/netns.rs):
// Chromium has no hook a guard could sit in, so nothing but the namespace
// keeps it on loopback.
//
// Protocol (uridiff::fetch): one hello line {"uridiff_fetch": 1, "client",
// "runtime"}, then per line in {"client", "url", "timeout_ms", "token"} one
// line out {"dialled", "refused", "error", "status"}, in order. "url" is
// not the input: it is a trap page on loopback that answers 302 with the
// input as its Location (src/fetch/trap.rs), so what is observed is where
// Chromium goes when a site redirects it to the input.
//
// How: one Chromium for the whole run, driven over the DevTools protocol
// on a pipe (--remote-debugging-pipe: Chromium reads commands on fd 3 and
// writes on fd 4, each message JSON ended by a NUL byte; no port is
// opened). Per request: a fresh browser context (its own cookies, cache,
// HSTS and host cache, like a new incognito window), a tab in it, the
// token as an extra header of every request of that tab
// (Network.setExtraHTTPHeaders, which Chromium keeps across redirects,
// cross-origin ones included), Page.navigate to the trap page, and the
// context disposed afterwards. Page.navigate answers once the navigation
// committed (a response arrived) or failed; its errorText
// (net::ERR_NAME_NOT_RESOLVED, net::ERR_UNSAFE_REDIRECT, ...) is the
// error. A request that does not end within timeout_ms is answered with
// an error and its context disposed.
//
// Chromium's profile is a directory "profile" beside this file, in the
// temporary directory uridiff made for it and removes when the client
// ends; it is removed here too once Chromium has exited.
//
// Names: no --host-resolver-rules and no proxy. Chromium resolves with
// its own settings, which read the namespace's /etc/hosts,
// /etc/nsswitch.conf and /etc/resolv.conf: the same files every other
// client sees.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');

const CLIENT = process.argv[2] || '';
if (CLIENT !== 'chromium') {
  process.stderr.write(`chromium.cjs: unknown client ${JSON.stringify(CLIENT)}\n`);
  process.exit(2);
}
if (process.env.URIDIFF_FETCH_MODE !== 'namespace') {
  process.stderr.write('chromium.cjs: chromium runs only in uridiff fetch\'s network namespace\n');
  process.exit(2);
}

const PROFILE = path.join(__dirname, 'profile');
const BROWSER = 'chromium';
const FLAGS = [
  '--headless',
  // As root Chromium refuses to start with its sandbox; the namespace is
  // the sandbox that matters here (nothing but lo).
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--no-default-browser-check',
  '--no-proxy-server',
  // Nothing of its own on the network: no component updates, no sync, no
  // safe-browsing or metrics pings, no DNS prefetching, whose lookups
  // would reach the DNS trap beside the request's own.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--dns-prefetch-disable',
  '--metrics-recording-only',
  '--safebrowsing-disable-auto-update',
  // Its network-time query (clients2.google.com/time) at start, and the
  // optimization guide's hint fetches (optimizationguide-pa.googleapis.com,
  // seen during navigations before these were off).
  '--disable-features=NetworkTimeServiceQuerying,OptimizationHints,OptimizationHintsFetching,'
    + 'OptimizationGuideModelDownloading,OptimizationTargetPrediction',
  '--remote-debugging-pipe',
  `--user-data-dir=${PROFILE}`,
  'about:blank',
];

let browser;
try {
  browser = spawn(BROWSER, FLAGS, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
} catch (e) {
  process.stderr.write(`chromium.cjs: starting ${BROWSER}: ${e.message}\n`);
  process.exit(1);
}
// Chromium's own log (D-Bus and GPU complaints in a namespace) is dropped,
// but its last lines are kept for a failure.
let stderrTail = '';
browser.stderr.on('data', (d) => {
  stderrTail = (stderrTail + d.toString()).slice(-2000);
});
let closing = false;
browser.on('error', (e) => {
  process.stderr.write(`chromium.cjs: ${BROWSER}: ${e.message}\n`);
  process.exit(1);
});
browser.on('exit', (code, signal) => {
  if (!closing) {
    process.stderr.write(`chromium.cjs: ${BROWSER} exited (${code ?? signal}): ${stderrTail}\n`);
    process.exit(1);
  }
});

// The DevTools pipe: commands with ids, their results, and events.
let nextId = 0;
const pending = new Map();
const eventListeners = new Set();
let inbox = Buffer.alloc(0);
browser.stdio[4].on('data', (data) => {
  inbox = Buffer.concat([inbox, data]);
  for (let end = inbox.indexOf(0); end >= 0; end = inbox.indexOf(0)) {
    const text = inbox.subarray(0, end).toString('utf8');
    inbox = inbox.subarray(end + 1);
    let message;
    try {
      message = JSON.parse(text);
    } catch (e) {
      continue;
    }
    if (message.id !== undefined && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error.message || JSON.stringify(message.error)));
      else resolve(message.result || {});
    } else {
      for (const listener of eventListeners) listener(message);
    }
  }
});

function send(method, params, sessionId) {
  return new Promise((resolve, reject) => {
    nextId += 1;
    const message = { id: nextId, method, params: params || {} };
    if (sessionId) message.sessionId = sessionId;
    pending.set(nextId, { resolve, reject });
    browser.stdio[3].write(`${JSON.stringify(message)}\0`);
  });
}

function out(answer) {
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}

// One navigation in a fresh context; the answer's error is Chromium's.
async function navigate(request, context) {
  const target = await send('Target.createTarget', {
    url: 'about:blank',
    browserContextId: context,
  });
  const { sessionId } = await send('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: true,
  });
  let status = null;
  const listener = (m) => {
    if (m.sessionId === sessionId && m.method === 'Network.responseReceived'
      && m.params.type === 'Document') {
      status = m.params.response.status;
    }
  };
  eventListeners.add(listener);
  try {
    await send('Network.enable', {}, sessionId);
    if (typeof request.token === 'string') {
      await send('Network.setExtraHTTPHeaders', {
        headers: { 'X-Uridiff-Token': request.token },
      }, sessionId);
    }
    const result = await send('Page.navigate', { url: request.url }, sessionId);
    return { dialled: null, refused: null, error: result.errorText || null, status };
  } finally {
    eventListeners.delete(listener);
  }
}

async function fetchOne(request) {
  const timeoutMs = Number.isFinite(request.timeout_ms) ? request.timeout_ms : 5000;
  const { browserContextId: context } = await send('Target.createBrowserContext', {});
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve({
      dialled: null,
      refused: null,
      error: `no answer within ${timeoutMs} ms`,
      status: null,
    }), timeoutMs);
  });
  try {
    return await Promise.race([navigate(request, context), late]);
  } catch (e) {
    return { dialled: null, refused: null, error: `DevTools: ${e.message}`, status: null };
  } finally {
    clearTimeout(timer);
    // Closes its tab and forgets everything it held.
    await send('Target.disposeBrowserContext', { browserContextId: context }).catch(() => {});
  }
}

function finish() {
  closing = true;
  const done = () => {
    fs.rmSync(PROFILE, { recursive: true, force: true });
    process.exit(0);
  };
  if (browser.exitCode !== null || browser.signalCode !== null) {
    done();
    return;
  }
  browser.once('exit', done);
  send('Browser.close').catch(() => {});
  setTimeout(() => browser.kill('SIGKILL'), 5000).unref();
}

// Even so, this build asks update.googleapis.com for component updates
// within its first few hundred milliseconds (seen in its net log): the
// hello waits for those lookups to fail, so that the DNS trap's first
// question during a request is the request's own.
const SETTLE_MS = 1000;

async function main() {
  const version = await send('Browser.getVersion');
  await new Promise((resolve) => { setTimeout(resolve, SETTLE_MS); });
  out({ uridiff_fetch: 1, client: CLIENT, runtime: version.product || 'chromium' });
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (e) {
      out({ dialled: null, refused: null, error: `not JSON: ${e.message}`, status: null });
      continue;
    }
    out(await fetchOne(request));
  }
  finish();
}

main().catch((e) => {
  process.stderr.write(`chromium.cjs: ${e.message}\n`);
  closing = true;
  browser.kill('SIGKILL');
  process.exit(1);
});
