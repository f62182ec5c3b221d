// uridiff external oracle `go-net-url`: Go's net/url.Parse, read the way an
// application reads it (URL.Hostname() and URL.Port()), and
// URL.ResolveReference for pairs.
//
// Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
// line, then one JSON request {"id", "input", "base"} per line in and one
// JSON answer per line out, in request order, each echoing the request's id.
// A single file, standard library only, so that it builds without a module:
//
//	go build -o go-net-url go-net-url.go
//
// What each key reports, and the documented behaviours it relies on
// (https://pkg.go.dev/net/url):
//
//   - The input goes through url.Parse(input) exactly as an application calls
//     it; an error gives `reject` with Go's message ("parse \"...\": ...").
//     With a base, url.Parse(base) (an error gives `reject` with "base: "
//     before Go's message), url.Parse(input), then base.ResolveReference(ref)
//     (RFC 3986 section 5.2, as the doc says); the answer describes the
//     resolved *url.URL and `resolved` is its String().
//   - scheme: URL.Scheme (Go lower-cases it); null when empty (Go has no
//     "present but empty" scheme).
//   - authority: Go keeps no authority, only User and Host, and cannot tell
//     `http:/p` from `http:///p` (both have Host ""). The text given to
//     url.Parse is split the way Parse splits it (fragment cut at the first
//     '#', the query at the first '?', the scheme and its ':' taken off,
//     then "//" starts an authority that runs to the next '/'), and the raw
//     text after "//" is reported; null when there is no "//" there. For a
//     pair that text is the resolved URL's String(), which writes "//" for
//     any URL with a scheme and a host, a user or a path (so an empty host
//     after a scheme reads as present and empty, as Go serialises it).
//   - userinfo: the raw text before the authority's last '@' (the split
//     Parse makes); null when URL.User is nil. Go decodes it into User; the
//     raw text is what the input held.
//   - host: URL.Hostname(), as an application reads it: percent-decoded
//     (Parse unescapes the host) and with the port taken off at the last ':'
//     followed by digits only. Hostname() removes the brackets of a
//     bracketed host; they are put back whenever URL.Host starts with '[',
//     so an IPv6 literal reads "[::1]" as the RFC 3986 oracles report it,
//     and so does a bracketed name Go accepts without checking ("[localhost]":
//     Go dials "localhost"). null when there is no authority (above); ""
//     for an empty host.
//   - port: URL.Port() (digits only, leading zeros kept); "" when URL.Host
//     ends in ':' after the host (Port() is "" then, and for no port too);
//     null when there is no ':' after the host.
//   - path: URL.EscapedPath() (RawPath when it is a valid encoding of Path,
//     else Path re-escaped: `http://h/a b` gives "/a%20b", what Go sends).
//     For an opaque URL (a scheme and no '/' after its ':', as mailto:a@b)
//     Go keeps the rest in URL.Opaque, which is reported as the path.
//   - query: URL.RawQuery; "" when it is empty and URL.ForceQuery is set
//     (a '?' with nothing after it); null when neither.
//   - fragment: URL.EscapedFragment(); present when the text holds a '#'
//     (Parse cuts at the first one; for a pair, String() writes '#' only for
//     a non-empty fragment, so an empty one reads absent there).
//   - message: url.Parse's error text for `reject`, else null.
//   - notes: "host-not-utf8" when the decoded host is not UTF-8 (a
//     percent-encoded byte >= 0x80 that is no UTF-8 sequence, which Parse
//     accepts in a host): JSON cannot carry it, and each such byte is
//     written as U+FFFD.
//
// IO: requests are read with a bufio.Reader (no line-length limit); answers
// are buffered and flushed whenever no more input is buffered, so a batch's
// answers go out together.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime"
	"strings"
	"unicode/utf8"
)

type request struct {
	ID    *int64  `json:"id"`
	Input *string `json:"input"`
	Base  *string `json:"base"`
}

type accepted struct {
	ID        int64    `json:"id"`
	Verdict   string   `json:"verdict"`
	Scheme    *string  `json:"scheme"`
	Authority *string  `json:"authority"`
	Userinfo  *string  `json:"userinfo"`
	Host      *string  `json:"host"`
	Port      *string  `json:"port"`
	Path      *string  `json:"path"`
	Query     *string  `json:"query"`
	Fragment  *string  `json:"fragment"`
	Message   *string  `json:"message"`
	Resolved  *string  `json:"resolved,omitempty"`
	Notes     []string `json:"notes,omitempty"`
}

type refused struct {
	ID      int64  `json:"id"`
	Verdict string `json:"verdict"`
	Message string `json:"message"`
}

