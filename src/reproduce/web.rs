//! The JavaScript and C reproductions: Ada through Node's `new URL` and
//! through its C API (`ada_c.h`), libcurl through its URL API, uriparser
//! through its own.

use super::wpt::wpt_fields;
use super::*;

pub(super) fn ada_test(about: &About<'_>, expect: &Expect<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Node.js's URL is Ada (node -p process.versions.ada); uridiff found this in {}.",
        about.version
    );
    let _ = writeln!(out, "// {}; uridiff root cause {}.", about.spec, about.id);
    out.push_str("const assert = require(\"node:assert\");\n");
    let args = match about.base {
        Some(base) => format!("{}, {}", js(about.input), js(base)),
        None => js(about.input),
    };
    match expect {
        Expect::Reject => {
            let _ = writeln!(out, "assert.throws(() => new URL({args}), TypeError);");
        }
        Expect::RoundTrip => {
            let _ = writeln!(out, "const url = new URL({args});");
            out.push_str("assert.strictEqual(new URL(url.href).href, url.href);\n");
        }
        Expect::Serialization(href) => {
            let _ = writeln!(
                out,
                "assert.strictEqual(new URL({args}).href, {});",
                js(href)
            );
        }
        Expect::Accept(c) => {
            let _ = writeln!(out, "const url = new URL({args});");
            let wpt = wpt_fields(c);
            let getters: &[(&str, Component)] = &[
                ("protocol", Component::Scheme),
                ("username", Component::Userinfo),
                ("password", Component::Userinfo),
                ("hostname", Component::Host),
                ("port", Component::Port),
                ("pathname", Component::Path),
                ("search", Component::Query),
                ("hash", Component::Fragment),
            ];
            if about.disputed.is_empty() {
                if let Some(href) = wpt.get("href").and_then(|v| v.as_str()) {
                    let _ = writeln!(out, "assert.strictEqual(url.href, {});", js(href));
                }
            } else {
                for (getter, component) in getters {
                    if about.disputed.contains(*component)
                        && let Some(value) = wpt.get(*getter).and_then(|v| v.as_str())
                    {
                        let _ = writeln!(out, "assert.strictEqual(url.{getter}, {});", js(value));
                    }
                }
            }
        }
    }
    out
}

pub(super) fn curl_test(about: &About<'_>, expect: &Expect<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/* {}; uridiff root cause {}.\n * Found in {}. Build: cc repro.c $(pkg-config --cflags --libs libcurl)\n * Exits 1 while the defect holds, 0 once it is fixed. */",
        about.spec, about.id, about.version
    );
    out.push_str("#include <stdio.h>\n#include <string.h>\n#include <curl/curl.h>\n\n");
    // The input (and base) as arrays that hold every byte, NULs included:
    // curl_url_set takes a C string, so one that holds a NUL cannot be
    // given to it, and the program says so rather than test a prefix.
    out.push_str("int main(void)\n{\n");
    let _ = writeln!(out, "  static const char input[] = {};", c_str(about.input));
    if let Some(base) = about.base {
        let _ = writeln!(out, "  static const char base[] = {};", c_str(base));
    }
    out.push_str("  CURLU *h;\n  CURLUcode rc;\n");
    let whole = |name: &str| {
        format!(
            "  if(strlen({name}) != sizeof {name} - 1) {{\n    puts(\"the {name} holds a NUL: curl_url_set takes a C string\");\n    return 2;\n  }}\n"
        )
    };
    out.push_str(&whole("input"));
    if about.base.is_some() {
        out.push_str(&whole("base"));
    }
    out.push_str("  h = curl_url();\n  if(!h)\n    return 2;\n");
    if about.base.is_some() {
        out.push_str(
            "  /* The base first: a relative URL is resolved against the handle's URL. */\n  if(curl_url_set(h, CURLUPART_URL, base, CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)\n    return 2;\n",
        );
    }
    out.push_str("  rc = curl_url_set(h, CURLUPART_URL, input, CURLU_NON_SUPPORT_SCHEME);\n");
    match expect {
        Expect::RoundTrip => out.push_str(
            "  if(rc == CURLUE_OK) {\n    char *url = NULL, *again = NULL;\n    CURLU *h2 = curl_url();\n    int bad = 1;\n    if(h2 && curl_url_get(h, CURLUPART_URL, &url, 0) == CURLUE_OK &&\n       curl_url_set(h2, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK &&\n       curl_url_get(h2, CURLUPART_URL, &again, 0) == CURLUE_OK)\n      bad = strcmp(url, again) != 0;\n    printf(\"%s reparses as %s\\n\", url ? url : \"(none)\", again ? again : \"(refused)\");\n    curl_free(url);\n    curl_free(again);\n    curl_url_cleanup(h2);\n    curl_url_cleanup(h);\n    return bad;\n  }\n  curl_url_cleanup(h);\n  return 0;\n}\n",
        ),
        // curl has no reference: every other defect is input RFC 3986
        // forbids (an invalid IP literal, section 3.2.2), which
        // curl_url_set must refuse.
        Expect::Reject | Expect::Accept(_) | Expect::Serialization(_) => out.push_str(
            "  if(rc == CURLUE_OK) {\n    char *host = NULL;\n    if(curl_url_get(h, CURLUPART_HOST, &host, 0) == CURLUE_OK)\n      printf(\"accepted, host %s\\n\", host);\n    curl_free(host);\n    curl_url_cleanup(h);\n    return 1;\n  }\n  curl_url_cleanup(h);\n  return 0;\n}\n",
        ),
    }
    out
}

