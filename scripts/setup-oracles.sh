#!/usr/bin/env bash
# Installs what uridiff's shipped external oracles (adapters/) need: their
# runtimes from Debian, their pinned libraries from PyPI and npm into the
# cache root, and the Go adapter's binary. Idempotent: what is there is left
# alone, so a second run only checks (and is fast).
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/setup-oracles.sh [--check] [--help]

Makes every shipped external oracle of uridiff ready to run, and the pinned
libraries of uridiff fetch's Python clients, then prints one line per adapter
(and per Python client library): "ready", or what is missing and the command
that installs it.

  1. Runtimes, from Debian with apt-get (as root, or through sudo when it
     works without a password; otherwise it says what it could not install):
       go      golang-go
       php     php-cli
       ruby    ruby
       perl    perl
       liburi-perl       Perl's URI module (perl-uri; Debian 12: 5.17-1), when
                         perl cannot load URI
       ruby-addressable  the Addressable gem (ruby-addressable; Debian 12:
                         2.8.1-1, with ruby-public-suffix 4.0.6+ds-2), when
                         ruby cannot load addressable/uri
       node    nodejs npm         (only when node is missing)
       java    default-jdk-headless (only when java is missing: java-uri runs
               its source file, which needs the compiler a JRE lacks)
       libspring-web-java  (spring-uri; when /usr/share/java/spring3-web.jar is
               missing; bookworm: 4.3.30-2)
       libjetty9-java      (jetty-httpuri; when /usr/share/java/jetty9-http.jar
               is missing; bookworm: 9.4.57-1.1~deb12u1)
       ip      iproute2           (uridiff fetch brings lo up in its namespace)
       php-curl                   (uridiff fetch's php-curl client)
       python3 python3 python3-pip (when python3 or its pip is missing)
     and, for the in-process oracle `uriparser` (cargo feature `uriparser`,
     off by default), the C library and its pkg-config file:
       liburiparser-dev pkg-config (when `pkg-config --exists liburiparser`
               fails)
  2. Pinned libraries, into the cache root ($URIDIFF_CACHE, else
     $XDG_CACHE_HOME/uridiff, else $HOME/.cache/uridiff):
       <root>/python/  urllib3, yarl, httpx and upa-url, and uridiff fetch's
                       requests and aiohttp, with every library they need
                       (idna, multidict, propcache, httpcore, anyio, certifi,
                       h11, typing_extensions, charset_normalizer,
                       aiohappyeyeballs, aiosignal, attrs, frozenlist):
                       pip install --target
                       into a temporary directory, --require-hashes --no-deps
                       -r adapters/requirements.txt, then each pinned project
                       not already there at its pinned version is moved in
                       (an older version of it replaced); what else is there
                       is left as it is
       <root>/node/    whatwg-url, fast-uri, uri-js and url-parse (with
                       their dependencies): adapters/package.json and
                       package-lock.json copied there, then
                       npm ci --omit=dev --ignore-scripts
  3. The Go adapter, built as uridiff builds it on first use: with
     adapters/go.mod in a directory of its own, in an environment that keeps
     only PATH, HOME, TMPDIR, GOROOT, GOPATH, GOCACHE, GOMODCACHE and
     XDG_CACHE_HOME (so no GOOS, GOARCH, GOFLAGS, go.work or `go env -w`
     setting of yours takes part) and sets GOENV=off GOTOOLCHAIN=local
     GOWORK=off GO111MODULE=on GOPROXY=off CGO_ENABLED=0, into
       <root>/go/go-net-url-<KEY>
     KEY: the first 16 hex digits of the SHA-256 of adapters/go-net-url.go
     followed by what `go env GOVERSION GOOS GOARCH` prints in that
     environment (another Go gets a program of its own).

Adapters and fetch clients then run with URIDIFF_PYTHON_LIB=<root>/python
(urllib3, yarl, httpx, upa-url; requests, aiohttp), and each Node library loaded by its absolute path:
URIDIFF_WHATWG_URL, URIDIFF_FAST_URI, URIDIFF_URI_JS and URIDIFF_URL_PARSE
name <root>/node/node_modules/whatwg-url, fast-uri, uri-js and url-parse.

Options:
  --check   install nothing: only print each adapter's state
  --help    this text

Exit status: 0 when every install it attempted succeeded (an adapter whose
runtime needs root it does not have is listed as missing, with the apt-get
line, and does not change the status); with --check, 0 only when every
adapter is ready. 1 when an install failed (or, with --check, an adapter is
not ready); 2 on a usage error.
USAGE
}

