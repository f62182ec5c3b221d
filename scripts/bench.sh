#!/usr/bin/env bash
# Runs the benchmarks and prints BENCHMARKS.md's tables: criterion medians
# per URL and the ratios from the same run, scaling per byte, allocations.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/bench.sh [--quick]

Runs `cargo bench --bench parsers` (criterion) and `cargo bench --bench
allocations` on benches/data/urls.txt, then prints Markdown tables of the
median time per URL, the ratios the targets are stated in, time per byte at
1 KiB, 64 KiB and 1 MiB, and allocations per call. --quick shortens the
measurement (for a smoke run; quote only full runs).
USAGE
}

quick=()
case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    --quick) quick=(--warm-up-time 1 --measurement-time 2) ;;
    "") ;;
    *) echo "scripts/bench.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."

cargo bench --locked --bench parsers -- --noplot "${quick[@]}" >&2
cargo bench --locked -p rfc2396 --bench parse -- --noplot "${quick[@]}" scaling >&2
allocs=$(cargo bench --locked --bench allocations 2>/dev/null)

python3 - "$allocs" <<'PY'
import json, os, sys, platform, subprocess, datetime
root = "target/criterion"
n = sum(1 for _ in open("benches/data/urls.txt", encoding="utf-8"))
def median(group, name):
    with open(os.path.join(root, group, name, "new", "estimates.json")) as f:
        return json.load(f)["median"]["point_estimate"]
names = ["byte-table-floor", "rfc2396", "fluent-uri", "http", "url"]
oracles = sorted(d for d in os.listdir(os.path.join(root, "urls")) if d.startswith("oracle-"))
names += oracles + ["oracles-only", "check"]
t = {k: median("urls", k) / n for k in names}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
print(f"Measured {datetime.date.today()} on {cpu} ({os.cpu_count()} cores), rustc {subprocess.run(['rustc','--version'],capture_output=True,text=True).stdout.split()[1]}, {n} URLs.\n")
print("| parser | median ns/URL | vs rfc2396 |\n|---|---:|---:|")
for k in names:
    print(f"| {k} | {t[k]:.1f} | {t[k]/t['rfc2396']:.2f}x |")
print("\n| target | measured | goal |\n|---|---:|---|")
print(f"| fluent-uri / rfc2396 | {t['fluent-uri']/t['rfc2396']:.2f}x | at least 1.5x |")
print(f"| url / rfc2396 | {t['url']/t['rfc2396']:.2f}x | at least 10x |")
print(f"| rfc2396 / byte-table floor | {t['rfc2396']/t['byte-table-floor']:.2f}x | at most 2x |")
print(f"| check / url | {t['check']/t['url']:.2f}x | at most 2x |")
print(f"| (bound) oracles-only / url | {t['oracles-only']/t['url']:.2f}x | what check / url cannot go below |")
print(f"| check / oracles-only (every oracle of the registry, back to back) | {t['check']/t['oracles-only']:.2f}x | at most 1.25x |")
print("\n| input | median ns/byte |\n|---|---:|")
per_byte = {}
for size in ["1024", "65536", "1048576"]:
    est = median("scaling/parse", size)
    with open(os.path.join(root, "scaling/parse", size, "new", "benchmark.json")) as f:
        nbytes = json.load(f)["throughput"]["Bytes"]
    per_byte[size] = est / nbytes
    print(f"| {int(size)//1024} KiB | {per_byte[size]:.3f} |")
print(f"\nlargest / smallest time per byte: {max(per_byte.values())/min(per_byte.values()):.2f}x (goal: within 1.5x)\n")
print("```\n" + sys.argv[1].strip() + "\n```")
PY
