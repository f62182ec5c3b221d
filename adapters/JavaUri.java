// uridiff external oracle `java-uri`: java.net.URI(String), and
// URI.resolve(URI) for pairs.
//
// Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
// line, then one JSON request {"id", "input", "base"} per line in and one
// JSON answer per line out, in request order, each echoing the request's id.
// A single file for the Java 11+ source launcher, no compilation step and no
// dependency beyond the JDK:
//
//     java adapters/JavaUri.java
//
// What each key reports, and the documented behaviours it relies on
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
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

public class JavaUri {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        Writer out = new BufferedWriter(
                new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8),
                1 << 16);
        StringBuilder sb = new StringBuilder(256);
        String runtime = System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version");
        sb.append("{\"uridiff_protocol\": 2, \"parser\": ");
        string(sb, "java.net.URI (" + runtime + ")");
        sb.append(", \"standard\": \"RFC 2396 with RFC 2732 IPv6 literals (java.net.URI)\", \"runtime\": ");
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
                    System.err.println("java-uri adapter: bad request line: " + e.getMessage());
                    System.exit(2);
                    return;
                }
                sb.setLength(0);
                sb.append("{\"id\": ").append(request.id).append(", ");
                if (request.base == null) {
                    answer(request.input, sb);
                } else {
                    resolve(request.base, request.input, sb);
                }
                sb.append('\n');
                out.write(sb.toString());
            }
            if (!in.ready()) {
                out.flush();
            }
        }
        out.flush();
    }

    /** Writes the answer's keys after the id, and its closing brace. */
    static void answer(String input, StringBuilder sb) {
        URI u;
        try {
            u = new URI(input);
        } catch (URISyntaxException e) {
            reject(sb, null, e);
            return;
        }
        describe(u, sb);
        sb.append('}');
    }

    static void resolve(String base, String input, StringBuilder sb) {
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
            sb.append("\"verdict\": \"reject\", \"message\": ");
            string(sb, e.toString());
            sb.append('}');
            return;
        }
        describe(u, sb);
        sb.append(", \"resolved\": ");
        string(sb, u.toString());
        sb.append('}');
    }

    static void reject(StringBuilder sb, String prefix, URISyntaxException e) {
        sb.append("\"verdict\": \"reject\", \"message\": ");
        string(sb, (prefix == null ? "" : prefix) + e.getReason() + " at index " + e.getIndex());
        sb.append('}');
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
                sb.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf])
                        .append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
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
