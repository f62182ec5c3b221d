# frozen_string_literal: true

# uridiff external oracles `ruby-uri` and `ruby-uri-rfc2396`: Ruby's URI
# library.
#
# Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
# line, then one JSON request {"id", "input", "base"} per line in and one
# JSON answer per line out, in request order, each echoing the request's id.
# Ruby's standard library only:
#
#     ruby adapters/ruby-uri.rb            # ruby-uri: URI::RFC3986_Parser
#     ruby adapters/ruby-uri.rb rfc2396    # ruby-uri-rfc2396: URI::RFC2396_Parser
#
# Documentation: https://docs.ruby-lang.org/en/3.1/URI.html,
# https://docs.ruby-lang.org/en/3.1/URI/RFC3986_Parser.html,
# https://docs.ruby-lang.org/en/3.1/URI/RFC2396_Parser.html,
# https://docs.ruby-lang.org/en/3.1/URI/Generic.html.
#
# - ruby-uri: URI::RFC3986_Parser#parse, the parser behind URI.parse (what
#   applications call) since Ruby 2.2. Pairs: URI.join(base, input) (RFC
#   3986 section 5.2 through URI::Generic#merge); the base is first parsed
#   alone so that refusing it is told apart.
# - ruby-uri-rfc2396: URI::RFC2396_Parser#parse, the older parser (still
#   URI::DEFAULT_PARSER in Ruby 3.1, the one URI::Generic checks components
#   with, and the one `URI.extract`, `URI.regexp` and older code use). Pairs:
#   both parsed with it, then the base's own URI::Generic#merge.
#
# What each key reports, read from the URI::Generic object (of the scheme's
# class: URI::HTTP, URI::MailTo ...) the parser returns, or the one merge
# returns for a pair (`resolved` is its to_s):
#
# - verdict: `reject` when parsing or merging raises (URI::InvalidURIError,
#   URI::InvalidComponentError from a scheme's class, URI::BadURIError for a
#   relative base ...), with the exception's class and message; otherwise
#   `accept`.
# - scheme: #scheme (Ruby lower-cases it); null when nil.
# - authority: not reported (key left out): URI::Generic keeps userinfo,
#   host and port, no authority.
# - userinfo: #userinfo, raw; null when nil (RFC3986_Parser makes an empty
#   userinfo nil: `http://@h/` has none).
# - host: #host, raw: case kept, an IPv6 literal with its brackets ("[::1]",
#   as the RFC 3986 oracles report it; #hostname would remove them). "" for
#   an empty host (`http:///p` with RFC3986_Parser), null when nil
#   (RFC2396_Parser gives nil there).
# - port: the port as written, read from the parser's #split of the same
#   text (the input, or for a pair the resolved to_s): #port is an Integer
#   with the scheme's default filled in when no port is written (80 for
#   `http://h/`), so it cannot tell absent from written. "080" for `h:080`,
#   "" for `h:`, null when none is written (for a pair to_s drops a port
#   equal to the scheme's default, so it reads absent there).
# - path: #path; for an opaque URI (#path nil, as `urn:a:b?c`) #opaque,
#   which takes in what follows (Ruby reports no query there); for
#   URI::MailTo with ruby-uri, #to (see below).
# - query, fragment: #query, #fragment: "" when present and empty, null when
#   nil.
# - For a file URI (URI::File, RFC 8089): userinfo and port not reported
#   (keys left out): the class drops both by design (set_userinfo and
#   set_port "do nothing"); an empty host neither (set_host writes "" for
#   no host and for localhost) when the text has no authority (`file:/p`).
#   With ruby-uri-rfc2396, an empty authority (`file:///p`) that the
#   parser's #split reads as no host (nil) gives host null. For a mailto URI (URI::MailTo, RFC 6068,
#   no authority): userinfo, host and port not reported; with ruby-uri
#   (RFC 3986 terms) path is #to and query the hfields #headers keeps, as
#   #to_s writes them; with ruby-uri-rfc2396 path is the opaque_part.
# - message: the exception's text for `reject`, else null.
#
# IO: answers are buffered and flushed when no more input is waiting
# (IO.select with a zero timeout, which counts Ruby's own read buffer), so a
# batch's answers go out together.

require "json"
require "uri"

MODES = {
  "rfc3986" => [URI::RFC3986_Parser, "RFC 3986 (Ruby URI::RFC3986_Parser, behind URI.parse)"],
  "rfc2396" => [URI::RFC2396_Parser, "RFC 2396 (Ruby URI::RFC2396_Parser)"],
}.freeze

def usage!
  warn "usage: ruby ruby-uri.rb [rfc2396]   (no argument: URI::RFC3986_Parser)"
  exit 2
end

usage! if ARGV.length > 1
MODE = ARGV.first || "rfc3986"
usage! unless MODES.key?(MODE)
PARSER_CLASS, STANDARD = MODES.fetch(MODE)
PARSER = PARSER_CLASS.new

