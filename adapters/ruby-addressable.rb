# frozen_string_literal: true

# uridiff external oracle `ruby-addressable`: the Addressable gem (Debian's
# ruby-addressable), Addressable::URI.parse for an input and
# Addressable::URI.join for a pair.
#
# Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
# line, then one JSON request {"id", "input", "base"} per line in and one
# JSON answer per line out, in request order, each echoing the request's id.
#
#     ruby adapters/ruby-addressable.rb
#
# Where the code comes from: uridiff runs it without RUBYOPT, RUBYLIB,
# GEM_HOME, GEM_PATH and RUBYGEMS_GEMDEPS (src/oracle/external/shipped.rs,
# the row's `unset`), and before loading Addressable this script takes the
# user's own gem directory (Gem.user_dir, under $HOME) off RubyGems' path:
# the gem and its dependency public_suffix come from the system's gem
# directories (Debian's rubygems-integration, /var/lib/gems). The hello
# names the version loaded and its IDNA backend (Addressable uses the `idn`
# gem's libidn binding when it loads, else its own pure-Ruby tables).
#
# Documentation: https://www.rubydoc.info/gems/addressable/2.8.1/Addressable/URI
# and the README ("Addressable closely conforms to RFC 3986, RFC 3987, and
# RFC 6570 (level 4)"). Addressable::URI.parse splits with RFC 3986's
# Appendix B expression and raises Addressable::URI::InvalidURIError for
# what its component writers refuse (a port that is not digits, a character
# its #validate does not allow in a host, a missing hierarchical segment).
#
# What each key reports, read from the Addressable::URI that parse returns,
# or that join returns for a pair (`resolved` is its to_s):
#
# - verdict: `reject` when parse or join raises (InvalidURIError, or
#   TypeError/ArgumentError on odd input), with the exception's class and
#   message; otherwise `accept`.
# - scheme: #scheme, as written (Addressable keeps its case); null when nil.
# - authority: not reported (key left out): #authority is written from the
#   components below, not kept as parsed, so it says nothing beyond them.
# - userinfo: #userinfo (#user, then ":" and #password when there is one),
#   raw; null when nil.
# - host: #host, raw: case kept, percent-escapes and non-ASCII kept (only
#   #normalized_host maps an IDN to its A-label), an IP literal with its
#   brackets; "" for an empty host, null when nil.
# - port: #port as an application reads it, an Integer written in decimal:
#   "080" reads 80, and an empty port or port 0 read nil (Addressable's
#   #port= makes 0 nil). Null when nil.
# - path: #path ("" when empty: Addressable never returns nil there).
# - query, fragment: #query, #fragment: "" when present and empty, null
#   when nil.
# - message: the exception's text for `reject`, else null.
#
# IO: answers are buffered and flushed when no more input is waiting
# (IO.select with a zero timeout, which counts Ruby's own read buffer), so a
# batch's answers go out together.

require "json"

# The user's own gem directory is no system library path: a gem installed
# there with `gem install --user-install` would otherwise shadow Debian's.
Gem.use_paths(Gem.default_dir, Gem.default_path - [Gem.user_dir])
require "addressable/uri"

def describe(uri)
  {
    "verdict" => "accept",
    "scheme" => uri.scheme,
    "userinfo" => uri.userinfo,
    "host" => uri.host,
    "port" => uri.port&.to_s,
    "path" => uri.path,
    "query" => uri.query,
    "fragment" => uri.fragment,
    "message" => nil,
  }
end

def refusal(error, what = nil)
  message = "#{error.class}: #{error.message}"
  { "verdict" => "reject", "message" => what ? "#{what}: #{message}" : message }
end

# The base is parsed alone first, so that refusing it is told apart.
def resolve(input, base)
  begin
    base_uri = Addressable::URI.parse(base)
  rescue StandardError => e
    return refusal(e, "base")
  end
  begin
    uri = Addressable::URI.join(base_uri, input)
    resolved = uri.to_s
    describe(uri).merge("resolved" => resolved)
  rescue StandardError => e
    refusal(e)
  end
end

def answer(request)
  input = request["input"]
  base = request["base"]
  result = if base.nil?
             begin
               describe(Addressable::URI.parse(input))
             rescue StandardError => e
               refusal(e)
             end
           else
             resolve(input, base)
           end
  { "id" => request["id"] }.merge(result)
end

def fail!(message)
  $stdout.flush
  warn "ruby-addressable adapter: #{message}"
  exit 2
end

def request(line)
  r = begin
    JSON.parse(line)
  rescue JSON::ParserError => e
    fail!("request line is not JSON: #{e.message}")
  end
  unless r.is_a?(Hash) && r["id"].is_a?(Integer) && r["input"].is_a?(String) &&
         (r["base"].nil? || r["base"].is_a?(String))
    fail!("request line without an integer \"id\", a string \"input\" and a null or string \"base\": #{line[0, 200]}")
  end
  r
end

# "pure" or "native": the file Addressable::IDNA's to_ascii comes from
# (addressable/idna/pure.rb or native.rb).
def idna_backend
  file = Addressable::IDNA.method(:to_ascii).source_location&.first
  file ? File.basename(file, ".rb") : "unknown"
end

def main
  $stdin.set_encoding(Encoding::UTF_8)
  $stdout.sync = false
  hello = {
    "uridiff_protocol" => 2,
    "parser" => "Addressable #{Addressable::VERSION::STRING} (IDNA #{idna_backend})",
    "standard" => "RFC 3986 and RFC 3987 (Addressable::URI.parse)",
    "runtime" => "#{RUBY_ENGINE} #{RUBY_VERSION}p#{RUBY_PATCHLEVEL}",
  }
  $stdout.write(JSON.generate(hello), "\n")
  $stdout.flush
  while (line = $stdin.gets)
    $stdout.write(JSON.generate(answer(request(line)), ascii_only: true), "\n") unless line.strip.empty?
    $stdout.flush if IO.select([$stdin], nil, nil, 0).nil?
  end
  $stdout.flush
rescue Errno::EPIPE
  exit 0
end

main
