<?php
// uridiff external oracle `php-parse-url`: PHP's parse_url, with
// filter_var($input, FILTER_VALIDATE_URL)'s verdict as a note.
//
// Speaks uridiff's pipe protocol v2 (GUIDE.md, "External oracles"): one hello
// line, then one JSON request {"id", "input", "base"} per line in and one
// JSON answer per line out, in request order, each echoing the request's id.
// PHP's CLI and its bundled json and filter extensions only:
//
//     php adapters/php-parse-url.php
//
// Web applications commonly validate a URL with filter_var(FILTER_VALIDATE_URL)
// and then read its host with parse_url, or fetch it with something else: the
// pair behind CVE-2021-21705 (SoapClient's URL check) and CVE-2024-5458
// (filter_var accepting what parse_url reads differently). The manual says
// parse_url "is not meant to validate the given URL, it only breaks it up"
// and that partial and invalid URLs may still be accepted
// (https://www.php.net/manual/en/function.parse-url.php).
//
// What each key reports, read from the array parse_url($input) returns:
//
// - verdict: `reject` when parse_url returns false ("seriously malformed
//   URLs", such as `http:///p` or a port above 65535; PHP gives no reason),
//   else `accept`. parse_url replaces each ASCII control character (NUL
//   included) with '_' before splitting, so a component may hold '_' where
//   the input had a control character. A pair is `out-of-domain`: PHP has
//   no URL resolution function.
// - scheme: "scheme", as written (PHP keeps its case); null when the key is
//   missing.
// - authority: not reported (key left out): parse_url returns no authority,
//   only its parts.
// - userinfo: "user", then ':' and "pass" when "pass" is there, both raw
//   (not percent-decoded); "" for `http://@h/` (PHP sets an empty user);
//   null when there is no "user".
// - host: "host", raw: case kept, an IPv6 literal with its brackets
//   ("[::1]", as the RFC 3986 oracles report it), and whatever else PHP
//   puts there: `http://[localhost]/` gives "[localhost]",
//   `http://127.0.0.1:11211:80/` gives "127.0.0.1:11211" (the port is taken
//   after the last ':'). PHP also reads a host from inputs with no scheme or
//   "//" (`h:80` has host "h", port 80). null when the key is missing.
// - port: "port", an integer, in decimal (so `h:080` gives "80"); null when
//   missing, which includes an empty port (`http://h:/`).
// - path, query, fragment: "path", "query", "fragment", raw; "" when
//   present and empty (PHP 8 keeps `?` and `#` with nothing after them
//   apart from none), null when the key is missing (PHP gives no path for
//   `x:` or `?q`).
// - notes: "filter-validate-url:accept" or "filter-validate-url:reject", the
//   verdict of filter_var($input, FILTER_VALIDATE_URL) on the same input
//   (https://www.php.net/manual/en/filter.filters.validate.php), for every
//   plain input; "component-not-utf8" if a component is not UTF-8 (JSON
//   then carries U+FFFD for its bad bytes).
// - message: for `reject`, "parse_url returned false"; else null.
//
// IO: answers are collected and written when no more input is waiting
// (stream_select with a zero timeout, which counts what PHP has buffered),
// so a batch's answers go out together. Warnings go to standard error, never
// into the answers.

declare(strict_types=1);

ini_set('display_errors', 'stderr');
error_reporting(E_ALL);

const NO_RESOLUTION = 'PHP has no URL resolution function: parse_url splits one URL';

function optional(array $parts, string $key): ?string
{
    return array_key_exists($key, $parts) ? (string) $parts[$key] : null;
}

function describe(string $input): array
{
    $parts = parse_url($input);
    $notes = [filter_var($input, FILTER_VALIDATE_URL) === false
        ? 'filter-validate-url:reject' : 'filter-validate-url:accept'];
    if ($parts === false) {
        return ['verdict' => 'reject', 'message' => 'parse_url returned false', 'notes' => $notes];
    }
    $userinfo = null;
    if (array_key_exists('user', $parts)) {
        $userinfo = $parts['user'];
        if (array_key_exists('pass', $parts)) {
            $userinfo .= ':' . $parts['pass'];
        }
    }
    $answer = [
        'verdict' => 'accept',
        'scheme' => optional($parts, 'scheme'),
        'userinfo' => $userinfo,
        'host' => optional($parts, 'host'),
        'port' => optional($parts, 'port'),
        'path' => optional($parts, 'path'),
        'query' => optional($parts, 'query'),
        'fragment' => optional($parts, 'fragment'),
        'message' => null,
    ];
    foreach ($answer as $value) {
        if (is_string($value) && preg_match('//u', $value) !== 1) {
            $notes[] = 'component-not-utf8';
            break;
        }
    }
    $answer['notes'] = $notes;
    return $answer;
}

function answer(array $request): array
{
    if ($request['base'] !== null) {
        return ['id' => $request['id'], 'verdict' => 'out-of-domain', 'message' => NO_RESOLUTION];
    }
    return ['id' => $request['id']] + describe($request['input']);
}

function request(string $line): array
{
    try {
        $r = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
    } catch (JsonException $e) {
        fail('request line is not JSON: ' . $e->getMessage());
    }
    if (!is_array($r) || !is_int($r['id'] ?? null) || !is_string($r['input'] ?? null)
        || !(($r['base'] ?? null) === null || is_string($r['base']))) {
        fail('request line without an integer "id", a string "input" and a null or string "base": '
            . substr($line, 0, 200));
    }
    $r['base'] = $r['base'] ?? null;
    return $r;
}

function fail(string $message)
{
    fwrite(STDERR, "php-parse-url adapter: $message\n");
    exit(2);
}

function encode(array $value): string
{
    return json_encode($value, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE | JSON_THROW_ON_ERROR) . "\n";
}

function main(): void
{
    $hello = [
        'uridiff_protocol' => 2,
        'parser' => 'PHP ' . PHP_VERSION . ' parse_url',
        'standard' => 'PHP parse_url (no standard; it splits, it does not validate)',
        'runtime' => 'PHP ' . PHP_VERSION . ' (' . PHP_SAPI . ')',
    ];
    fwrite(STDOUT, encode($hello));
    $out = '';
    while (($line = fgets(STDIN)) !== false) {
        if (trim($line) !== '') {
            $out .= encode(answer(request($line)));
        }
        $read = [STDIN];
        $write = null;
        $except = null;
        if (stream_select($read, $write, $except, 0) === 0) {
            fwrite(STDOUT, $out);
            $out = '';
        }
    }
    fwrite(STDOUT, $out);
}

main();
