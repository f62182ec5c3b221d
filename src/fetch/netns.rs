//! The namespace `uridiff fetch` runs its clients in: a network namespace
//! whose only interface is `lo`, and a mount namespace in which
//! `/etc/hosts`, `/etc/resolv.conf` and `/etc/nsswitch.conf` are uridiff's
//! own files (bind mounts), naming the traps.
//!
//! [`enter`] must run before the process has a second thread: the kernel
//! refuses `CLONE_NEWNS` in a multithreaded process, and a network
//! namespace entered by one thread would not be its siblings'. Every child
//! process (the clients) inherits both namespaces. Nothing is left behind:
//! the namespaces, and the mounts in them, end with the last process in
//! them; [`Names`] unmounts and removes its files when dropped anyway.
//!
//! In the namespace, a connection to any address but loopback fails with
//! `ENETUNREACH` (no route: no interface but `lo`), so neither a client nor
//! a DNS query can leave; [`isolation`] checks this before any client runs.

use std::fs;
use std::io::{self, ErrorKind};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use rustix::mount::{self, MountPropagationFlags, UnmountFlags};
use rustix::thread::UnshareFlags;

/// The address of the DNS trap inside the namespace (what the private
/// `/etc/resolv.conf` names).
pub const DNS_ADDR: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 53));

/// The address [`isolation`] tries to reach: TEST-NET-1 (RFC 5737), never
/// routed on the Internet, so that even a broken namespace sends nothing to
/// anyone.
const PROBE: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)), 9);

/// Enters new network and mount namespaces, makes every mount private to
/// the new mount namespace (so the bind mounts of [`Names`] are seen by
/// this process and its children only) and brings `lo` up.
///
/// # Errors
/// Not root (or `unshare` refused: a container without `CAP_SYS_ADMIN`),
/// or `ip` (iproute2) missing or failing; the message says which. Once
/// `unshare` succeeded, an error leaves the process in a namespace without
/// a network: the caller must not go on as if it were outside.
pub fn enter() -> Result<(), String> {
    // Checked first: without `ip`, `lo` stays down and nothing, not even
    // the traps, can be reached.
    let ip = find_ip().ok_or_else(|| {
        "ip (iproute2) is not installed; install it: apt-get install iproute2".to_owned()
    })?;
    // The deprecated safe `unshare` is sound for these flags: rustix
    // deprecated it for `CLONE_FILES`, which splits the descriptor table
    // between threads; NEWNET and NEWNS (which implies CLONE_FS) split
    // nothing a thread of this process holds, and there is only one.
    #[allow(deprecated)]
    rustix::thread::unshare(UnshareFlags::NEWNET | UnshareFlags::NEWNS)
        .map_err(|e| format!("unshare(CLONE_NEWNET | CLONE_NEWNS) refused: {e}"))?;
    mount::mount_change(
        "/",
        MountPropagationFlags::PRIVATE | MountPropagationFlags::REC,
    )
    .map_err(|e| format!("making the mounts private to the namespace: {e}"))?;
    let status = Command::new(&ip)
        .args(["link", "set", "lo", "up"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("running {}: {e}", ip.display()))?;
    if !status.success() {
        return Err(format!("{} link set lo up: {status}", ip.display()));
    }
    Ok(())
}

/// `ip` on `PATH`, or in `/usr/sbin` and `/sbin`, which a non-login `PATH`
/// may lack.
fn find_ip() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin"].map(PathBuf::from))
        .map(|dir| dir.join("ip"))
        .find(|candidate| candidate.is_file())
}

/// What [`isolation`] saw.
#[derive(Debug)]
pub struct Isolation {
    /// The network interfaces of this process's namespace
    /// (`/proc/self/net/dev`).
    pub interfaces: Vec<String>,
    /// The error of a TCP connect to 192.0.2.1 (TEST-NET-1), or `None` if
    /// it connected.
    pub tcp_probe: Option<io::Error>,
    /// The error of a UDP send to 192.0.2.1, port 53 (what a DNS query to
    /// a non-loopback server would be), or `None` if it was sent.
    pub udp_probe: Option<io::Error>,
}

impl Isolation {
    /// Only `lo`, and both probes unreachable (`ENETUNREACH`).
    pub fn holds(&self) -> bool {
        let unreachable = |e: &Option<io::Error>| {
            e.as_ref()
                .is_some_and(|e| e.kind() == ErrorKind::NetworkUnreachable)
        };
        self.interfaces == ["lo"] && unreachable(&self.tcp_probe) && unreachable(&self.udp_probe)
    }
}

