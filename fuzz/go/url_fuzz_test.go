// Coverage-guided fuzzing (`go test -fuzz`) of the Go parser uridiff's
// go-net-url adapter runs: net/url.Parse, and URL.ResolveReference against
// a base (adapters/go-net-url.go).
//
// From this directory:
//
//	URIDIFF_FUZZ_SEEDS=../../corpus/differential go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 60s
//
// Seeds: every file (up to 4096 bytes, at most maxSeeds of them) in the
// directories URIDIFF_FUZZ_SEEDS lists (separated like PATH), the shared
// corpus in libFuzzer's format. Go keeps what it finds in its own format
// under $(go env GOCACHE)/fuzz/uridifffuzz/FuzzParse; ./export converts
// those files into the shared corpus directory (one raw input per file,
// named by SHA-1), where `uridiff corpus follow` checks them with every
// adapter. This fuzzer only drives net/url into new code; uridiff judges
// what it answers. It fails by itself only on a panic.
package urlfuzz

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// maxSeeds bounds the seeds read: each is run once at every start.
const maxSeeds = 20000

// maxLen is the campaigns' -max_len.
const maxLen = 4096

// seeds reads the seed files of every directory in URIDIFF_FUZZ_SEEDS.
func seeds(t testing.TB) []string {
	var out []string
	for _, dir := range filepath.SplitList(os.Getenv("URIDIFF_FUZZ_SEEDS")) {
		if dir == "" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatalf("URIDIFF_FUZZ_SEEDS: %v", err)
		}
		for _, e := range entries {
			if len(out) >= maxSeeds {
				return out
			}
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() || info.Size() > maxLen {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err == nil {
				out = append(out, string(data))
			}
		}
	}
	return out
}

// base is the base of RFC 3986 section 5.4's examples.
const base = "http://a/b/c/d;p?q"

func FuzzParse(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	b, err := url.Parse(base)
	if err != nil {
		f.Fatalf("the base %q: %v", base, err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxLen {
			return
		}
		u, err := url.Parse(s)
		if err == nil {
			// What the adapter reads: the serialization, host and port,
			// and the reference resolved against a base.
			_ = u.String()
			_ = u.Hostname()
			_ = u.Port()
			_ = u.EscapedPath()
			_ = b.ResolveReference(u).String()
		}
		_, _ = url.ParseRequestURI(s)
	})
}
