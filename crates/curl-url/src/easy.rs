//! One HTTP GET through libcurl's easy API (`curl_easy_perform`), that can
//! only ever connect to a loopback address on one given port.
//!
//! uridiff's `bypass --confirm` lets a real client fetch a URL to see where
//! it goes; this is libcurl's turn. Three locks keep it on loopback:
//!
//! 1. **No name is resolved.** Before anything is performed, the URL is read
//!    with libcurl's URL API with the flags the easy handle itself uses
//!    (`CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME`, `lib/url.c`
//!    `parseurlandfillconn` in curl 8.22). Its host must be an IP address
//!    (the URL API has already normalised IPv4 number forms such as
//!    `0x7f.1` to `127.0.0.1`) or a name in [`FetchOptions::hosts`]; any
//!    other host is refused without performing.
//! 2. **Every connection goes to an address, never to a name.**
//!    `CURLOPT_CONNECT_TO` entries send the mapped names, and the IP host,
//!    to their address on [`FetchOptions::port`]; a last wildcard entry sends
//!    anything else to `0.0.0.0` (which rule 3 refuses), so that a host the
//!    easy handle read differently from the URL API still reaches no
//!    resolver. The URL's own port is kept for the `Host` header only.
//! 3. **The socket is checked.** `CURLOPT_OPENSOCKETFUNCTION` sees the very
//!    address libcurl is about to connect to and opens no socket unless it
//!    is loopback (127.0.0.0/8, `::1`, `::ffff:127.0.0.0/104`) on the
//!    expected port.
//!
//! Besides: no proxy (`CURLOPT_NOPROXY "*"`, `CURLOPT_PROXY ""`, so the
//! `*_proxy` variables are ignored), `http` only (`CURLOPT_PROTOCOLS_STR`),
//! no redirects, one attempt, a total timeout, the body discarded. The
//! caller's [`FetchOptions::headers`] (uridiff's per-request token) are
//! added with `CURLOPT_HTTPHEADER`; they reach only the loopback address
//! the guard allowed, since nothing else is ever connected to.

use std::ffi::{CStr, CString, c_char, c_int, c_long, c_void};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::ptr::{self, NonNull};
use std::sync::Once;
use std::time::Duration;

use curl_sys::{CURL, CURLcode, CURLoption, curl_slist, curl_sockaddr, curl_socket_t};

use crate::{Error, Flags, Part};

/// `CURLOPT(CURLOPT_PROTOCOLS_STR, CURLOPTTYPE_STRINGPOINT, 318)` from curl
/// 8.22's `include/curl/curl.h`; curl-sys 0.4.91 declares only the older
/// bitmask option.
const CURLOPT_PROTOCOLS_STR: CURLoption = curl_sys::CURLOPTTYPE_OBJECTPOINT + 318;

/// How to fetch.
#[derive(Debug, Clone, Copy)]
pub struct FetchOptions<'a> {
    /// The port every connection goes to, whatever the URL says.
    pub port: u16,
    /// Host names and the address each stands for (compared ASCII
    /// case-insensitively, one trailing dot ignored on either side).
    pub hosts: &'a [(&'a str, IpAddr)],
    /// The whole transfer's time limit (`CURLOPT_TIMEOUT_MS`).
    pub timeout: Duration,
    /// Request headers to add, as (name, value) (`CURLOPT_HTTPHEADER`
    /// lines `name: value`). A name must be an HTTP token (RFC 9110
    /// `tchar`s) and a value non-empty (libcurl reads `name:` with nothing
    /// after it as "remove this header") with no CR, LF or NUL, else
    /// nothing is performed and the report's `error` says why.
    pub headers: &'a [(&'a str, &'a str)],
}

/// What happened to one fetch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FetchReport {
    /// The address libcurl connected to (the guard allowed it).
    pub dialled: Option<IpAddr>,
    /// Why the guard refused to connect, or to perform at all.
    pub refused: Option<String>,
    /// libcurl's error (`curl_easy_strerror` and its error buffer).
    pub error: Option<String>,
    /// The response's status code (`CURLINFO_RESPONSE_CODE`), when one came.
    pub status: Option<u16>,
}

