<?php
// uridiff fetch client (PHP): one GET per request line, through
// file_get_contents($url) (the http:// stream wrapper) or the curl
// extension (curl_init($url); curl_exec).
//
//     URIDIFF_FETCH_MODE=namespace php fetch.php php-file-get-contents
//     URIDIFF_FETCH_MODE=namespace php fetch.php php-curl
//
// Runs only in uridiff fetch's network namespace (URIDIFF_FETCH_MODE=
// namespace), whose only interface is lo, with its own hosts file and DNS
// trap (src/fetch/netns.rs): PHP resolves and connects on its own, as in a
// service, and the trap observes where it went. There is no guard here, so
// outside the namespace it refuses to start.
//
// Protocol (uridiff::fetch): one hello line {"uridiff_fetch": 1, "client",
// "runtime"}, then per line in {"url", "timeout_ms", "token"} one line out
// {"dialled", "refused", "error", "status"}, in order ("dialled" and
// "refused" are always null: the trap observes). "token" goes out as the
// X-Uridiff-Token header. Only the http and https stream wrappers (below),
// no proxy, no redirects (follow_location 0,
// CURLOPT_FOLLOWLOCATION false), http and https only for curl, the
// request's timeout.

$client = $argv[1] ?? '';
if ($client !== 'php-file-get-contents' && $client !== 'php-curl') {
    fwrite(STDERR, "fetch.php: unknown client " . json_encode($client) . "\n");
    exit(2);
}
if (getenv('URIDIFF_FETCH_MODE') !== 'namespace') {
    fwrite(STDERR, "fetch.php: $client runs only in uridiff fetch's network namespace\n");
    exit(2);
}
if ($client === 'php-curl' && !function_exists('curl_init')) {
    fwrite(STDERR, "fetch.php: PHP's curl extension is not installed: apt-get install php-curl\n");
    exit(3);
}

// file_get_contents opens anything its stream wrappers do: a plain path (a
// local file), php://, data:, phar:// (which deserialises)... Only the
// http and https wrappers stay, so that an input that is no http URL gets
// PHP's own "no suitable wrapper" error instead of reading or running
// anything here.
foreach (stream_get_wrappers() as $wrapper) {
    if ($wrapper !== 'http' && $wrapper !== 'https') {
        stream_wrapper_unregister($wrapper);
    }
}

function fetch_one(string $client, array $request): array
{
    $timeout = max((int)($request['timeout_ms'] ?? 1), 1) / 1000.0;
    $headers = isset($request['token']) ? ['X-Uridiff-Token: ' . $request['token']] : [];
    $url = (string)$request['url'];
    if ($client === 'php-file-get-contents') {
        $context = stream_context_create(['http' => [
            'method' => 'GET',
            'header' => $headers,
            'follow_location' => 0,
            'max_redirects' => 1,
            'ignore_errors' => true,
            'timeout' => $timeout,
        ]]);
        $error = null;
        set_error_handler(function ($no, $text) use (&$error) {
            $error = $error ?? $text;
            return true;
        });
        try {
            $body = file_get_contents($url, false, $context);
        } catch (\Throwable $e) {
            $body = false;
            $error = get_class($e) . ': ' . $e->getMessage();
        } finally {
            restore_error_handler();
        }
        $status = null;
        // $http_response_header: set by the http wrapper in this scope.
        if (isset($http_response_header[0]) && preg_match('#^HTTP/\S+ (\d{3})#', $http_response_header[0], $m)) {
            $status = (int)$m[1];
        }
        if ($body !== false && $status !== null) {
            $error = null;
        }
        return [$status, $error === null ? null : substr($error, 0, 2000)];
    }
    $handle = curl_init();
    // PHP refuses a URL holding a NUL byte before libcurl sees it (a
    // ValueError): that is this client's answer to such an input, not a
    // failure of the process.
    try {
        $set = curl_setopt_array($handle, [
            CURLOPT_URL => $url,
            CURLOPT_HTTPHEADER => $headers,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_PROXY => '',
            CURLOPT_NOPROXY => '*',
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_TIMEOUT_MS => (int)($timeout * 1000),
            CURLOPT_NOSIGNAL => true,
        ]);
    } catch (\Throwable $e) {
        curl_close($handle);
        return [null, get_class($e) . ': ' . $e->getMessage()];
    }
    if (!$set) {
        $error = curl_error($handle) ?: 'curl_setopt_array failed';
        curl_close($handle);
        return [null, $error];
    }
    $ok = curl_exec($handle);
    $status = curl_getinfo($handle, CURLINFO_RESPONSE_CODE) ?: null;
    $error = $ok === false ? curl_error($handle) : null;
    curl_close($handle);
    return [$status, $error];
}

$version = $client === 'php-curl' ? 'PHP ' . PHP_VERSION . ', libcurl ' . curl_version()['version'] : 'PHP ' . PHP_VERSION;
echo json_encode(['uridiff_fetch' => 1, 'client' => "$client ($version)", 'runtime' => 'PHP ' . PHP_VERSION]), "\n";
while (($line = fgets(STDIN)) !== false) {
    if (trim($line) === '') {
        continue;
    }
    [$status, $error] = fetch_one($client, json_decode($line, true));
    echo json_encode(['dialled' => null, 'refused' => null, 'error' => $error, 'status' => $status],
        JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
}