check_only=0
for arg in "$@"; do
    case "$arg" in
        -h|--help) usage; exit 0 ;;
        --check) check_only=1 ;;
        *) echo "setup-oracles.sh: unknown argument '$arg'" >&2; usage >&2; exit 2 ;;
    esac
done

repo="$(cd "$(dirname "$0")/.." && pwd)"
adapters="$repo/adapters"

if [ -n "${URIDIFF_CACHE:-}" ]; then
    root="$URIDIFF_CACHE"
elif [ -n "${XDG_CACHE_HOME:-}" ]; then
    root="$XDG_CACHE_HOME/uridiff"
elif [ -n "${HOME:-}" ]; then
    root="$HOME/.cache/uridiff"
else
    echo "setup-oracles.sh: none of URIDIFF_CACHE, XDG_CACHE_HOME and HOME is set: no cache root" >&2
    exit 2
fi

failed=0
say() { echo "setup-oracles.sh: $*" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }
sha256() { # [file]: of the file, else of standard input
    if have sha256sum; then sha256sum "$@"; else shasum -a 256 "$@"; fi | cut -c1-64
}

# Installs go to a temporary directory beside their target and are renamed
# into place, so an interrupted run leaves no half-installed library; the
# temporary directories go when the script ends, however it ends.
temporaries=()
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() { if [ "${#temporaries[@]}" -gt 0 ]; then rm -rf "${temporaries[@]}"; fi; }
trap cleanup EXIT
temporary() { # parent prefix: prints a new directory's path
    mkdir -p "$1"
    mktemp -d "$1/$2.XXXXXX"
}

# The pinned versions, read from the committed files (printed in the lines).
pin() { sed -n "s/^$1==\([^ ]*\).*/\1/p" "$adapters/requirements.txt"; }
urllib3_pin="$(pin urllib3)"
yarl_pin="$(pin yarl)"
httpx_pin="$(pin httpx)"
upa_pin="$(pin upa-url)"
requests_pin="$(pin requests)"
aiohttp_pin="$(pin aiohttp)"
npm_pin() { sed -n "s/.*\"$1\": *\"\([^\"]*\)\".*/\1/p" "$adapters/package.json" | head -n 1; }
# The Node libraries installed together from adapters/package-lock.json.
node_libs=(whatwg-url fast-uri uri-js url-parse)

# Runs go in directory $1 with the rest as its arguments, in the environment
# uridiff builds Go programs in (src/oracle/external/shipped.rs, go_build:
# keep the two together).
clean_go() {
    local dir="$1" v
    shift
    local env=()
    for v in PATH HOME TMPDIR GOROOT GOPATH GOCACHE GOMODCACHE XDG_CACHE_HOME; do
        if [ -n "${!v+set}" ]; then env+=("$v=${!v}"); fi
    done
    # go build needs a build cache: a throw-away one without a home.
    if [ -z "${GOCACHE+set}" ] && [ -z "${XDG_CACHE_HOME+set}" ] && [ -z "${HOME+set}" ]; then
        env+=("GOCACHE=$dir/scratch-cache")
    fi
    (cd "$dir" && env -i "${env[@]}" GOENV=off GOTOOLCHAIN=local GOWORK=off GO111MODULE=on \
        GOPROXY=off CGO_ENABLED=0 go "$@")
}

# The Go adapter's place in the cache (needs go: the name covers the
# toolchain); empty without go.
go_bin=""
go_program() {
    local dir sum
    dir="$(mktemp -d)"
    sum="$( { cat "$adapters/go-net-url.go"; clean_go "$dir" env GOVERSION GOOS GOARCH; } \
        | sha256 | cut -c1-16)"
    rm -rf "$dir"
    go_bin="$root/go/go-net-url-$sum"
}

# The stamp records which committed file an install came from, so a changed
# pin reinstalls and an unchanged one costs a comparison.
node_stamp="$root/node/.uridiff-package-lock.sha256"
lock_sum="$(sha256 "$adapters/package-lock.json")"
stamp_is() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }

# The Python libraries are ready when every NAME==VERSION that
# requirements.txt pins is installed in <root>/python at that version, read
# from the installed metadata (the *.dist-info directories); other projects
# there (another checkout's pins) do not matter. Reads nothing but the
# standard library (-I -S).
python_pins_check='
import importlib.metadata as md, re, sys
def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()
have = {norm(d.metadata["Name"] or ""): d.version for d in md.distributions(path=[sys.argv[1]])}
pins = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^ \\]+)", open(sys.argv[2]).read(), re.M)
missing = [n + "==" + v for n, v in pins if have.get(norm(n)) != v]
print(" ".join(missing))
sys.exit(1 if missing or not pins else 0)
'
python_libs_ready() {
    [ -d "$root/python" ] && python3 -I -S -c "$python_pins_check" "$root/python" \
        "$adapters/requirements.txt" >/dev/null 2>&1
}