/// Is `ip` a loopback address: 127.0.0.0/8, `::1`, or an IPv4-mapped
/// 127.0.0.0/8 (`::ffff:127.0.0.1`, which the kernel routes to IPv4
/// loopback)?
pub fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// Fetches `url` with one GET on a new easy handle, under the guard of the
/// module documentation.
///
/// A refusal is no error: the report says it (`refused`), as it says
/// libcurl's own errors (`error`).
///
/// # Errors
/// [`Error::Nul`] when `url` or a host name holds a NUL.
pub fn fetch(url: &str, options: &FetchOptions<'_>) -> Result<FetchReport, Error> {
    let mut report = FetchReport::default();
    let url_c = CString::new(url).map_err(|e| Error::Nul {
        position: e.nul_position(),
    })?;
    // Rule 1: the host as the easy handle will read it.
    let parsed = crate::parse(url, Flags::GUESS_SCHEME | Flags::NON_SUPPORT_SCHEME);
    let host = match parsed {
        Ok(parts) => parts.get(Part::Host).map(str::to_owned),
        Err(Error::Curl(e)) => {
            // The easy handle would refuse it with the same words
            // (`failf(data, "URL rejected: %s", ..)`) before connecting.
            report.error = Some(format!("URL rejected: {e}"));
            None
        }
        Err(e) => return Err(e),
    };
    let Some(host) = host else {
        if report.error.is_none() {
            report.error = Some("the URL has no host".to_owned());
        }
        return Ok(report);
    };
    let Some(target) = target_of(&host, options.hosts) else {
        report.refused = Some(format!("name not mapped: no DNS lookup ({host})"));
        return Ok(report);
    };
    if !is_loopback(target) {
        report.refused = Some(format!("{target} is not a loopback address"));
        return Ok(report);
    }

    // Rule 2: where to connect, as CURLOPT_CONNECT_TO entries
    // (`HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT`, an empty HOST or PORT
    // matching any; lib/url.c parse_connect_to_string). The first matching
    // entry wins.
    let port = options.port;
    let mut entries = Vec::new();
    for (name, ip) in options.hosts {
        let name = name.strip_suffix('.').unwrap_or(name);
        if name.is_empty() || name.contains(':') {
            continue;
        }
        let address = bracketed(*ip);
        entries.push(format!("{name}::{address}:{port}"));
        entries.push(format!("{name}.::{address}:{port}"));
    }
    // The URL API's reading of the host (an IP address, or a mapped name
    // as the URL spells it), then everything else to 0.0.0.0.
    entries.push(format!("{host}::{}:{port}", bracketed(target)));
    entries.push(format!(":::0.0.0.0:{port}"));
    let entries = entries
        .into_iter()
        .map(|e| {
            CString::new(e).map_err(|e| Error::Nul {
                position: e.nul_position(),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let Some(connect_to) = SList::new(&entries) else {
        report.error = Some("curl_slist_append returned NULL".to_owned());
        return Ok(report);
    };
    let mut lines = Vec::with_capacity(options.headers.len());
    for (name, value) in options.headers {
        if let Some(why) = bad_header(name, value) {
            report.error = Some(format!("header {name:?}: {why}"));
            return Ok(report);
        }
        lines.push(
            CString::new(format!("{name}: {value}")).map_err(|e| Error::Nul {
                position: e.nul_position(),
            })?,
        );
    }
    // Declared before the handle, like `connect_to`: freed after it.
    let Some(headers) = SList::new(&lines) else {
        report.error = Some("curl_slist_append returned NULL".to_owned());
        return Ok(report);
    };

    global_init();
    let mut guard = Guard {
        port,
        dialled: None,
        refused: None,
    };
    let Some(handle) = Easy::new() else {
        report.error = Some("curl_easy_init returned NULL".to_owned());
        return Ok(report);
    };
    let mut error_buffer = [0 as c_char; curl_sys::CURL_ERROR_SIZE];
    let timeout_ms = c_long::try_from(options.timeout.as_millis().max(1)).unwrap_or(c_long::MAX);
    let settings = [
        handle.set_ptr(curl_sys::CURLOPT_URL, url_c.as_ptr().cast()),
        handle.set_ptr(curl_sys::CURLOPT_CONNECT_TO, connect_to.as_ptr().cast()),
        // NULL (no header given) is libcurl's default: no custom headers.
        handle.set_ptr(curl_sys::CURLOPT_HTTPHEADER, headers.as_ptr().cast()),
        handle.set_ptr(curl_sys::CURLOPT_NOPROXY, c"*".as_ptr().cast()),
        handle.set_ptr(curl_sys::CURLOPT_PROXY, c"".as_ptr().cast()),
        handle.set_ptr(CURLOPT_PROTOCOLS_STR, c"http".as_ptr().cast()),
        handle.set_long(curl_sys::CURLOPT_FOLLOWLOCATION, 0),
        // Signals are process-wide: timeouts must not use them in a
        // program with threads.
        handle.set_long(curl_sys::CURLOPT_NOSIGNAL, 1),
        handle.set_long(curl_sys::CURLOPT_TIMEOUT_MS, timeout_ms),
        handle.set_ptr(
            curl_sys::CURLOPT_ERRORBUFFER,
            error_buffer.as_mut_ptr().cast(),
        ),
        handle.set_write_discard(),
        handle.set_open_socket(&mut guard),
    ];
    if let Some(code) = settings.into_iter().find(|&c| c != curl_sys::CURLE_OK) {
        report.error = Some(format!("setting up the handle: {}", strerror(code)));
        return Ok(report);
    }
    let code = handle.perform();
    let status = handle.response_code();
    // The handle (which points at `guard`, `error_buffer`, `connect_to`,
    // `headers` and `url_c`) goes before any of them.
    drop(handle);
    report.dialled = guard.dialled;
    report.refused = guard.refused;
    report.status = status;
    if code != curl_sys::CURLE_OK {
        let detail = CStr::from_bytes_until_nul(bytes_of(&error_buffer))
            .map(|c| c.to_string_lossy().into_owned())
            .unwrap_or_default();
        report.error = Some(if detail.is_empty() {
            strerror(code)
        } else {
            format!("{}: {detail}", strerror(code))
        });
    }
    Ok(report)
}

/// Fetches `url` with one GET on a new easy handle **without the guard**:
/// libcurl resolves the host itself (its own resolver, its own `localhost`
/// handling) and connects to the address and port the URL names, as it does
/// in a service. Only for a process that cannot reach anything but loopback
/// (uridiff's `fetch` calls it inside a network namespace whose only
/// interface is `lo`); elsewhere use [`fetch`].
///
/// What stays: no proxy, `http` only (no `file:` read, no other
/// protocol), no redirects, the time limit, the headers (checked as in
/// [`fetch`]), the body discarded. The report's `dialled` is the address
/// libcurl connected to (`CURLINFO_PRIMARY_IP`), `refused` is never set.
///
/// # Errors
/// [`Error::Nul`] when `url` holds a NUL.
pub fn fetch_unguarded(
    url: &str,
    timeout: Duration,
    headers: &[(&str, &str)],
) -> Result<FetchReport, Error> {
    let mut report = FetchReport::default();
    let url_c = CString::new(url).map_err(|e| Error::Nul {
        position: e.nul_position(),
    })?;
    let mut lines = Vec::with_capacity(headers.len());
    for (name, value) in headers {
        if let Some(why) = bad_header(name, value) {
            report.error = Some(format!("header {name:?}: {why}"));
            return Ok(report);
        }
        lines.push(
            CString::new(format!("{name}: {value}")).map_err(|e| Error::Nul {
                position: e.nul_position(),
            })?,
        );
    }
    let Some(headers) = SList::new(&lines) else {
        report.error = Some("curl_slist_append returned NULL".to_owned());
        return Ok(report);
    };
    global_init();
    let Some(handle) = Easy::new() else {
        report.error = Some("curl_easy_init returned NULL".to_owned());
        return Ok(report);
    };
    let mut error_buffer = [0 as c_char; curl_sys::CURL_ERROR_SIZE];
    let timeout_ms = c_long::try_from(timeout.as_millis().max(1)).unwrap_or(c_long::MAX);
    let settings = [
        handle.set_ptr(curl_sys::CURLOPT_URL, url_c.as_ptr().cast()),
        handle.set_ptr(curl_sys::CURLOPT_HTTPHEADER, headers.as_ptr().cast()),
        handle.set_ptr(curl_sys::CURLOPT_NOPROXY, c"*".as_ptr().cast()),
        handle.set_ptr(curl_sys::CURLOPT_PROXY, c"".as_ptr().cast()),
        // `http` only: this build of libcurl has no TLS (curl-sys vendored
        // without it), and naming a protocol it lacks fails the setting.
        handle.set_ptr(CURLOPT_PROTOCOLS_STR, c"http".as_ptr().cast()),
        handle.set_long(curl_sys::CURLOPT_FOLLOWLOCATION, 0),
        handle.set_long(curl_sys::CURLOPT_NOSIGNAL, 1),
        handle.set_long(curl_sys::CURLOPT_TIMEOUT_MS, timeout_ms),
        handle.set_ptr(
            curl_sys::CURLOPT_ERRORBUFFER,
            error_buffer.as_mut_ptr().cast(),
        ),
        handle.set_write_discard(),
    ];
    if let Some(code) = settings.into_iter().find(|&c| c != curl_sys::CURLE_OK) {
        report.error = Some(format!("setting up the handle: {}", strerror(code)));
        return Ok(report);
    }
    let code = handle.perform();
    report.status = handle.response_code();
    report.dialled = handle.primary_ip();
    drop(handle);
    if code != curl_sys::CURLE_OK {
        let detail = CStr::from_bytes_until_nul(bytes_of(&error_buffer))
            .map(|c| c.to_string_lossy().into_owned())
            .unwrap_or_default();
        report.error = Some(if detail.is_empty() {
            strerror(code)
        } else {
            format!("{}: {detail}", strerror(code))
        });
    }
    Ok(report)
}

/// Why a header cannot be sent as given, `None` when it can: the name must
/// be an RFC 9110 `token`, the value non-empty with no CR, LF or NUL (a
/// line break would let the value start a header, or a request, of its
/// own).
fn bad_header(name: &str, value: &str) -> Option<&'static str> {
    let tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if name.is_empty() || !name.bytes().all(tchar) {
        Some("the name is not an HTTP token")
    } else if value.trim().is_empty() {
        Some("an empty value (libcurl would remove the header instead)")
    } else if value.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0)) {
        Some("the value holds CR, LF or NUL")
    } else {
        None
    }
}

/// The address a host stands for: an IP address (IPv6 in brackets, as the
/// URL API reports it; a zone id is not part of it), or a mapped name.
fn target_of(host: &str, hosts: &[(&str, IpAddr)]) -> Option<IpAddr> {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Some(ip);
    }
    let key = host.strip_suffix('.').unwrap_or(host);
    hosts.iter().find_map(|(name, ip)| {
        let name = name.strip_suffix('.').unwrap_or(name);
        name.eq_ignore_ascii_case(key).then_some(*ip)
    })
}

