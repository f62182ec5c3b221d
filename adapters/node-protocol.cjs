// The pipe protocol's loop (GUIDE.md, "External oracles"), shared by the
// Node adapters (node-url, whatwg-url, fast-uri, uri-js, url-parse):
// uridiff writes this file beside each of them (the descriptor's `files`),
// and each calls serve(NAME, HELLO, answer).
//
// serve writes the hello line, then answers every request line of
// standard input with answer(request): standard input is read in chunks,
// every complete line of a chunk is answered, and the answers are written
// together, once per chunk. A request line that is not a JSON object with
// an integer "id", a string "input" and a null or string "base" ends the
// process with exit status 2 and a message naming the adapter; a closed
// standard output (EPIPE) ends it with 0.

"use strict";

function serve(name, hello, answer) {
  function fail(message) {
    process.stderr.write(`${name} adapter: ${message}\n`);
    process.exit(2);
  }

  function request(line) {
    let r;
    try {
      r = JSON.parse(line);
    } catch (e) {
      fail(`request line is not JSON: ${e.message}`);
    }
    if (r === null || typeof r !== "object" || !Number.isSafeInteger(r.id)
        || typeof r.input !== "string"
        || !(r.base === null || r.base === undefined || typeof r.base === "string")) {
      fail(`request line without an integer "id", a string "input" and a null or string "base": ${line}`);
    }
    return r;
  }

  process.stdout.on("error", (e) => process.exit(e.code === "EPIPE" ? 0 : 2));
  process.stdout.write(`${JSON.stringify(hello)}\n`);
  let pending = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop();
    const out = [];
    for (const line of lines) {
      if (line.trim() !== "") {
        out.push(JSON.stringify(answer(request(line))));
      }
    }
    if (out.length > 0) {
      out.push("");
      process.stdout.write(out.join("\n"));
    }
  });
  process.stdin.on("end", () => {
    if (pending.trim() !== "") {
      process.stdout.write(`${JSON.stringify(answer(request(pending)))}\n`);
    }
  });
}

module.exports = { serve };