# Moves the projects pip installed into $1 into $2, one project at a time,
# by the files each one's RECORD lists: a project already in $2 at the same
# version is left as it is; one there at another version has its files
# removed first; nothing else in $2 is touched (another checkout may have
# pinned other projects there). Each top-level entry moves with one
# rename, in the same file system, so no import sees half a package.
python_merge='
import importlib.metadata as md, os, re, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()
def entries(dist):
    # Top-level entries of a project; in the shared bin/ and __pycache__/
    # directories, its own files.
    out = set()
    for f in dist.files or ():
        parts = f.parts
        if not parts or parts[0] == "..":
            continue
        if parts[0] in ("bin", "__pycache__") and len(parts) > 1:
            out.add(os.path.join(parts[0], parts[1]))
        else:
            out.add(parts[0])
    return out
def remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)
there = {norm(d.metadata["Name"] or ""): d for d in md.distributions(path=[dst])}
for dist in md.distributions(path=[src]):
    old = there.get(norm(dist.metadata["Name"] or ""))
    if old is not None and old.version == dist.version:
        continue
    if old is not None:
        for entry in entries(old):
            remove(os.path.join(dst, entry))
    for entry in sorted(entries(dist)):
        new = os.path.join(src, entry)
        if not os.path.lexists(new):
            continue
        target = os.path.join(dst, entry)
        remove(target)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.rename(new, target)
'
node_libs_ready() {
    local lib
    stamp_is "$node_stamp" "$lock_sum" || return 1
    for lib in "${node_libs[@]}"; do
        [ -f "$root/node/node_modules/$lib/package.json" ] || return 1
    done
}
pip_works() { python3 -m pip --version >/dev/null 2>&1; }
perl_uri_loads() {
    have perl && env -u PERL5LIB -u PERLLIB -u PERL5OPT -u PERL_USE_UNSAFE_INC \
        perl -MURI -e 1 >/dev/null 2>&1
}
addressable_loads() {
    have ruby && env -u RUBYOPT -u RUBYLIB -u RUBYGEMS_GEMDEPS -u GEM_HOME -u GEM_PATH \
        ruby -e 'Gem.use_paths(Gem.default_dir, Gem.default_path - [Gem.user_dir]); require "addressable/uri"' \
        >/dev/null 2>&1
}

# The engines field of adapters/package.json (whatwg-url's, the strictest of
# the Node libraries) as a test on `node --version`.
node_fits() {
    local v major minor
    v="$(node --version 2>/dev/null)" || return 1
    v="${v#v}"
    major="${v%%.*}"
    minor="${v#*.}"; minor="${minor%%.*}"
    case "$major$minor" in *[!0-9]*|"") return 1 ;; esac
    [ "$major" -ge 24 ] || { [ "$major" -eq 22 ] && [ "$minor" -ge 12 ]; } \
        || { [ "$major" -eq 20 ] && [ "$minor" -ge 19 ]; }
}

# --- 1. Runtimes from Debian ------------------------------------------------
packages=()
have go || packages+=(golang-go)
have php || packages+=(php-cli)
have ruby || packages+=(ruby)
have perl || packages+=(perl)
# The adapters' libraries from Debian (liburi-perl 5.17-1 and
# ruby-addressable 2.8.1-1 on Debian 12, as dpkg-query -W shows them),
# checked by loading them as the adapters do (src/oracle/external/shipped.rs,
# the rows' probe and unset).
perl_uri_loads || packages+=(liburi-perl)
addressable_loads || packages+=(ruby-addressable)
have node || packages+=(nodejs npm)
have java || packages+=(default-jdk-headless)
# Java libraries from Debian, loaded by their fixed jar paths (shipped.rs,
# Shipped::packaged). Tested on bookworm with libspring-web-java 4.3.30-2 and
# libjetty9-java 9.4.57-1.1~deb12u1; the adapters' recorded outcomes are keyed
# by the versions found (tests/it/adapter_outcomes.rs).
spring_jar=/usr/share/java/spring3-web.jar
jetty_jar=/usr/share/java/jetty9-http.jar
[ -f "$spring_jar" ] || packages+=(libspring-web-java)
[ -f "$jetty_jar" ] || packages+=(libjetty9-java)
# uridiff fetch: `ip link set lo up` in its network namespace (a fresh
# Debian 12 image has no iproute2), and the php-curl client.
have ip || [ -x /usr/sbin/ip ] || [ -x /sbin/ip ] || packages+=(iproute2)
if ! have php || ! php -r 'exit(function_exists("curl_init") ? 0 : 1);' >/dev/null 2>&1; then
    packages+=(php-curl)