fn bracketed(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// `curl_global_init`, once: it is not thread-safe, and `curl_easy_init`
/// would call it on first use from whichever thread comes first.
fn global_init() {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        // SAFETY: called once for the process (the Once), before any easy
        // handle of this crate exists; CURL_GLOBAL_ALL is a valid flag set.
        // Its result is not needed: a failure makes curl_easy_init fail.
        let _ = unsafe { curl_sys::curl_global_init(curl_sys::CURL_GLOBAL_ALL) };
    });
}

fn strerror(code: CURLcode) -> String {
    // SAFETY: curl_easy_strerror accepts any code and returns a static
    // NUL-terminated string (never NULL in curl 8.22, checked anyway).
    let text = unsafe { curl_sys::curl_easy_strerror(code) };
    if text.is_null() {
        return format!("CURLcode {code}");
    }
    // SAFETY: non-null, NUL-terminated and static (above).
    let text = unsafe { CStr::from_ptr(text) };
    text.to_string_lossy().into_owned()
}

fn bytes_of(buffer: &[c_char]) -> &[u8] {
    // SAFETY: c_char and u8 have the same size and alignment, every bit
    // pattern is valid for both, and the new slice covers exactly the same
    // memory for the same lifetime.
    unsafe { std::slice::from_raw_parts(buffer.as_ptr().cast::<u8>(), buffer.len()) }
}