/// Looks at this process's network: its interfaces, and whether a
/// non-loopback address can be reached.
pub fn isolation() -> Isolation {
    let interfaces = fs::read_to_string("/proc/self/net/dev")
        .map(|text| {
            text.lines()
                .skip(2)
                .filter_map(|line| line.split_once(':').map(|(name, _)| name.trim().to_owned()))
                .collect()
        })
        .unwrap_or_default();
    let tcp_probe = TcpStream::connect_timeout(&PROBE, Duration::from_secs(2)).err();
    let udp_probe = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|socket| socket.send_to(b"", SocketAddr::new(PROBE.ip(), 53)))
        .err();
    Isolation {
        interfaces,
        tcp_probe,
        udp_probe,
    }
}

/// The name files in force while it lives: uridiff's `/etc/hosts`,
/// `/etc/resolv.conf` and `/etc/nsswitch.conf`, bind-mounted over the
/// system's in this process's mount namespace.
#[derive(Debug)]
pub struct Names {
    dir: Option<tempfile::TempDir>,
    mounted: Vec<PathBuf>,
}

impl Names {
    /// Writes the three files and mounts them:
    ///
    /// - `/etc/hosts`: `localhost` and every name of `map` with its address
    ///   (what a resolver that reads only files finds);
    /// - `/etc/resolv.conf`: the DNS trap at [`DNS_ADDR`] as the only
    ///   server, no search list, one attempt of one second;
    /// - `/etc/nsswitch.conf`, when the system has one: its `hosts` line
    ///   made `hosts: dns files`, so that glibc (and Go, which reads it)
    ///   ask the DNS trap first and the name a client resolves is observed
    ///   ([`super::DnsTrap`] answers from the same map);
    /// - nscd's socket directory, when there is one: hidden under an empty
    ///   directory (glibc would ask a running nscd first).
    ///
    /// # Errors
    /// Writing the files or a mount failed (what is mounted is unmounted).
    pub fn install(map: &[(String, IpAddr)]) -> Result<Names, String> {
        let dir = tempfile::Builder::new()
            .prefix("uridiff-names-")
            .tempdir()
            .map_err(|e| format!("a directory for the name files: {e}"))?;
        let mut hosts = String::from(
            "# uridiff fetch: names inside its network namespace\n127.0.0.1\tlocalhost\n::1\tlocalhost\n",
        );
        for (name, ip) in map {
            if name != "localhost" && !name.contains(char::is_whitespace) && !name.contains('#') {
                hosts.push_str(&format!("{ip}\t{name}\n"));
            }
        }
        let files = [
            ("hosts", hosts),
            (
                "resolv.conf",
                format!("nameserver {DNS_ADDR}\noptions timeout:1 attempts:1\n"),
            ),
            ("nsswitch.conf", nsswitch()),
        ];
        let mut names = Names {
            dir: None,
            mounted: Vec::new(),
        };
        for (file, text) in &files {
            let source = dir.path().join(file);
            fs::write(&source, text).map_err(|e| format!("writing {}: {e}", source.display()))?;
            let target = Path::new("/etc").join(file);
            if *file == "nsswitch.conf" && !target.exists() {
                // glibc's default without the file asks DNS first already.
                continue;
            }
            mount::mount_bind(&source, &target).map_err(|e| {
                format!(
                    "bind-mounting {} over {}: {e}",
                    source.display(),
                    target.display()
                )
            })?;
            names.mounted.push(target);
        }
        // glibc asks a running nscd before nsswitch.conf, over a socket
        // in the file system this namespace shares with the host: an
        // empty directory over nscd's hides it, so that no name reaches a
        // resolver outside.
        let empty = dir.path().join("empty");
        fs::create_dir(&empty).map_err(|e| format!("creating {}: {e}", empty.display()))?;
        let mut hidden: Vec<PathBuf> = Vec::new();
        for nscd in ["/run/nscd", "/var/run/nscd"] {
            let Ok(real) = fs::canonicalize(nscd) else {
                continue;
            };
            if !real.is_dir() || hidden.contains(&real) {
                continue;
            }
            mount::mount_bind(&empty, &real)
                .map_err(|e| format!("hiding {}: {e}", real.display()))?;
            names.mounted.push(real.clone());
            hidden.push(real);
        }
        names.dir = Some(dir);
        Ok(names)
    }
}

/// The system's nsswitch.conf with its `hosts` line replaced by
/// `hosts: dns files` (every other database as the system has it: Java
/// and Ruby look up users).
fn nsswitch() -> String {
    let system = fs::read_to_string("/etc/nsswitch.conf").unwrap_or_default();
    let mut out: String = system
        .lines()
        .filter(|line| !line.trim_start().starts_with("hosts:"))
        .map(|line| format!("{line}\n"))
        .collect();
    out.push_str(
        "# uridiff fetch: the DNS trap first, so that it sees every name\nhosts: dns files\n",
    );
    out
}

impl Drop for Names {
    fn drop(&mut self) {
        // Unmounted first: a mounted file cannot be removed (EBUSY).
        for target in self.mounted.drain(..).rev() {
            let _ = mount::unmount(&target, UnmountFlags::DETACH);
        }
        drop(self.dir.take());
    }
}
