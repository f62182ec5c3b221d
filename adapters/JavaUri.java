// uridiff external oracles on the JVM, one per mode (the first argument):
//
//     java adapters/JavaUri.java          java-uri       java.net.URI
//     java adapters/JavaUri.java url      java-url       java.net.URL
//     java -cp JARS adapters/JavaUri.java spring   spring-uri     Spring's UriComponentsBuilder
//     java -cp JARS adapters/JavaUri.java jetty    jetty-httpuri  Jetty's HttpURI
//
// Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
// line, then one JSON request {"id", "input", "base"} per line in and one
// JSON answer per line out, in request order, each echoing the request's id.
// A single file for the Java 11+ source launcher, no compilation step. The
// JDK modes need nothing else; Spring and Jetty are Debian's jars, named on
// the class path by uridiff (src/oracle/external/shipped.rs). The source
// launcher compiles this whole file before any mode runs, so the two
// libraries are called through reflection (each call names the method it
// makes): the file compiles without them, and java-uri and java-url never
// need them.
//
// java-uri: java.net.URI(String), and URI.resolve(URI) for pairs. What each
// key reports, and the documented behaviours it relies on
// (https://docs.oracle.com/en/java/javase/17/docs/api/java.base/java/net/URI.html):
//
// - The input goes through `new URI(input)`: RFC 2396 as amended by RFC 2732
//   (IPv6 literals), with the deviations the javadoc lists (an empty
//   authority is allowed before a non-empty path, query or fragment; IPv6
//   scope ids). A URISyntaxException gives `reject`, with its reason and
//   index (`getReason()` and `getIndex()`: the exception's message without
//   the input echoed back).
// - scheme: getScheme(). authority: getRawAuthority().
// - The authority is server-based when it parses as
//   [userinfo@]host[:port], else registry-based (RFC 2396's reg_name: the
//   javadoc's "Parsing of a URI string" section). For a registry-based
//   authority getHost() and getRawUserInfo() are null and getPort() is -1,
//   and so are host, userinfo and port here: `http://a_b.example/` has
//   authority "a_b.example" and no host.
// - userinfo: getRawUserInfo(). host: getHost(), as java gives it: case kept,
//   an IPv6 literal with its brackets.
// - port: getPort() is -1 both for no port and for an empty one (`h:`), so
//   the text after the host's ':' is read from the raw authority instead: ""
//   for `h:`, "080" for `h:080`, null when there is no ':'.
// - path: getRawPath(); for an opaque URI (an absolute URI whose
//   scheme-specific part does not begin with '/', such as mailto:a@b) that is
//   null and the path reported is getRawSchemeSpecificPart(), RFC 2396's
//   opaque_part (which takes in any '?': java reports no query for opaque
//   URIs).
// - query: getRawQuery(). fragment: getRawFragment(). Both "" when present
//   and empty, null when absent.
// - With a base: `new URI(base)` (a URISyntaxException gives `reject`,
//   "base: ..."), `new URI(input)`, then base.resolve(reference) (RFC 2396
//   section 5.2, with the deviations the javadoc's "Resolution" section
//   lists); the keys above describe the resolved URI and `resolved` is its
//   toString(). resolve throws no checked exception; an unchecked one is
//   `reject` too.
//
// java-url: java.net.URL(String), and URL(URL context, String spec) for pairs
// (https://docs.oracle.com/en/java/javase/17/docs/api/java.base/java/net/URL.html).
// The class "does not itself encode or decode any URL components"; a URL
// "is parsed according to its scheme" by the scheme's stream handler, and
// "it is impossible to create a URL instance for a scheme for which no
// handler is available" (java.net.URI's class documentation).
//
// - A MalformedURLException whose message is the constructor's "no
//   protocol: ..." (a relative reference, without a base) or "unknown
//   protocol: ..." (a scheme with no handler: the JDK's are http, https, ftp,
//   file, jar, mailto and jrt) is `out-of-domain`: the input is one the URL
//   class does not represent. Any other MalformedURLException (a port that
//   is no number, a bad IPv6 literal) is `reject`, and so is an unchecked
//   exception.
// - scheme: getProtocol() (which the constructor lower-cases). authority:
//   getAuthority(). userinfo: getUserInfo(). host: getHost(), "" when the
//   URL has none (as the method gives it), an IPv6 literal with brackets.
//   port: getPort(), null when -1 (no port, or an empty one). path:
//   getPath() ("" when empty). query: getQuery(). fragment: getRef().
// - With a base: `new URL(base)` (its failure is `reject` "base: ...", or
//   `out-of-domain` as above), then `new URL(baseUrl, input)`; `resolved` is
//   the result's toExternalForm().
//
// spring-uri: UriComponentsBuilder.fromUriString(input).build() (Spring Web,
// org.springframework.web.util; Debian's libspring-web-java). Spring has no
// function that resolves a reference against a base: a pair is
// `out-of-domain`.
//
// - An IllegalArgumentException (fromUriString's "... is not a valid URI",
//   or a NumberFormatException from a port out of int range) or another
//   unchecked exception (getPort()'s IllegalStateException for a port that
//   is a URI template variable) is `reject`.
// - scheme: getScheme(). userinfo: getUserInfo(). host: getHost(). port:
//   getPort(), null when -1 (none, or empty). path: getPath() (null when the
//   path is empty: the builder keeps no empty path); for an opaque URI (a
//   scheme not followed by ":/", an OpaqueUriComponents) getPath() is null
//   and the path reported is getSchemeSpecificPart(). query: getQuery(), as
//   the builder gives it back from the parameters it parsed (`?a&&b` comes
//   back as "a&b", an empty query as null). fragment: getFragment() (null
//   when empty). Spring has no authority accessor: the key is left out.
//
// jetty-httpuri: new org.eclipse.jetty.http.HttpURI(input) (Jetty 9.4,
// Debian's libjetty9-java). Jetty's HttpURI has no resolution function (its
// HttpURI(HttpURI, HttpURI) constructor takes scheme, host and port from one
// and the rest from the other, no RFC merge): a pair is `out-of-domain`.
//
// - An IllegalArgumentException ("Bad authority", "No closing ']'", a
//   NumberFormatException for a port that is no number) or another
//   unchecked exception is `reject`.
// - scheme: getScheme(). userinfo: getUser(). host: getHost(). port:
//   getPort(), null when -1 (Jetty gives 0 for an empty port `h:`, and that
//   is what is reported). path: getPath() (raw, with its ;parameters).
//   query: getQuery(). fragment: getFragment(). Jetty's getAuthority() is
//   host[:port] without the user, not the raw authority: the key is left
//   out.
// - Jetty 9.4 announces its logger on standard error when a class first uses
//   it; org.eclipse.jetty.util.log.announce=false, set before HttpURI loads,
//   keeps that line out of uridiff's error output.
//
// IO: UTF-8 through a BufferedReader and a BufferedWriter; the output is
// flushed only when no more input is buffered or readable (a batch's answers
// go out together), and is 7-bit: every non-ASCII UTF-16 unit is written as
// a \\uXXXX escape, so surrogate pairs come out as two escapes, as JSON wants.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;