/// What the open-socket callback decides with and records.
#[derive(Debug)]
struct Guard {
    port: u16,
    dialled: Option<IpAddr>,
    refused: Option<String>,
}

impl Guard {
    /// Rule 3: may libcurl connect to `address`?
    fn allow(&mut self, address: Option<SocketAddr>) -> bool {
        let Some(address) = address else {
            self.refused = Some("not an IPv4 or IPv6 socket address".to_owned());
            return false;
        };
        if !is_loopback(address.ip()) {
            self.refused = Some(format!("{} is not a loopback address", address.ip()));
            return false;
        }
        if address.port() != self.port {
            self.refused = Some(format!(
                "port {} is not the trap's port {}",
                address.port(),
                self.port
            ));
            return false;
        }
        self.dialled = Some(address.ip());
        true
    }
}

/// `AF_INET` and `AF_INET6` socket addresses, from the bytes of a
/// `sockaddr_in` or `sockaddr_in6` (network byte order for the port and
/// address, the family in the platform's own layout: read by `libc`).
fn socket_address(family: c_int, bytes: &[u8]) -> Option<SocketAddr> {
    let port =
        |b: &[u8]| -> Option<u16> { Some(u16::from_be_bytes(b.get(2..4)?.try_into().ok()?)) };
    if family == libc::AF_INET {
        let octets: [u8; 4] = bytes.get(4..8)?.try_into().ok()?;
        Some(SocketAddr::new(Ipv4Addr::from(octets).into(), port(bytes)?))
    } else if family == libc::AF_INET6 {
        let octets: [u8; 16] = bytes.get(8..24)?.try_into().ok()?;
        Some(SocketAddr::new(Ipv6Addr::from(octets).into(), port(bytes)?))
    } else {
        None
    }
}

