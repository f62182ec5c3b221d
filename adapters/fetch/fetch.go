// uridiff fetch client (Go): one GET per request line through net/http's
// Client.Get, that can only ever connect to a loopback address on the
// trap's port.
//
//	go build -trimpath -o fetch fetch.go && ./fetch go-net-http
//
// Protocol (uridiff::fetch): one hello line {"uridiff_fetch": 1, "client",
// "runtime"}, then per line in {"client", "url", "port", "hosts": {name:
// addr}, "timeout_ms", "token"} one line out {"dialled", "refused",
// "error", "status"}, in order. "token" goes out as the request header
// X-Uridiff-Token (Header.Set on the request Client.Get would make:
// NewRequest then Client.Do, which is all Get does), so the trap can tell
// this request from a stray connection; a line without it sends no such
// header.
//
// The guard is the Transport's DialContext, which receives "host:port" as
// net/http chose it from the URL (the port its default or the URL's): a
// host named in "hosts" (ASCII case-insensitively, one trailing dot
// ignored) stands for its address; otherwise the host must be what Go's
// dialer takes as an IP literal (net.ParseIP, after a "%zone"), else it is
// refused ("name not mapped: no DNS lookup") and never looked up. The
// address must be loopback (IP.IsLoopback: 127.0.0.0/8, ::1, and
// ::ffff:127.0.0.0/104); the connection goes to it on the trap's port.
// No proxy (Transport.Proxy nil), no redirects (CheckRedirect returns
// ErrUseLastResponse), no keep-alive, Client.Timeout per request.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

type request struct {
	URL       string            `json:"url"`
	Port      int               `json:"port"`
	Hosts     map[string]string `json:"hosts"`
	TimeoutMs int64             `json:"timeout_ms"`
	Token     string            `json:"token"`
}

type answer struct {
	Dialled *string `json:"dialled"`
	Refused *string `json:"refused"`
	Error   *string `json:"error"`
	Status  *int    `json:"status"`
}

// guarded: false in uridiff's network namespace (URIDIFF_FETCH_MODE=namespace),
// whose only interface is lo, with its own hosts file and DNS trap
// (src/fetch/netns.rs): nothing can leave, so net/http resolves and dials
// on its own and the trap observes where it went.
var guarded = os.Getenv("URIDIFF_FETCH_MODE") != "namespace"

func key(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return strings.TrimSuffix(b.String(), ".")
}

func fetch(req request) answer {
	var out answer
	hosts := map[string]string{}
	for k, v := range req.Hosts {
		hosts[key(k)] = v
	}
	refuse := func(reason string) error {
		if out.Refused == nil {
			out.Refused = &reason
		}
		return errors.New(reason)
	}
	dialer := &net.Dialer{}
	dial := func(ctx context.Context, network, address string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return nil, refuse("not host:port: " + address)
		}
		var ip net.IP
		if mapped, ok := hosts[key(host)]; ok {
			ip = net.ParseIP(mapped)
		} else {
			literal := host
			if i := strings.IndexByte(literal, '%'); i >= 0 {
				literal = literal[:i]
			}
			ip = net.ParseIP(literal)
			if ip == nil {
				return nil, refuse("name not mapped: no DNS lookup (" + host + ")")
			}
		}
		if ip == nil || !ip.IsLoopback() {
			return nil, refuse(fmt.Sprintf("%v is not a loopback address", ip))
		}
		text := ip.String()
		out.Dialled = &text
		return dialer.DialContext(ctx, network, net.JoinHostPort(text, strconv.Itoa(req.Port)))
	}
	timeout := time.Duration(req.TimeoutMs) * time.Millisecond
	if timeout <= 0 {
		timeout = time.Millisecond
	}
	transport := &http.Transport{
		Proxy:             nil,
		DialContext:       dial,
		DisableKeepAlives: true,
	}
	if !guarded {
		// uridiff's namespace: Go's own dialer and resolver.
		transport.DialContext = nil
	}
	client := &http.Client{
		Transport: transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       timeout,
	}
	// What client.Get(req.URL) does, with the token header.
	get, err := http.NewRequestWithContext(context.Background(), http.MethodGet, req.URL, nil)
	if err != nil {
		text := err.Error()
		out.Error = &text
		return out
	}
	if req.Token != "" {
		get.Header.Set("X-Uridiff-Token", req.Token)
	}
	resp, err := client.Do(get)
	if err != nil {
		text := err.Error()
		out.Error = &text
		return out
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	status := resp.StatusCode
	out.Status = &status
	return out
}

func main() {
	if len(os.Args) < 2 || os.Args[1] != "go-net-http" {
		fmt.Fprintf(os.Stderr, "fetch.go: unknown client %q\n", strings.Join(os.Args[1:], " "))
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]interface{}{
		"uridiff_fetch": 1,
		"client":        "go-net-http (" + runtime.Version() + ")",
		"runtime":       runtime.Version(),
	})
	out.Flush()
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var req request
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				fmt.Fprintf(os.Stderr, "fetch.go: not a request: %v\n", jerr)
				os.Exit(2)
			}
			_ = enc.Encode(fetch(req))
			out.Flush()
		}
		if err != nil {
			return
		}
	}
}