/// Ada through its C API (`ada_c.h`): exits 1 while the defect holds.
pub(super) fn ada_c_test(about: &About<'_>, expect: &Expect<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/* {}; uridiff root cause {}.\n * Found in {}. Build with the release's ada.cpp, ada.h and ada_c.h:\n *   c++ -std=c++20 -c ada.cpp && cc repro.c ada.o -lstdc++ -o repro\n * Exits 1 while the defect holds, 0 once it is fixed. */",
        about.spec, about.id, about.version
    );
    out.push_str(
        "#include <stdbool.h>\n#include <stdio.h>\n#include <string.h>\n#include \"ada_c.h\"\n\n",
    );
    // Every string is an array, its length `sizeof - 1`, never `strlen`:
    // ada_parse takes a length, and an input that holds a NUL is tested
    // whole (strlen would stop at the NUL and test a prefix of it).
    out.push_str("static bool same(ada_string s, const char *want, size_t length)\n{\n  return s.length == length && memcmp(s.data, want, length) == 0;\n}\n\n/* A string literal's length, its NULs included. */\n#define SAME(s, want) same((s), (want), sizeof (want) - 1)\n\n");
    out.push_str("int main(void)\n{\n");
    let _ = writeln!(out, "  static const char input[] = {};", c_str(about.input));
    match about.base {
        Some(base) => {
            let _ = writeln!(out, "  static const char base[] = {};", c_str(base));
            out.push_str(
                "  ada_url u = ada_parse_with_base(input, sizeof input - 1, base, sizeof base - 1);\n",
            );
        }
        None => out.push_str("  ada_url u = ada_parse(input, sizeof input - 1);\n"),
    }
    out.push_str("  bool valid = ada_is_valid(u);\n");
    let bad = match expect {
        Expect::Reject => "valid".to_owned(),
        Expect::Serialization(href) => format!("!valid || !SAME(ada_get_href(u), {})", c_str(href)),
        Expect::RoundTrip => {
            out.push_str("  bool again_same = false;\n  if(valid) {\n    ada_string href = ada_get_href(u);\n    ada_url again = ada_parse(href.data, href.length);\n    if(ada_is_valid(again)) {\n      ada_string h2 = ada_get_href(again);\n      again_same = h2.length == href.length && memcmp(h2.data, href.data, href.length) == 0;\n    }\n    ada_free(again);\n  }\n");
            "!valid || !again_same".to_owned()
        }
        Expect::Accept(c) => {
            let wpt = wpt_fields(c);
            let getters: [(&str, Component); 7] = [
                ("hostname", Component::Host),
                ("pathname", Component::Path),
                ("search", Component::Query),
                ("hash", Component::Fragment),
                ("port", Component::Port),
                ("username", Component::Userinfo),
                ("protocol", Component::Scheme),
            ];
            let mut conds = vec!["!valid".to_owned()];
            for (getter, component) in getters {
                if !about.fields().contains(component) {
                    continue;
                }
                if let Some(value) = wpt.get(getter).and_then(|v| v.as_str()) {
                    conds.push(format!("!SAME(ada_get_{getter}(u), {})", c_str(value)));
                }
            }
            conds.join(" || ")
        }
    };
    let _ = writeln!(out, "  int bad = {bad};");
    out.push_str("  if(bad && valid) {\n    ada_string href = ada_get_href(u);\n    printf(\"href %.*s\\n\", (int)href.length, href.data);\n  }\n");
    out.push_str("  ada_free(u);\n  return bad;\n}\n");
    out
}