/// `CURLOPT_OPENSOCKETFUNCTION`: opens the socket only when the guard
/// allows the address.
extern "C" fn open_socket(
    clientp: *mut c_void,
    purpose: curl_sys::curlsocktype,
    address: *mut curl_sockaddr,
) -> curl_socket_t {
    if clientp.is_null() || address.is_null() || purpose != curl_sys::CURLSOCKTYPE_IPCXN {
        return curl_sys::CURL_SOCKET_BAD;
    }
    // SAFETY: `clientp` is the `&mut Guard` set with CURLOPT_OPENSOCKETDATA
    // in `fetch`, which outlives the handle; libcurl calls this callback
    // only from curl_easy_perform on the thread running `fetch`, which
    // touches the guard only after perform returns, so this is the only
    // reference to it while it lives.
    let guard = unsafe { &mut *clientp.cast::<Guard>() };
    // SAFETY: `address` is non-null and points to the curl_sockaddr that
    // libcurl passes for this call (valid for reading for the call).
    let sockaddr = unsafe { &*address };
    // libcurl allocates room for a whole sockaddr_storage behind `addr`
    // (`struct Curl_sockaddr_ex`), and `addrlen` says how much of it is the
    // address: never more than that, nor more than sockaddr_in6, is read.
    let length = usize::try_from(sockaddr.addrlen)
        .unwrap_or(0)
        .min(std::mem::size_of::<libc::sockaddr_in6>());
    let start = ptr::addr_of!(sockaddr.addr).cast::<u8>();
    // SAFETY: `start` points to the address bytes libcurl filled in, of
    // which `length` (at most `addrlen`) are initialised and readable for
    // the duration of this call; the slice is dropped before it returns.
    let bytes = unsafe { std::slice::from_raw_parts(start, length) };
    if !guard.allow(socket_address(sockaddr.family, bytes)) {
        return curl_sys::CURL_SOCKET_BAD;
    }
    // SAFETY: socket(2) with the family, type and protocol libcurl asks
    // for; it takes no pointers. libcurl owns and closes the descriptor.
    let fd = unsafe { libc::socket(sockaddr.family, sockaddr.socktype, sockaddr.protocol) };
    if fd < 0 {
        curl_sys::CURL_SOCKET_BAD
    } else {
        fd
    }
}

/// `CURLOPT_WRITEFUNCTION`: the body is not needed; everything is taken.
extern "C" fn discard(_data: *mut c_char, size: usize, count: usize, _user: *mut c_void) -> usize {
    size.saturating_mul(count)
}

/// An easy handle, cleaned up on drop.
struct Easy {
    /// Invariant: returned by curl_easy_init, owned by this value alone,
    /// not yet cleaned up.
    raw: NonNull<CURL>,
}

impl Easy {
    fn new() -> Option<Easy> {
        // SAFETY: no precondition (curl_global_init ran); returns a new
        // handle the caller owns, or NULL.
        let raw = unsafe { curl_sys::curl_easy_init() };
        NonNull::new(raw).map(|raw| Easy { raw })
    }

