//! The address rules every client obeys: which addresses may be dialled,
//! and which address a host name stands for.

use std::net::IpAddr;

/// Is `ip` one that may be dialled: 127.0.0.0/8, `::1`, or an IPv4-mapped
/// 127.0.0.0/8 (`::ffff:127.0.0.1`, which the kernel routes to IPv4
/// loopback)? `0.0.0.0` and `::` are not: connecting to them reaches the
/// local host too, but through every interface's listeners.
pub fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// The address `host` is mapped to in `hosts`: names compared ASCII
/// case-insensitively, one trailing dot ignored on either side.
pub fn mapped(host: &str, hosts: &[(&str, IpAddr)]) -> Option<IpAddr> {
    let key = host.strip_suffix('.').unwrap_or(host);
    hosts.iter().find_map(|(name, ip)| {
        let name = name.strip_suffix('.').unwrap_or(name);
        name.eq_ignore_ascii_case(key).then_some(*ip)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn loopback_is_127_slash_8_and_ipv6_one_and_mapped() {
        for yes in [
            "127.0.0.1",
            "127.0.0.3",
            "127.255.255.254",
            "::1",
            "::ffff:127.0.0.3",
        ] {
            assert!(is_loopback(ip(yes)), "{yes}");
        }
        for no in [
            "0.0.0.0",
            "::",
            "126.255.255.255",
            "128.0.0.1",
            "192.0.2.1",
            "10.0.0.1",
            "169.254.169.254",
            "::ffff:192.0.2.1",
            "::ffff:0.0.0.0",
            // IPv4-compatible (deprecated), not mapped: not loopback.
            "::127.0.0.1",
            "::2",
            "fe80::1",
            "2001:db8::1",
        ] {
            assert!(!is_loopback(ip(no)), "{no}");
        }
    }

    #[test]
    fn names_map_case_insensitively_with_one_trailing_dot() {
        let three = ip("127.0.0.3");
        let hosts = [("Evil.Example", three), ("other.", ip("::1"))];
        assert_eq!(mapped("evil.example", &hosts), Some(three));
        assert_eq!(mapped("EVIL.EXAMPLE.", &hosts), Some(three));
        assert_eq!(mapped("other", &hosts), Some(ip("::1")));
        assert_eq!(mapped("other.", &hosts), Some(ip("::1")));
        assert_eq!(mapped("evil.example..", &hosts), None);
        assert_eq!(mapped("evil.exampl", &hosts), None);
        assert_eq!(mapped("", &hosts), None);
        // Only ASCII folds: a Kelvin sign is no `k`.
        assert_eq!(mapped("\u{212a}", &[("k", three)]), None);
    }
}