/// The parts of a URI the uriparser reproduction reads, as uridiff's
/// oracle reads them (src/oracle/uriparser.rs): the C expression of each.
const URIPARSER_PARTS: [(&str, Component); 8] = [
    ("scheme", Component::Scheme),
    ("authority", Component::Authority),
    ("userinfo", Component::Userinfo),
    ("host", Component::Host),
    ("port", Component::Port),
    ("path", Component::Path),
    ("query", Component::Query),
    ("fragment", Component::Fragment),
];

/// The helpers every uriparser reproduction starts with: each component of
/// a parsed URI as a C string (NULL when absent), the path and the host as
/// `uriToStringA` writes them, and the recomposed text.
const URIPARSER_HELPERS: &str = r#"static char *range(UriTextRangeA r)
{
  size_t n;
  char *s;
  if(!r.first)
    return NULL;
  n = (size_t)(r.afterLast - r.first);
  s = malloc(n + 1);
  if(!s)
    exit(2);
  memcpy(s, r.first, n);
  s[n] = '\0';
  return s;
}

static int has_host(const UriUriA *u)
{
  return u->hostText.first || u->hostData.ip4 || u->hostData.ip6 || u->hostData.ipFuture.first;
}

/* The component NAME of U as uridiff reads it: the host with an IP
 * literal's brackets, the authority as [userinfo "@"] host [":" port], the
 * path as uriToStringA writes it (RFC 3986 section 5.3). */
static char *part(const UriUriA *u, const char *name)
{
  static char buf[8192];
  buf[0] = '\0';
  if(!strcmp(name, "scheme"))
    return range(u->scheme);
  if(!strcmp(name, "userinfo"))
    return has_host(u) ? range(u->userInfo) : NULL;
  if(!strcmp(name, "port"))
    return has_host(u) ? range(u->portText) : NULL;
  if(!strcmp(name, "query"))
    return range(u->query);
  if(!strcmp(name, "fragment"))
    return range(u->fragment);
  if(!strcmp(name, "host") || !strcmp(name, "authority")) {
    char *host, *userinfo, *port;
    int bracket = u->hostData.ip6 || u->hostData.ipFuture.first;
    if(!has_host(u))
      return NULL;
    host = range(u->hostText);
    userinfo = range(u->userInfo);
    port = range(u->portText);
    if(!strcmp(name, "authority") && userinfo)
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s@", userinfo);
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), bracket ? "[%s]" : "%s", host ? host : "");
    if(!strcmp(name, "authority") && port)
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ":%s", port);
    free(host);
    free(userinfo);
    free(port);
  }
  else {
    const UriPathSegmentA *s;
    if(u->absolutePath || (u->pathHead && has_host(u)))
      strcat(buf, "/");
    for(s = u->pathHead; s; s = s->next) {
      char *t = range(s->text);
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", t ? t : "", s->next ? "/" : "");
      free(t);
    }
  }
  return strdup(buf);
}

/* The text uriToStringA writes for U, or NULL. */
static char *text(const UriUriA *u)
{
  int n;
  char *s;
  if(uriToStringCharsRequiredA(u, &n) != URI_SUCCESS)
    return NULL;
  s = malloc((size_t)n + 1);
  if(!s)
    exit(2);
  if(uriToStringA(s, u, n + 1, NULL) != URI_SUCCESS) {
    free(s);
    return NULL;
  }
  return s;
}

/* Does NAME of U hold WANT (NULL: absent)? Says what it found otherwise. A
 * path that starts with "//" without an authority may be written with "/."
 * or "./" before it (RFC 3986 sections 5.2.4 and 3.3). */
static int holds(const UriUriA *u, const char *name, const char *want)
{
  char *got = part(u, name);
  int ok = (!got || !want) ? got == want : !strcmp(got, want);
  if(!ok && got && want && !strcmp(name, "path") && !has_host(u) && !strncmp(want, "//", 2)
     && strlen(got) == strlen(want) + 2 && (!strncmp(got, "/.", 2) || !strncmp(got, "./", 2))
     && !strcmp(got + 2, want))
    ok = 1;
  if(!ok)
    printf("%s: %s%s%s, RFC 3986: %s%s%s\n", name, got ? "\"" : "", got ? got : "absent",
           got ? "\"" : "", want ? "\"" : "", want ? want : "absent", want ? "\"" : "");
  free(got);
  return ok;
}
"#;