    /// Sets a `long` option.
    fn set_long(&self, option: CURLoption, value: c_long) -> CURLcode {
        // SAFETY: a live handle owned by `self`; `option` is one whose
        // argument libcurl reads as a `long` (the callers pass only
        // CURLOPTTYPE_LONG options), passed as a c_long.
        unsafe { curl_sys::curl_easy_setopt(self.raw.as_ptr(), option, value) }
    }

    /// Sets a pointer option. The pointee must outlive the handle (the
    /// strings are copied by libcurl, the list, the error buffer and the
    /// callback data are not): `fetch` drops the handle first.
    fn set_ptr(&self, option: CURLoption, value: *const c_void) -> CURLcode {
        // SAFETY: a live handle owned by `self`; the callers pass only
        // options whose argument is a pointer (OBJECTPOINT, STRINGPOINT,
        // SLISTPOINT), each with a pointer of the type libcurl expects
        // (a C string, a curl_slist, a CURL_ERROR_SIZE buffer) that lives
        // until the handle is cleaned up (see above), or NULL for
        // CURLOPT_HTTPHEADER, where it means "no custom headers".
        unsafe { curl_sys::curl_easy_setopt(self.raw.as_ptr(), option, value) }
    }

    fn set_write_discard(&self) -> CURLcode {
        let callback: curl_sys::curl_write_callback = discard;
        // SAFETY: a live handle owned by `self`; CURLOPT_WRITEFUNCTION takes
        // a curl_write_callback, which `discard` is; it ignores its
        // pointers, so no CURLOPT_WRITEDATA is needed.
        unsafe {
            curl_sys::curl_easy_setopt(self.raw.as_ptr(), curl_sys::CURLOPT_WRITEFUNCTION, callback)
        }
    }

    fn set_open_socket(&self, guard: &mut Guard) -> CURLcode {
        let callback: curl_sys::curl_opensocket_callback = open_socket;
        let data: *mut Guard = guard;
        // SAFETY: a live handle owned by `self`; CURLOPT_OPENSOCKETDATA
        // takes a `void *` that libcurl hands back to the callback; the
        // guard outlives the handle (`fetch` drops the handle first).
        let code = unsafe {
            curl_sys::curl_easy_setopt(
                self.raw.as_ptr(),
                curl_sys::CURLOPT_OPENSOCKETDATA,
                data.cast::<c_void>(),
            )
        };
        if code != curl_sys::CURLE_OK {
            return code;
        }
        // SAFETY: as above; CURLOPT_OPENSOCKETFUNCTION takes a
        // curl_opensocket_callback, which `open_socket` is.
        unsafe {
            curl_sys::curl_easy_setopt(
                self.raw.as_ptr(),
                curl_sys::CURLOPT_OPENSOCKETFUNCTION,
                callback,
            )
        }
    }

    fn perform(&self) -> CURLcode {
        // SAFETY: a live handle owned by `self`, used from this thread
        // only; every pointer set on it is alive (see set_ptr).
        unsafe { curl_sys::curl_easy_perform(self.raw.as_ptr()) }
    }

    /// The response's status code, `None` when no response came.
    fn response_code(&self) -> Option<u16> {
        let mut code: c_long = 0;
        // SAFETY: a live handle owned by `self`; CURLINFO_RESPONSE_CODE
        // writes a `long` through the pointer, which points to `code`.
        let result = unsafe {
            curl_sys::curl_easy_getinfo(
                self.raw.as_ptr(),
                curl_sys::CURLINFO_RESPONSE_CODE,
                &mut code as *mut c_long,
            )
        };
        if result != curl_sys::CURLE_OK || code == 0 {
            return None;
        }
        u16::try_from(code).ok()
    }

    /// The address of the last connection (`CURLINFO_PRIMARY_IP`), when
    /// there was one.
    fn primary_ip(&self) -> Option<IpAddr> {
        let mut text: *const c_char = ptr::null();
        // SAFETY: a live handle owned by `self`; CURLINFO_PRIMARY_IP writes
        // a `char *` through the pointer, which points to `text`. The string
        // it points to is owned by the handle and read before the handle
        // goes (this borrow of `self`).
        let result = unsafe {
            curl_sys::curl_easy_getinfo(
                self.raw.as_ptr(),
                curl_sys::CURLINFO_PRIMARY_IP,
                &mut text as *mut *const c_char,
            )
        };
        if result != curl_sys::CURLE_OK || text.is_null() {
            return None;
        }
        // SAFETY: non-null, NUL-terminated, owned by the live handle.
        let text = unsafe { CStr::from_ptr(text) };
        text.to_str().ok()?.parse().ok()
    }
}