public class JavaUri {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** What a pair gets from a library with no resolution function. */
    static final String NO_RESOLUTION = "no resolution function: a pair is out of its domain";

    /** One adapter: its hello's keys and its answer to a request. */
    interface Mode {
        String parser();

        String standard();

        /** Writes the answer's keys after the id, and its closing brace. */
        void answer(String input, String base, StringBuilder sb);
    }

    public static void main(String[] args) throws IOException {
        String runtime = System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version");
        Mode mode;
        try {
            mode = mode(args, runtime);
        } catch (IllegalArgumentException e) {
            System.err.println("JavaUri.java: " + e.getMessage());
            System.exit(2);
            return;
        }
        BufferedReader in = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        Writer out = new BufferedWriter(
                new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8),
                1 << 16);
        StringBuilder sb = new StringBuilder(256);
        sb.append("{\"uridiff_protocol\": 2, \"parser\": ");
        string(sb, mode.parser());
        sb.append(", \"standard\": ");
        string(sb, mode.standard());
        sb.append(", \"runtime\": ");
        string(sb, runtime);
        sb.append("}\n");
        out.write(sb.toString());
        out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.isBlank()) {
                Request request;
                try {
                    request = Request.parse(line);
                } catch (IllegalArgumentException e) {
                    out.flush();
                    System.err.println("JavaUri.java adapter: bad request line: " + e.getMessage());
                    System.exit(2);
                    return;
                }
                sb.setLength(0);
                sb.append("{\"id\": ").append(request.id).append(", ");
                mode.answer(request.input, request.base, sb);
                sb.append('\n');
                out.write(sb.toString());
            }
            if (!in.ready()) {
                out.flush();
            }
        }
        out.flush();
    }

    static Mode mode(String[] args, String runtime) {
        if (args.length > 1) {
            throw new IllegalArgumentException("usage: java JavaUri.java [url|spring|jetty]");
        }
        String name = args.length == 0 ? "uri" : args[0];
        switch (name) {
            case "uri":
                return new JavaNetUri(runtime);
            case "url":
                return new JavaNetUrl(runtime);
            case "spring":
                return new Spring();
            case "jetty":
                return new Jetty();
            default:
                throw new IllegalArgumentException("unknown mode '" + name
                        + "'; usage: java JavaUri.java [url|spring|jetty]");
        }
    }

    /** java-uri: java.net.URI. */
    static final class JavaNetUri implements Mode {
        final String runtime;

        JavaNetUri(String runtime) {
            this.runtime = runtime;
        }

        public String parser() {
            return "java.net.URI (" + runtime + ")";
        }

        public String standard() {
            return "RFC 2396 with RFC 2732 IPv6 literals (java.net.URI)";
        }

        public void answer(String input, String base, StringBuilder sb) {
            if (base == null) {
                URI u;
                try {
                    u = new URI(input);
                } catch (URISyntaxException e) {
                    reject(sb, null, e);
                    return;
                }
                describe(u, sb);
                sb.append('}');
                return;
            }
            URI b;
            URI r;
            try {
                b = new URI(base);
            } catch (URISyntaxException e) {
                reject(sb, "base: ", e);
                return;
            }
            try {
                r = new URI(input);
            } catch (URISyntaxException e) {
                reject(sb, null, e);
                return;
            }
            URI u;
            try {
                u = b.resolve(r);
            } catch (RuntimeException e) {
                verdict(sb, "reject", e.toString());
                return;
            }
            describe(u, sb);
            sb.append(", \"resolved\": ");
            string(sb, u.toString());
            sb.append('}');
        }

        static void reject(StringBuilder sb, String prefix, URISyntaxException e) {
            verdict(sb, "reject", (prefix == null ? "" : prefix) + e.getReason() + " at index " + e.getIndex());
        }

        /** Writes the accepted URI's keys, without a closing brace. */
        static void describe(URI u, StringBuilder sb) {
            String authority = u.getRawAuthority();
            String userinfo = u.getRawUserInfo();
            String host = u.getHost();
            String path = u.getRawPath();
            if (path == null) {
                path = u.getRawSchemeSpecificPart();
            }
            sb.append("\"verdict\": \"accept\", \"scheme\": ");
            string(sb, u.getScheme());
            sb.append(", \"authority\": ");
            string(sb, authority);
            sb.append(", \"userinfo\": ");
            string(sb, userinfo);
            sb.append(", \"host\": ");
            string(sb, host);
            sb.append(", \"port\": ");
            string(sb, port(authority, userinfo, host, u.getPort()));
            sb.append(", \"path\": ");
            string(sb, path);
            sb.append(", \"query\": ");
            string(sb, u.getRawQuery());
            sb.append(", \"fragment\": ");
            string(sb, u.getRawFragment());
            sb.append(", \"message\": null");
        }

        /** The port text after the host's ':' in a server-based authority. */
        static String port(String authority, String userinfo, String host, int port) {
            if (authority == null || host == null) {
                return null;
            }
            String hostport = userinfo == null ? authority : authority.substring(userinfo.length() + 1);
            if (hostport.startsWith(host)) {
                String rest = hostport.substring(host.length());
                return rest.startsWith(":") ? rest.substring(1) : null;
            }
            return port == -1 ? null : Integer.toString(port);
        }
    }

    /** java-url: java.net.URL. */
    static final class JavaNetUrl implements Mode {
        final String runtime;

        JavaNetUrl(String runtime) {
            this.runtime = runtime;
        }

        public String parser() {
            return "java.net.URL (" + runtime + ")";
        }

        public String standard() {
            return "none: parsed by each scheme's stream handler, no escaping checked (java.net.URL)";
        }

        public void answer(String input, String base, StringBuilder sb) {
            URL context = null;
            if (base != null) {
                try {
                    context = new URL(base);
                } catch (MalformedURLException e) {
                    refuse(sb, "base: ", e);
                    return;
                } catch (RuntimeException e) {
                    verdict(sb, "reject", "base: " + e);
                    return;
                }
            }
            URL u;
            try {
                u = context == null ? new URL(input) : new URL(context, input);
            } catch (MalformedURLException e) {
                refuse(sb, "", e);
                return;
            } catch (RuntimeException e) {
                verdict(sb, "reject", e.toString());
                return;
            }
            sb.append("\"verdict\": \"accept\", \"scheme\": ");
            string(sb, u.getProtocol());
            sb.append(", \"authority\": ");
            string(sb, u.getAuthority());
            sb.append(", \"userinfo\": ");
            string(sb, u.getUserInfo());
            sb.append(", \"host\": ");
            string(sb, u.getHost());
            sb.append(", \"port\": ");
            string(sb, u.getPort() == -1 ? null : Integer.toString(u.getPort()));
            sb.append(", \"path\": ");
            string(sb, u.getPath());
            sb.append(", \"query\": ");
            string(sb, u.getQuery());
            sb.append(", \"fragment\": ");
            string(sb, u.getRef());
            sb.append(", \"message\": null");
            if (context != null) {
                sb.append(", \"resolved\": ");
                string(sb, u.toExternalForm());
            }
            sb.append('}');
        }

        /** The constructor's refusal: out of the class's domain (no scheme, or no handler), else reject. */
        static void refuse(StringBuilder sb, String prefix, MalformedURLException e) {
            String message = String.valueOf(e.getMessage());
            boolean outside = message.startsWith("no protocol: ") || message.startsWith("unknown protocol: ");
            verdict(sb, outside ? "out-of-domain" : "reject", prefix + message);
        }
    }

    /** spring-uri: Spring Web's UriComponentsBuilder, through reflection. */
    static final class Spring implements Mode {
        final Method fromUriString;
        final Method build;
        final Method scheme;
        final Method userInfo;
        final Method host;
        final Method port;
        final Method path;
        final Method ssp;
        final Method query;
        final Method fragment;
        final String version;

        Spring() {
            try {
                Class<?> builder = Class.forName("org.springframework.web.util.UriComponentsBuilder");
                Class<?> components = Class.forName("org.springframework.web.util.UriComponents");
                fromUriString = builder.getMethod("fromUriString", String.class);
                build = builder.getMethod("build");
                scheme = components.getMethod("getScheme");
                userInfo = components.getMethod("getUserInfo");
                host = components.getMethod("getHost");
                port = components.getMethod("getPort");
                path = components.getMethod("getPath");
                ssp = components.getMethod("getSchemeSpecificPart");
                query = components.getMethod("getQuery");
                fragment = components.getMethod("getFragment");
                // The jar manifest's Implementation-Version (4.3.30.RELEASE).
                version = builder.getPackage().getImplementationVersion();
            } catch (ReflectiveOperationException e) {
                throw new IllegalArgumentException("Spring Web is not on the class path: " + e);
            }
        }

        public String parser() {
            return "Spring Web UriComponentsBuilder.fromUriString " + version;
        }

        public String standard() {
            return "none: a splitting regular expression after RFC 3986 appendix B (Spring UriComponentsBuilder)";
        }

        public void answer(String input, String base, StringBuilder sb) {
            if (base != null) {
                verdict(sb, "out-of-domain", NO_RESOLUTION);
                return;
            }
            try {
                // UriComponentsBuilder.fromUriString(input).build()
                Object u = call(build, call(fromUriString, null, input));
                String p = (String) call(path, u);
                if (p == null) {
                    p = (String) call(ssp, u);
                }
                int n = (Integer) call(port, u);
                // Every accessor is called before anything is written: getPort()
                // may throw, and an answer is written whole or not at all.
                String[] keys = {(String) call(scheme, u), (String) call(userInfo, u), (String) call(host, u),
                        n == -1 ? null : Integer.toString(n), p, (String) call(query, u), (String) call(fragment, u)};
                accept(sb, keys);
            } catch (InvocationTargetException e) {
                verdict(sb, "reject", e.getCause().toString());
            }
        }
    }

    /** jetty-httpuri: Jetty's HttpURI, through reflection. */
    static final class Jetty implements Mode {
        final java.lang.reflect.Constructor<?> parse;
        final Method scheme;
        final Method user;
        final Method host;
        final Method port;
        final Method path;
        final Method query;
        final Method fragment;
        final String version;

        Jetty() {
            System.setProperty("org.eclipse.jetty.util.log.announce", "false");
            try {
                Class<?> uri = Class.forName("org.eclipse.jetty.http.HttpURI");
                parse = uri.getConstructor(String.class);
                scheme = uri.getMethod("getScheme");
                user = uri.getMethod("getUser");
                host = uri.getMethod("getHost");
                port = uri.getMethod("getPort");
                path = uri.getMethod("getPath");
                query = uri.getMethod("getQuery");
                fragment = uri.getMethod("getFragment");
                // The jar manifest's Implementation-Version (9.4.57.v20241219).
                version = uri.getPackage().getImplementationVersion();
            } catch (ReflectiveOperationException e) {
                throw new IllegalArgumentException("Jetty's jetty-http is not on the class path: " + e);
            }
        }

        public String parser() {
            return "Jetty HttpURI " + version;
        }

        public String standard() {
            return "none: Jetty's HTTP request-target splitter (org.eclipse.jetty.http.HttpURI)";
        }

        public void answer(String input, String base, StringBuilder sb) {
            if (base != null) {
                verdict(sb, "out-of-domain", NO_RESOLUTION);
                return;
            }
            try {
                // new HttpURI(input)
                Object u = parse.newInstance(input);
                int n = (Integer) call(port, u);
                String[] keys = {(String) call(scheme, u), (String) call(user, u), (String) call(host, u),
                        n == -1 ? null : Integer.toString(n), (String) call(path, u), (String) call(query, u),
                        (String) call(fragment, u)};
                accept(sb, keys);
            } catch (InvocationTargetException e) {
                verdict(sb, "reject", e.getCause().toString());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A method call through reflection: the library's own exception comes out as the cause. */
    static Object call(Method method, Object target, Object... args) throws InvocationTargetException {
        try {
            return method.invoke(target, args);
        } catch (IllegalAccessException e) {
            // Public methods of public classes: an adapter bug, not an answer.
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes an accepted answer's keys without authority (scheme, userinfo,
     * host, port, path, query, fragment) and its closing brace.
     */
    static void accept(StringBuilder sb, String[] keys) {
        String[] names = {"scheme", "userinfo", "host", "port", "path", "query", "fragment"};
        sb.append("\"verdict\": \"accept\"");
        for (int i = 0; i < names.length; i++) {
            sb.append(", \"").append(names[i]).append("\": ");
            string(sb, keys[i]);
        }
        sb.append(", \"message\": null}");
    }

    /** Writes a refusal's verdict and message, and the closing brace. */
    static void verdict(StringBuilder sb, String verdict, String message) {
        sb.append("\"verdict\": \"").append(verdict).append("\", \"message\": ");
        string(sb, message);
        sb.append('}');
    }

    /** Appends `s` as a JSON string literal (null as JSON null), 7-bit. */
    static void string(StringBuilder sb, String s) {
        if (s == null) {
            sb.append("null");
            return;
        }
        sb.append('"');
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                sb.append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c == '\r') {
                sb.append("\\r");
            } else {
                // A surrogate without its pair (Jetty's "!hex" message quotes
                // one UTF-16 unit of a split pair) has no JSON text that a
                // UTF-8 reader accepts (RFC 8259 section 8.2): it is written
                // as U+FFFD, the replacement character.
                boolean high = Character.isHighSurrogate(c);
                boolean paired = high
                        ? i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))
                        : !Character.isLowSurrogate(c) || (i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
                char u = paired ? c : '\ufffd';
                sb.append("\\u").append(HEX[(u >> 12) & 0xf]).append(HEX[(u >> 8) & 0xf])
                        .append(HEX[(u >> 4) & 0xf]).append(HEX[u & 0xf]);
            }
        }
        sb.append('"');
    }

    /** One request line: {"id": N, "input": S, "base": B}; other keys are skipped. */
    static final class Request {
        long id;
        String input;
        String base;

        static Request parse(String line) {
            Json p = new Json(line);
            Request r = new Request();
            boolean haveId = false;
            p.space();
            p.expect('{');
            p.space();
            if (p.peek() == '}') {
                p.i++;
            } else {
                while (true) {
                    p.space();
                    String key = p.string();
                    p.space();
                    p.expect(':');
                    p.space();
                    switch (key) {
                        case "id":
                            r.id = p.integer();
                            haveId = true;
                            break;
                        case "input":
                            r.input = p.string();
                            break;
                        case "base":
                            r.base = p.peek() == 'n' ? p.nullLiteral() : p.string();
                            break;
                        default:
                            p.skipValue();
                    }
                    p.space();
                    char c = p.next();
                    if (c == '}') {
                        break;
                    }
                    if (c != ',') {
                        throw new IllegalArgumentException("expected ',' or '}' at column " + p.i);
                    }
                }
            }
            p.space();
            if (p.i != line.length()) {
                throw new IllegalArgumentException("trailing text at column " + (p.i + 1));
            }
            if (!haveId || r.input == null) {
                throw new IllegalArgumentException("no integer \"id\" or no string \"input\"");
            }
            return r;
        }
    }

    /** A minimal JSON reader over one line, enough for the requests. */
    static final class Json {
        final String s;
        int i;

        Json(String s) {
            this.s = s;
        }

        char peek() {
            if (i >= s.length()) {
                throw new IllegalArgumentException("unexpected end of line");
            }
            return s.charAt(i);
        }

        char next() {
            char c = peek();
            i++;
            return c;
        }

        void expect(char c) {
            if (next() != c) {
                throw new IllegalArgumentException("expected '" + c + "' at column " + i);
            }
        }

        void space() {
            while (i < s.length() && (isSpace(s.charAt(i)) || s.charAt(i) == '\n')) {
                i++;
            }
        }

        String nullLiteral() {
            literal("null");
            return null;
        }

        void literal(String word) {
            if (!s.startsWith(word, i)) {
                throw new IllegalArgumentException("expected " + word + " at column " + (i + 1));
            }
            i += word.length();
        }

        long integer() {
            int start = i;
            if (i < s.length() && s.charAt(i) == '-') {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (i < s.length() && (s.charAt(i) == '.' || s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                throw new IllegalArgumentException("\"id\" is not an integer at column " + (start + 1));
            }
            try {
                return Long.parseLong(s.substring(start, i));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("\"id\" is not an integer at column " + (start + 1));
            }
        }

        String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return sb.toString();
                }
                if (c < 0x20) {
                    throw new IllegalArgumentException("raw control character at column " + i);
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case '"': sb.append('"'); break;
                    case '\\': sb.append('\\'); break;
                    case '/': sb.append('/'); break;
                    case 'b': sb.append('\b'); break;
                    case 'f': sb.append('\f'); break;
                    case 'n': sb.append('\n'); break;
                    case 'r': sb.append('\r'); break;
                    case 't': sb.append('\t'); break;
                    case 'u': {
                        if (i + 4 > s.length()) {
                            throw new IllegalArgumentException("short \\u escape");
                        }
                        int v = 0;
                        for (int k = 0; k < 4; k++) {
                            int d = Character.digit(s.charAt(i++), 16);
                            if (d < 0) {
                                throw new IllegalArgumentException("bad \\u escape");
                            }
                            v = (v << 4) | d;
                        }
                        // A surrogate pair arrives as two escapes, each one UTF-16 unit.
                        sb.append((char) v);
                        break;
                    }
                    default:
                        throw new IllegalArgumentException("bad escape \\" + e);
                }
            }
        }

        /** Skips any JSON value (a key this adapter does not read). */
        void skipValue() {
            char c = peek();
            if (c == '"') {
                string();
            } else if (c == '{' || c == '[') {
                char close = c == '{' ? '}' : ']';
                i++;
                space();
                if (peek() == close) {
                    i++;
                    return;
                }
                while (true) {
                    space();
                    if (c == '{') {
                        string();
                        space();
                        expect(':');
                        space();
                    }
                    skipValue();
                    space();
                    char d = next();
                    if (d == close) {
                        return;
                    }
                    if (d != ',') {
                        throw new IllegalArgumentException("expected ',' at column " + i);
                    }
                }
            } else if (c == 't') {
                literal("true");
            } else if (c == 'f') {
                literal("false");
            } else if (c == 'n') {
                literal("null");
            } else {
                int start = i;
                while (i < s.length() && "+-.eE0123456789".indexOf(s.charAt(i)) >= 0) {
                    i++;
                }
                if (i == start) {
                    throw new IllegalArgumentException("unexpected '" + c + "' at column " + (i + 1));
                }
            }
        }
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\r';
    }
}
