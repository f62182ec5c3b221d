// uridiff external oracle `java-uri`: java.net.URI(String).
//
// Speaks uridiff's pipe protocol v1 (see src/oracle/external.rs): one hello
// line, then one JSON string per input line in, one JSON object per line out,
// in order. A single file for the Java 11+ source launcher, no compilation
// step and no dependency beyond the JDK:
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
        sb.append("{\"uridiff_protocol\": 1, \"parser\": ");
        string(sb, "java.net.URI (" + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version") + ")");
        sb.append(", \"standard\": \"RFC 2396 with RFC 2732 IPv6 literals (java.net.URI)\"}\n");
        out.write(sb.toString());
        out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            String input;
            try {
                input = parseString(line);
            } catch (IllegalArgumentException e) {
                out.flush();
                System.err.println("java-uri adapter: input line is not a JSON string: " + e.getMessage());
                System.exit(2);
                return;
            }
            sb.setLength(0);
            answer(input, sb);
            sb.append('\n');
            out.write(sb.toString());
            if (!in.ready()) {
                out.flush();
            }
        }
        out.flush();
    }

    static void answer(String input, StringBuilder sb) {
        URI u;
        try {
            u = new URI(input);
        } catch (URISyntaxException e) {
            sb.append("{\"verdict\": \"reject\", \"message\": ");
            string(sb, e.getReason() + " at index " + e.getIndex());
            sb.append('}');
            return;
        }
        String authority = u.getRawAuthority();
        String userinfo = u.getRawUserInfo();
        String host = u.getHost();
        String path = u.getRawPath();
        if (path == null) {
            path = u.getRawSchemeSpecificPart();
        }
        sb.append("{\"verdict\": \"accept\", \"scheme\": ");
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
        sb.append(", \"message\": null}");
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

    /** Parses a line holding one JSON string literal (surrounding whitespace allowed). */
    static String parseString(String line) {
        int i = 0;
        int n = line.length();
        while (i < n && isSpace(line.charAt(i))) {
            i++;
        }
        if (i >= n || line.charAt(i) != '"') {
            throw new IllegalArgumentException("expected '\"' at column " + (i + 1));
        }
        i++;
        StringBuilder sb = new StringBuilder(n);
        while (true) {
            if (i >= n) {
                throw new IllegalArgumentException("unterminated string");
            }
            char c = line.charAt(i++);
            if (c == '"') {
                break;
            }
            if (c < 0x20) {
                throw new IllegalArgumentException("raw control character at column " + i);
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (i >= n) {
                throw new IllegalArgumentException("unterminated escape");
            }
            char e = line.charAt(i++);
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
                    if (i + 4 > n) {
                        throw new IllegalArgumentException("short \\u escape");
                    }
                    int v = 0;
                    for (int k = 0; k < 4; k++) {
                        int d = Character.digit(line.charAt(i++), 16);
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
        while (i < n && isSpace(line.charAt(i))) {
            i++;
        }
        if (i != n) {
            throw new IllegalArgumentException("trailing text at column " + (i + 1));
        }
        return sb.toString();
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\r';
    }
}