impl Drop for Easy {
    fn drop(&mut self) {
        // SAFETY: the handle came from curl_easy_init, is owned by this
        // value alone and is cleaned up exactly once, here.
        unsafe { curl_sys::curl_easy_cleanup(self.raw.as_ptr()) }
    }
}

/// A `curl_slist` of owned strings, freed on drop.
struct SList {
    /// Invariant: NULL (empty) or a list built by curl_slist_append, owned
    /// by this value alone.
    raw: *mut curl_slist,
}

impl SList {
    /// The list, `None` when libcurl is out of memory.
    fn new(entries: &[CString]) -> Option<SList> {
        let mut list = SList {
            raw: ptr::null_mut(),
        };
        for text in entries {
            // SAFETY: `list.raw` is NULL or a list from curl_slist_append
            // (the invariant); `text` is a NUL-terminated string that
            // curl_slist_append copies. It returns the new head, or NULL
            // on failure, leaving the old list untouched.
            let head = unsafe { curl_sys::curl_slist_append(list.raw, text.as_ptr()) };
            if head.is_null() {
                return None;
            }
            list.raw = head;
        }
        Some(list)
    }

    fn as_ptr(&self) -> *const curl_slist {
        self.raw
    }
}

impl Drop for SList {
    fn drop(&mut self) {
        // SAFETY: NULL (a no-op) or a list this value owns alone, freed
        // once, after the handle that used it was cleaned up.
        unsafe { curl_sys::curl_slist_free_all(self.raw) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_is_127_slash_8_and_ipv6_one_and_mapped() {
        for yes in ["127.0.0.1", "127.255.255.254", "::1", "::ffff:127.0.0.3"] {
            assert!(is_loopback(yes.parse().unwrap()), "{yes}");
        }
        for no in [
            "0.0.0.0",
            "::",
            "128.0.0.1",
            "192.0.2.1",
            "169.254.169.254",
            "::ffff:192.0.2.1",
            "::127.0.0.1",
            "fe80::1",
        ] {
            assert!(!is_loopback(no.parse().unwrap()), "{no}");
        }
    }

    #[test]
    fn targets_are_addresses_or_mapped_names() {
        let lo: IpAddr = "127.0.0.3".parse().unwrap();
        let hosts = [("Evil.Example.", lo)];
        assert_eq!(target_of("127.0.0.3", &[]), Some(lo));
        assert_eq!(target_of("[::1]", &[]), Some("::1".parse().unwrap()));
        assert_eq!(target_of("evil.example", &hosts), Some(lo));
        assert_eq!(target_of("EVIL.example.", &hosts), Some(lo));
        assert_eq!(target_of("evil.example..", &hosts), None);
        assert_eq!(target_of("other.example", &hosts), None);
    }

    #[test]
    fn headers_are_tokens_with_one_line_values() {
        assert_eq!(bad_header("X-Uridiff-Token", "00ff"), None);
        assert_eq!(bad_header("a!#$%&'*+-.^_`|~9", "v w"), None);
        for (name, value) in [
            ("", "v"),
            ("X Token", "v"),
            ("X:Token", "v"),
            ("X-T\u{e9}", "v"),
            ("X", ""),
            ("X", " "),
            ("X", "a\r\nHost: other"),
            ("X", "a\nb"),
            ("X", "a\0"),
        ] {
            assert!(bad_header(name, value).is_some(), "{name:?}: {value:?}");
        }
    }

    #[test]
    fn the_guard_wants_loopback_on_its_port() {
        let mut guard = Guard {
            port: 8080,
            dialled: None,
            refused: None,
        };
        assert!(!guard.allow(Some("192.0.2.1:8080".parse().unwrap())));
        assert!(guard.refused.take().unwrap().contains("not a loopback"));
        assert!(!guard.allow(Some("127.0.0.1:80".parse().unwrap())));
        assert!(guard.refused.take().unwrap().contains("port 80"));
        assert!(!guard.allow(None));
        assert_eq!(guard.dialled, None);
        assert!(guard.allow(Some("[::1]:8080".parse().unwrap())));
        assert_eq!(guard.dialled, Some("::1".parse().unwrap()));
    }
}