func some(s string) *string { return &s }

// authority splits text the way url.Parse does (see the header) and returns
// the raw authority, or nil when Parse saw none.
func authority(text string, u *url.URL) *string {
	rest, _, _ := strings.Cut(text, "#")
	if u.Scheme != "" {
		// Parse lower-cases the scheme, which keeps its length.
		if len(rest) <= len(u.Scheme) {
			return nil
		}
		rest = rest[len(u.Scheme)+1:]
	}
	if strings.HasSuffix(rest, "?") && strings.Count(rest, "?") == 1 {
		rest = rest[:len(rest)-1]
	} else {
		rest, _, _ = strings.Cut(rest, "?")
	}
	if !strings.HasPrefix(rest, "//") || (u.Scheme == "" && strings.HasPrefix(rest, "///")) {
		return nil
	}
	auth := rest[2:]
	if i := strings.IndexByte(auth, '/'); i >= 0 {
		auth = auth[:i]
	}
	return &auth
}

func accept(id int64, u *url.URL, text string) *accepted {
	a := &accepted{ID: id, Verdict: "accept"}
	if u.Scheme != "" {
		a.Scheme = some(u.Scheme)
	}
	a.Authority = authority(text, u)
	if u.User != nil && a.Authority != nil {
		if i := strings.LastIndex(*a.Authority, "@"); i >= 0 {
			a.Userinfo = some((*a.Authority)[:i])
		}
	}
	if a.Authority != nil || u.Host != "" {
		host := u.Hostname()
		if strings.HasPrefix(u.Host, "[") {
			host = "[" + host + "]"
		}
		a.Host = some(host)
		if !utf8.ValidString(host) {
			// encoding/json writes each invalid byte as U+FFFD.
			a.Notes = append(a.Notes, "host-not-utf8")
		}
		if rest := strings.TrimPrefix(u.Host, host); strings.HasPrefix(rest, ":") {
			a.Port = some(rest[1:])
		}
	}
	if u.Opaque != "" {
		a.Path = some(u.Opaque)
	} else {
		a.Path = some(u.EscapedPath())
	}
	if u.ForceQuery || u.RawQuery != "" {
		a.Query = some(u.RawQuery)
	}
	if strings.Contains(text, "#") {
		a.Fragment = some(u.EscapedFragment())
	}
	return a
}

func answer(r request) interface{} {
	id := *r.ID
	if r.Base == nil {
		u, err := url.Parse(*r.Input)
		if err != nil {
			return refused{id, "reject", err.Error()}
		}
		return accept(id, u, *r.Input)
	}
	base, err := url.Parse(*r.Base)
	if err != nil {
		return refused{id, "reject", "base: " + err.Error()}
	}
	ref, err := url.Parse(*r.Input)
	if err != nil {
		return refused{id, "reject", err.Error()}
	}
	u := base.ResolveReference(ref)
	s := u.String()
	a := accept(id, u, s)
	a.Resolved = &s
	return a
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "go-net-url adapter: "+format+"\n", args...)
	os.Exit(2)
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	enc := json.NewEncoder(w)
	// Exact text: no <, >, & escapes (they would still be valid JSON).
	enc.SetEscapeHTML(false)
	hello := struct {
		Protocol int    `json:"uridiff_protocol"`
		Parser   string `json:"parser"`
		Standard string `json:"standard"`
		Runtime  string `json:"runtime"`
	}{
		2,
		"Go net/url " + runtime.Version(),
		"RFC 3986 (Go net/url, lenient)",
		runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
	}
	if err := enc.Encode(hello); err != nil {
		fail("writing the hello: %v", err)
	}
	if err := w.Flush(); err != nil {
		os.Exit(0)
	}
	for {
		line, err := in.ReadString('\n')
		if len(strings.TrimSpace(line)) > 0 {
			var r request
			if jerr := json.Unmarshal([]byte(line), &r); jerr != nil {
				w.Flush()
				fail("request line is not a JSON object: %v", jerr)
			}
			if r.ID == nil || r.Input == nil {
				w.Flush()
				fail("request line without an integer \"id\" and a string \"input\": %q", line)
			}
			if eerr := enc.Encode(answer(r)); eerr != nil {
				fail("writing an answer: %v", eerr)
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				w.Flush()
				fail("reading standard input: %v", err)
			}
			break
		}
		if in.Buffered() == 0 {
			if w.Flush() != nil {
				// uridiff closed the pipe: nothing left to answer.
				os.Exit(0)
			}
		}
	}
	w.Flush()
}