fi
# crates/uriparser-ffi links the system's uriparser through pkg-config.
uriparser_ready() { have pkg-config && pkg-config --exists liburiparser; }
uriparser_ready || packages+=(liburiparser-dev pkg-config)
if ! have python3; then
    packages+=(python3 python3-pip)
elif ! python_libs_ready && ! pip_works; then
    packages+=(python3-pip)
fi

apt_line=""
if [ "${#packages[@]}" -gt 0 ]; then
    apt_line="apt-get update && apt-get install -y ${packages[*]}"
    sudo=()
    can_install=0
    if [ "$check_only" = 1 ]; then
        :
    elif ! have apt-get; then
        say "no apt-get here: install ${packages[*]} (or their equivalents) with this system's package manager"
    elif [ "$(id -u)" = 0 ]; then
        can_install=1
    elif have sudo && sudo -n true 2>/dev/null; then
        sudo=(sudo -n)
        can_install=1
    else
        say "not root and no password-less sudo: could not install ${packages[*]}; as root: $apt_line"
    fi
    if [ "$can_install" = 1 ]; then
        say "installing ${packages[*]} (apt-get; this takes a while)"
        log="$(mktemp)"
        if ! { "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq \
                && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
                    --no-install-recommends "${packages[@]}"; } >"$log" 2>&1; then
            tail -n 20 "$log" >&2
            say "apt-get install ${packages[*]} failed (its last lines are above)"
            failed=1
        fi
        rm -f "$log"
        hash -r
    fi
fi

# --- 2. Pinned libraries ----------------------------------------------------
if [ "$check_only" = 0 ] && have python3 && ! python_libs_ready; then
    if ! pip_works; then
        say "python3 has no pip: could not install urllib3, yarl, httpx, upa-url, requests and aiohttp"
    else
        say "installing urllib3 $urllib3_pin, yarl $yarl_pin, httpx $httpx_pin, upa-url $upa_pin, requests $requests_pin and aiohttp $aiohttp_pin into $root/python (pip, pinned hashes)"
        tmp="$(temporary "$root" python.tmp)"
        temporaries+=("$tmp")
        if PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-input \
                --target "$tmp" --require-hashes --no-deps \
                -r "$adapters/requirements.txt" >&2; then
            mkdir -p "$root/python"
            if ! python3 -I -S -c "$python_merge" "$tmp" "$root/python" >&2; then
                say "moving the installed libraries into $root/python failed"
                failed=1
            fi
        else
            say "pip install of adapters/requirements.txt failed"
            failed=1
        fi
    fi
fi

if [ "$check_only" = 0 ] && have node && ! node_libs_ready; then
    if ! have npm; then
        say "node is here but npm is not: could not install ${node_libs[*]}"
    else
        say "installing ${node_libs[*]} into $root/node (npm ci, pinned lock file)"
        tmp="$(temporary "$root" node.tmp)"
        temporaries+=("$tmp")
        cp "$adapters/package.json" "$adapters/package-lock.json" "$tmp/"
        if (cd "$tmp" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --update-notifier=false --loglevel=error) >&2; then
            echo "$lock_sum" >"$tmp/.uridiff-package-lock.sha256"
            # Moved aside before the new one moves in, then removed: the
            # libraries are missing for two renames, not for a whole rm -rf
            # (other uridiff runs may be using them).
            if [ -e "$root/node" ]; then
                old="$(temporary "$root" node.old)"
                temporaries+=("$old")
                mv "$root/node" "$old/node"
            fi
            mv "$tmp" "$root/node"
        else
            say "npm ci of adapters/package-lock.json failed"
            failed=1
        fi
    fi
fi

# --- 3. The Go adapter --------------------------------------------------------
if have go; then go_program; fi
if [ "$check_only" = 0 ] && have go && [ ! -x "$go_bin" ]; then
    say "building the Go adapter into $go_bin"
    tmp="$(temporary "$root/go" build.tmp)"
    temporaries+=("$tmp")
    cp "$adapters/go-net-url.go" "$adapters/go.mod" "$tmp/"
    if clean_go "$tmp" build -trimpath -o program . >&2; then
        mv "$tmp/program" "$go_bin"
    else
        say "go build of adapters/go-net-url.go failed"
        failed=1
    fi
