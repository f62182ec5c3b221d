//! The JavaScript and C reproductions: Ada through Node's `new URL` and
//! through its C API (`ada_c.h`), libcurl through its URL API.

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