# The port as written in `text`, which the parser has accepted (for a pair,
# the merged URI's to_s; should the parser refuse its own output, the port
# #port holds).
def written_port(uri, text)
  PARSER.split(text)[3]
rescue StandardError
  uri.port&.to_s
end

# The host the parser's #split reads from `text` (nil for none), or "" when
# it refuses the text (then the "" set_host wrote is not questioned).
def split_host(text)
  PARSER.split(text)[2]
rescue StandardError
  ""
end

def describe(uri, text, sources = [text])
  port = written_port(uri, text)
  answer = {
    "verdict" => "accept",
    "scheme" => uri.scheme,
    "userinfo" => uri.userinfo,
    "host" => uri.host,
    "port" => port,
    "path" => uri.path.nil? ? uri.opaque : uri.path,
    "query" => uri.query,
    "fragment" => uri.fragment,
    "message" => nil,
  }
  # URI::File ("The "file" URI is defined by RFC8089", uri/file.rb) keeps
  # no userinfo and no port: its set_userinfo and set_port are documented
  # "do nothing" (RFC 8089's `file-auth = "localhost" / host`). The parser
  # says nothing about them, so they are not reported (keys left out),
  # never null (absent).
  if uri.is_a?(URI::File)
    answer.delete("userinfo")
    answer.delete("port")
    # set_host writes "" for no host (`v = "" if v.nil? || v ==
    # "localhost"`): for a text without an authority (`file:/p`), RFC
    # 8089's local file, that "" says nothing of the input's authority.
    # (With one, "" is the empty host or localhost's reading, reported.)
    answer.delete("host") if uri.host == "" && text !~ %r{\Afile://}i
    # RFC2396_Parser reads an empty authority (`file:///C:/`) as no host:
    # its #split gives nil there (RFC 2396 section 3.2.2, `server` may be
    # empty), and the "" is set_host's. Reported as the parser read it,
    # null, where it read no host in any text it parsed (for a pair, the
    # base and the reference: a base's `localhost`, which set_host also
    # writes "", stays ""). (RFC3986_Parser's "" is RFC 3986's empty
    # host, kept.)
    if MODE == "rfc2396" && answer["host"] == "" && sources.all? { |t| split_host(t).nil? }
      answer["host"] = nil
    end
  end
  # URI::MailTo reads a mailto URI by RFC 6068 (`mailtoURI = "mailto:"
  # [ to ] [ hfields ]`), which has no authority: it keeps none of one,
  # so userinfo, host and port are not reported.
  if uri.is_a?(URI::MailTo)
    answer.delete("userinfo")
    answer.delete("host")
    answer.delete("port")
    # In RFC 3986 terms (ruby-uri): URI::MailTo keeps `to` and the hfields
    # (#to, #headers: "E-mail headers set by the URL, as an Array of
    # Arrays"), so the path is #to, RFC 3986's path of the same text, and
    # the query the hfields as #to_s writes them back (each header's name
    # and value joined by `=`, the headers by `&`), null when there is none
    # (`mailto:a@b?` keeps no `?`). In RFC 2396 terms (ruby-uri-rfc2396) a
    # mailto URI is an opaque_part, `?` and all (section 3), which #opaque
    # keeps: reported as the path, as before. Only for the opaque form
    # (#path nil): a `mailto://h/p?q`, which RFC3986_Parser splits with an
    # authority, keeps its generic #path and #query (and its #to is "").
    if MODE == "rfc3986" && uri.path.nil?
      answer["path"] = uri.to.to_s
      answer["query"] = uri.headers.empty? ? nil : uri.headers.map { |h| h.join("=") }.join("&")
    end
  end
  answer
end

def refusal(error, what = nil)
  message = "#{error.class}: #{error.message}"
  { "verdict" => "reject", "message" => what ? "#{what}: #{message}" : message }
end

# Parsing and merging raise URI::Error subclasses for what they refuse, and
# may raise others (ArgumentError, TypeError) on odd input: every one is the
# parser refusing that input.
def resolve(input, base)
  begin
    base_uri = PARSER.parse(base)
  rescue StandardError => e
    return refusal(e, "base")
  end
  begin
    uri = if MODE == "rfc3986"
            URI.join(base, input)
          else
            base_uri.merge(PARSER.parse(input))
          end
    resolved = uri.to_s
    describe(uri, resolved, [base, input]).merge("resolved" => resolved)
  rescue StandardError => e
    refusal(e)
  end
end

def answer(request)
  input = request["input"]
  base = request["base"]
  result = if base.nil?
             begin
               describe(PARSER.parse(input), input)
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
  warn "ruby-uri adapter: #{message}"
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

def main
  $stdin.set_encoding(Encoding::UTF_8)
  $stdout.sync = false
  hello = {
    "uridiff_protocol" => 2,
    "parser" => "Ruby URI #{URI::VERSION} #{PARSER_CLASS.name.sub('URI::', '')}",
    "standard" => STANDARD,
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
