# uridiff fetch client (Ruby): one GET per request line, through Net::HTTP
# (Net::HTTP.get_response(URI(url))) or open-uri (URI.open(url)).
#
#     URIDIFF_FETCH_MODE=namespace ruby fetch.rb ruby-net-http
#     URIDIFF_FETCH_MODE=namespace ruby fetch.rb ruby-open-uri
#
# Runs only in uridiff fetch's network namespace (URIDIFF_FETCH_MODE=
# namespace), whose only interface is lo, with its own hosts file and DNS
# trap (src/fetch/netns.rs): Ruby resolves and connects on its own, as in
# a service, and the trap observes where it went. There is no guard here,
# so outside the namespace it refuses to start.
#
# Protocol (uridiff::fetch): one hello line {"uridiff_fetch": 1, "client",
# "runtime"}, then per line in {"url", "timeout_ms", "token"} one line out
# {"dialled", "refused", "error", "status"}, in order ("dialled" and
# "refused" are always null: the trap observes). "token" goes out as the
# X-Uridiff-Token header. No proxy (Net::HTTP::Proxy is not used and
# open-uri gets proxy: false), no redirects (Net::HTTP follows none;
# open-uri gets redirect: false), the request's timeout for opening and
# reading.
require 'json'
require 'net/http'
require 'open-uri'
require 'uri'

CLIENT = ARGV[0].to_s
unless %w[ruby-net-http ruby-open-uri].include?(CLIENT)
  warn "fetch.rb: unknown client #{CLIENT.inspect}"
  exit 2
end
unless ENV['URIDIFF_FETCH_MODE'] == 'namespace'
  warn "fetch.rb: #{CLIENT} runs only in uridiff fetch's network namespace"
  exit 2
end
# Net::HTTP reads http_proxy by default (ENV_PROXY): uridiff removes the
# variables, and this makes sure.
%w[http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY].each { |v| ENV.delete(v) }

# What URI.open (open-uri, Ruby 3.1) takes for a URL: a scheme and "://",
# then a URI.parse result that responds to open (http, https, ftp);
# anything else goes to Kernel#open.
OPEN_URI_URL = %r{\A[A-Za-z][A-Za-z0-9+\-.]*://}.freeze

def fetch(request)
  timeout = [request['timeout_ms'].to_i, 1].max / 1000.0
  headers = request['token'] ? { 'X-Uridiff-Token' => request['token'].to_s } : {}
  if CLIENT == 'ruby-net-http'
    # What Net::HTTP.get_response(URI(url)) does, with the headers and
    # timeouts.
    uri = URI(request['url'])
    http = Net::HTTP.new(uri.hostname, uri.port, nil)
    http.use_ssl = uri.scheme == 'https'
    http.open_timeout = timeout
    http.read_timeout = timeout
    http.write_timeout = timeout
    response = http.start { http.request_get(uri, headers) }
    [response.code.to_i, nil]
  elsif !(OPEN_URI_URL.match?(request['url']) && URI.parse(request['url']).respond_to?(:open))
    # URI.open hands any other string to Kernel#open: a local file, or a
    # command for "|cmd". Not here: its error says what it would do.
    [nil, 'not fetched: URI.open would pass it to Kernel#open (a local file or a command), not open-uri']
  else
    URI.open(request['url'], headers.merge(proxy: false, redirect: false,
                                           open_timeout: timeout, read_timeout: timeout)) do |f|
      f.read
      [f.status[0].to_i, nil]
    end
  end
rescue OpenURI::HTTPError => e
  [e.io.status[0].to_i, nil]
rescue StandardError, Timeout::Error => e
  [nil, "#{e.class}: #{e.message}"[0, 2000]]
end

$stdout.sync = true
puts JSON.generate(uridiff_fetch: 1, client: "#{CLIENT} (Ruby #{RUBY_VERSION})",
                   runtime: "ruby #{RUBY_VERSION}")
$stdin.each_line do |line|
  next if line.strip.empty?

  status, error = fetch(JSON.parse(line))
  puts JSON.generate(dialled: nil, refused: nil, error: error, status: status)
end
