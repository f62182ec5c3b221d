// uridiff fetch client (Java): one GET per request line, through
// java.net.http.HttpClient (HttpRequest.newBuilder(URI.create(url))) or
// java.net.HttpURLConnection (new URL(url).openConnection()).
//
//     URIDIFF_FETCH_MODE=namespace java Fetch.java java-httpclient
//     URIDIFF_FETCH_MODE=namespace java Fetch.java java-httpurlconnection
//
// Runs only in uridiff fetch's network namespace (URIDIFF_FETCH_MODE=
// namespace), whose only interface is lo, with its own hosts file and DNS
// trap (src/fetch/netns.rs): Java resolves and connects on its own, as in
// a service, and the trap observes where it went. There is no guard here,
// so outside the namespace it refuses to start.
//
// Protocol (uridiff::fetch): one hello line {"uridiff_fetch": 1, "client",
// "runtime"}, then per line in {"url", "timeout_ms", "token"} one line out
// {"dialled", "refused", "error", "status"}, in order ("dialled" and
// "refused" are always null: the trap observes). "token" goes out as the
// X-Uridiff-Token header. No proxy (Proxy.NO_PROXY, HttpClient's default
// selector is replaced by none), no redirects (Redirect.NEVER,
// setInstanceFollowRedirects(false)), the request's timeout.
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

public class Fetch {
    public static void main(String[] args) throws Exception {
        String client = args.length > 0 ? args[0] : "";
        if (!client.equals("java-httpclient") && !client.equals("java-httpurlconnection")) {
            System.err.println("Fetch.java: unknown client \"" + client + "\"");
            System.exit(2);
        }
        if (!"namespace".equals(System.getenv("URIDIFF_FETCH_MODE"))) {
            System.err.println("Fetch.java: " + client + " runs only in uridiff fetch's network namespace");
            System.exit(2);
        }
        String version = System.getProperty("java.version");
        System.out.println("{\"uridiff_fetch\": 1, \"client\": " + quote(client + " (Java " + version + ")")
                + ", \"runtime\": " + quote("Java " + version) + "}");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            Map<String, Object> request = new Json(line).object();
            Object[] result = fetch(client, request);
            System.out.println("{\"dialled\": null, \"refused\": null, \"error\": "
                    + (result[1] == null ? "null" : quote((String) result[1]))
                    + ", \"status\": " + (result[0] == null ? "null" : result[0]) + "}");
            System.out.flush();
        }
    }

    static Object[] fetch(String client, Map<String, Object> request) {
        String url = String.valueOf(request.get("url"));
        long ms = Math.max(1, request.get("timeout_ms") instanceof Double d ? d.longValue() : 1);
        Object token = request.get("token");
        try {
            if (client.equals("java-httpclient")) {
                HttpClient http = HttpClient.newBuilder()
                        .followRedirects(HttpClient.Redirect.NEVER)
                        .proxy(HttpClient.Builder.NO_PROXY)
                        .connectTimeout(Duration.ofMillis(ms))
                        .build();
                HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(ms)).GET();
                if (token instanceof String t) builder.header("X-Uridiff-Token", t);
                HttpResponse<byte[]> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
                return new Object[] {response.statusCode(), null};
            }
            HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection(Proxy.NO_PROXY);
            connection.setInstanceFollowRedirects(false);
            connection.setConnectTimeout((int) Math.min(ms, Integer.MAX_VALUE));
            connection.setReadTimeout((int) Math.min(ms, Integer.MAX_VALUE));
            if (token instanceof String t) connection.setRequestProperty("X-Uridiff-Token", t);
            int status = connection.getResponseCode();
            InputStream body = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            if (body != null) body.readAllBytes();
            connection.disconnect();
            return new Object[] {status, null};
        } catch (Exception e) {
            String text = e.getClass().getName() + ": " + e.getMessage();
            return new Object[] {null, text.length() > 2000 ? text.substring(0, 2000) : text};
        }
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    /** The JSON of a request line: an object of strings, numbers, null and nested objects. */
    static final class Json {
        private final String text;
        private int at;

        Json(String text) { this.text = text; }

        Map<String, Object> object() {
            Map<String, Object> out = new HashMap<>();
            expect('{');
            if (peek() == '}') { at++; return out; }
            while (true) {
                String key = string();
                expect(':');
                out.put(key, value());
                char c = next();
                if (c == '}') return out;
                if (c != ',') throw new IllegalArgumentException("bad JSON at " + at);
            }
        }

        Object value() {
            char c = peek();
            if (c == '"') return string();
            if (c == '{') return object();
            if (text.startsWith("null", at)) { at += 4; return null; }
            if (text.startsWith("true", at)) { at += 4; return Boolean.TRUE; }
            if (text.startsWith("false", at)) { at += 5; return Boolean.FALSE; }
            int start = at;
            while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
            return Double.parseDouble(text.substring(start, at));
        }

        String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = text.charAt(at++);
                if (c == '"') return b.toString();
                if (c != '\\') { b.append(c); continue; }
                char e = text.charAt(at++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> { b.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; }
                    default -> b.append(e);
                }
            }
        }

        char peek() { skip(); return text.charAt(at); }
        char next() { skip(); return text.charAt(at++); }
        void expect(char c) { if (next() != c) throw new IllegalArgumentException("expected " + c + " at " + at); }
        void skip() { while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++; }
    }
}