/// uriparser through its C API (`uriParseSingleUriExA`, `uriAddBaseUriExA`,
/// `uriToStringA`): exits 1 while the defect holds. With a base, the
/// resolved URI is written with `uriToStringA` and parsed again, as uridiff
/// reads it (and as a program that passes the text on does).
pub(super) fn uriparser_test(about: &About<'_>, expect: &Expect<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/* {}; uridiff root cause {}.\n * Found in {}. Build: cc repro.c $(pkg-config --cflags --libs liburiparser)\n * Exits 1 while the defect holds, 0 once it is fixed. */",
        about.spec, about.id, about.version
    );
    out.push_str(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <uriparser/Uri.h>\n\n",
    );
    out.push_str(URIPARSER_HELPERS);
    out.push_str("\nint main(void)\n{\n");
    // Arrays, parsed up to `sizeof - 1`: every byte, NULs included, reaches
    // the parser through its explicit end pointer.
    let _ = writeln!(out, "  static const char input[] = {};", c_str(about.input));
    out.push_str(
        "  UriUriA u, parsed;\n  const char *error;\n  char *written = NULL;\n  int bad = 0;\n",
    );
    match about.base {
        Some(base) => {
            let _ = writeln!(out, "  static const char base[] = {};", c_str(base));
            out.push_str(concat!(
                "  UriUriA b, resolved;\n",
                "  int accepted = 0;\n",
                "  if(uriParseSingleUriExA(&b, base, base + sizeof base - 1, &error) != URI_SUCCESS)\n",
                "    return 2;\n",
                "  if(uriParseSingleUriExA(&parsed, input, input + sizeof input - 1, &error) == URI_SUCCESS) {\n",
                "    if(uriAddBaseUriExA(&resolved, &parsed, &b, URI_RESOLVE_STRICTLY) == URI_SUCCESS) {\n",
                "      written = text(&resolved);\n",
                "      uriFreeUriMembersA(&resolved);\n",
                "      accepted = written && uriParseSingleUriExA(&u, written, written + strlen(written), &error) == URI_SUCCESS;\n",
                "      printf(\"resolved to %s%s\\n\", written ? written : \"(nothing)\", accepted ? \"\" : \", which does not parse\");\n",
                "    }\n",
                "    uriFreeUriMembersA(&parsed);\n",
                "  }\n",
                "  uriFreeUriMembersA(&b);\n",
            ));
        }
        None => out.push_str(concat!(
            "  int accepted = uriParseSingleUriExA(&u, input, input + sizeof input - 1, &error) == URI_SUCCESS;\n",
            "  (void)parsed;\n",
            "  if(accepted)\n",
            "    written = text(&u);\n",
        )),
    }
    match expect {
        Expect::Reject => out.push_str("  bad = accepted;\n"),
        Expect::Serialization(href) => {
            let _ = writeln!(
                out,
                "  bad = !accepted || !written || strcmp(written, {}) != 0;",
                c_str(href)
            );
        }
        Expect::RoundTrip => out.push_str(concat!(
            "  if(!accepted || !written)\n    bad = 1;\n  else {\n",
            "    UriUriA again;\n    char *again_text = NULL;\n",
            "    if(uriParseSingleUriExA(&again, written, written + strlen(written), &error) == URI_SUCCESS) {\n",
            "      again_text = text(&again);\n      uriFreeUriMembersA(&again);\n    }\n",
            "    bad = !again_text || strcmp(again_text, written) != 0;\n    free(again_text);\n  }\n",
        )),
        Expect::Accept(c) => {
            out.push_str("  if(!accepted)\n    bad = 1;\n  else {\n");
            for (name, component) in URIPARSER_PARTS {
                if !about.fields().contains(component) || !c.reported().contains(component) {
                    continue;
                }
                let want = c.get(component).map_or_else(|| "NULL".to_owned(), c_str);
                let _ = writeln!(out, "    bad |= !holds(&u, \"{name}\", {want});");
            }
            out.push_str("  }\n");
        }
    }
    out.push_str(
        "  if(accepted)\n    uriFreeUriMembersA(&u);\n  free(written);\n  return bad;\n}\n",
    );
    out
}