fi

# --- Report -------------------------------------------------------------------
missing=0
line() { printf '%-18s %s\n' "$1" "$2"; }
apt_hint_cmd() { echo "apt-get update && apt-get install -y $1"; }
apt_hint() { echo "missing $1: $(apt_hint_cmd "$2")"; }
setup_hint="bash scripts/setup-oracles.sh"

runtime_line() { # name program package
    if have "$2"; then line "$1" ready; else line "$1" "$(apt_hint "$2" "$3")"; missing=1; fi
}

runtime_line python-urllib python3 python3
python_line() { # adapter, the library and its pin
    if ! have python3; then
        line "$1" "$(apt_hint python3 "python3 python3-pip") (then $setup_hint)"; missing=1
    elif python_libs_ready; then
        line "$1" "ready ($2 in $root/python)"
    elif ! pip_works; then
        line "$1" "missing $2 and pip: $(apt_hint_cmd python3-pip) && $setup_hint"; missing=1
    else
        line "$1" "missing $2 in $root/python: $setup_hint"; missing=1
    fi
}
python_line urllib3 "urllib3 $urllib3_pin"
python_line yarl "yarl $yarl_pin"
python_line httpx "httpx $httpx_pin"
python_line upa-url "upa-url $upa_pin"
# uridiff fetch's clients requests and aiohttp (its httpx client uses the
# httpx line's library).
python_line requests "requests $requests_pin"
python_line aiohttp "aiohttp $aiohttp_pin"
runtime_line java-uri java default-jdk-headless
runtime_line java-url java default-jdk-headless
jar_line() { # name jar package
    if ! have java; then
        line "$1" "$(apt_hint java "default-jdk-headless $3")"; missing=1
    elif [ -f "$2" ]; then
        line "$1" "ready ($(dpkg-query -W -f='${Package} ${Version}' "$3" 2>/dev/null || echo "$2"))"
    else
        line "$1" "missing $2: $(apt_hint_cmd "$3")"; missing=1
    fi
}
jar_line spring-uri "$spring_jar" libspring-web-java
jar_line jetty-httpuri "$jetty_jar" libjetty9-java
runtime_line node-url node "nodejs npm"
for lib in "${node_libs[@]}"; do
    lib_pin="$(npm_pin "$lib")"
    if ! have node; then
        line "$lib" "$(apt_hint node "nodejs npm") (then $setup_hint)"; missing=1
    elif ! node_fits; then
        line "$lib" "node $(node --version) is too old for the pinned Node libraries (needs ^20.19.0 || ^22.12.0 || >=24.0.0): install a newer Node.js"; missing=1
    elif node_libs_ready; then
        line "$lib" "ready ($lib $lib_pin in $root/node)"
    elif ! have npm; then
        line "$lib" "missing $lib $lib_pin and npm: install the npm that comes with this Node.js, then $setup_hint"; missing=1
    else
        line "$lib" "missing $lib $lib_pin in $root/node: $setup_hint"; missing=1
    fi
done
if [ -n "$go_bin" ] && [ -x "$go_bin" ]; then
    line go-net-url "ready ($go_bin)"
elif have go; then
    line go-net-url "missing $go_bin: $setup_hint (or let uridiff build it on first use)"; missing=1
else
    line go-net-url "$(apt_hint go golang-go) (then $setup_hint)"; missing=1
fi
runtime_line php-parse-url php php-cli
if uriparser_ready; then
    line uriparser "ready (liburiparser $(pkg-config --modversion liburiparser), for cargo --features uriparser)"
else
    line uriparser "$(apt_hint liburiparser "liburiparser-dev pkg-config") (for cargo --features uriparser)"; missing=1
fi
runtime_line ruby-uri ruby ruby
runtime_line ruby-uri-rfc2396 ruby ruby
library_line() { # name loads-function packages
    if "$2"; then line "$1" ready; else line "$1" "$(apt_hint "$3" "$3")"; missing=1; fi
}
library_line perl-uri perl_uri_loads "perl liburi-perl"
library_line ruby-addressable addressable_loads "ruby ruby-addressable"

if [ "$failed" = 1 ]; then
    say "an install step failed (its output is above)"
    exit 1
fi
if [ "$missing" = 1 ]; then
    if [ "$check_only" = 1 ]; then
        exit 1
    fi
    say "some adapters are not ready (lines above): they need what this run could not install"
fi
exit 0
