//! [`DnsTrap`]: a DNS server on loopback that records every name it is
//! asked for and answers from a fixed map, or with NXDOMAIN.
//!
//! Inside `uridiff fetch`'s namespace it is the only name server
//! (`/etc/resolv.conf`, [`super::netns::Names`]), so the name a client
//! hands its resolver is observed as the resolver sends it (after the
//! client's IDNA, its case, its trailing dot), and a name the map lacks
//! fails at once instead of waiting for a server that cannot be reached.
//!
//! UDP only (a query is a few dozen bytes and the answers here never need
//! truncation, so no resolver falls back to TCP); one question per query,
//! as every stub resolver sends.

use std::io;
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// How often the server looks at its stop flag.
const POLL: Duration = Duration::from_millis(20);

/// Query types answered with an address.
const TYPE_A: u16 = 1;
const TYPE_AAAA: u16 = 28;

/// One question the trap was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// The name, its labels joined with dots (no trailing dot); a byte
    /// that is not printable ASCII, a dot or a backslash inside a label is
    /// written `\DDD` (decimal), as in zone files.
    pub name: String,
    /// The query type (1 A, 28 AAAA, ...).
    pub qtype: u16,
}

/// A DNS server on one loopback address, port 53, answering from a map.
#[derive(Debug)]
pub struct DnsTrap {
    queries: Arc<Mutex<Vec<Query>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl DnsTrap {
    /// Serves on `addr`, port 53. A name in `map` (ASCII case-insensitive)
    /// is answered with its address for A (IPv4) or AAAA (IPv6), and with
    /// no record for the other type; `localhost` gets `::1` for AAAA too;
    /// any other name gets NXDOMAIN.
    ///
    /// # Errors
    /// The bind failed (port 53 needs root, or the namespace's own
    /// capabilities).
    pub fn start(addr: IpAddr, map: &[(String, IpAddr)]) -> io::Result<DnsTrap> {
        let socket = UdpSocket::bind(SocketAddr::new(addr, 53))?;
        socket.set_read_timeout(Some(POLL))?;
        let map: Vec<(String, IpAddr)> = map
            .iter()
            .map(|(name, ip)| (name.to_ascii_lowercase(), *ip))
            .collect();
        let queries = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let queries = Arc::clone(&queries);
            let stop = Arc::clone(&stop);
            thread::Builder::new()
                .name("uridiff-dns-trap".to_owned())
                .spawn(move || serve(&socket, &map, &queries, &stop))?
        };
        Ok(DnsTrap {
            queries,
            stop,
            thread: Some(thread),
        })
    }

    /// The questions asked since the last call, in arrival order.
    pub fn take_queries(&self) -> Vec<Query> {
        std::mem::take(&mut *self.queries.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Drop for DnsTrap {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve(
    socket: &UdpSocket,
    map: &[(String, IpAddr)],
    queries: &Mutex<Vec<Query>>,
    stop: &AtomicBool,
) {
    let mut buf = [0u8; 1500];
    while !stop.load(Ordering::Relaxed) {
        let Ok((n, from)) = socket.recv_from(&mut buf) else {
            continue;
        };
        let Some((query, question_end)) = buf.get(..n).and_then(parse_query) else {
            continue;
        };
        let reply = buf.get(..question_end).map(|head| reply(head, &query, map));
        queries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(query);
        if let Some(reply) = reply {
            let _ = socket.send_to(&reply, from);
        }
    }
}

/// The question of a query, and where it ends; `None` for anything that
/// is not a standard query with one question.
fn parse_query(packet: &[u8]) -> Option<(Query, usize)> {
    let flags = u16::from_be_bytes([*packet.get(2)?, *packet.get(3)?]);
    let qdcount = u16::from_be_bytes([*packet.get(4)?, *packet.get(5)?]);
    // QR = 0 (a query), OPCODE = 0 (standard), one question.
    if flags & 0x8000 != 0 || (flags >> 11) & 0xf != 0 || qdcount != 1 {
        return None;
    }
    let mut at = 12;
    let mut labels: Vec<String> = Vec::new();
    loop {
        let len = usize::from(*packet.get(at)?);
        at += 1;
        if len == 0 {
            break;
        }
        // No compression pointer in a question of a query.
        if len > 63 {
            return None;
        }
        let label = packet.get(at..at + len)?;
        labels.push(label.iter().map(|&b| escaped(b)).collect());
        at += len;
    }
    let qtype = u16::from_be_bytes([*packet.get(at)?, *packet.get(at + 1)?]);
    // QCLASS is not looked at: IN is all anyone asks.
    let end = at + 4;
    packet.get(..end)?;
    Some((
        Query {
            name: labels.join("."),
            qtype,
        },
        end,
    ))
}

fn escaped(b: u8) -> String {
    if b.is_ascii_graphic() && b != b'.' && b != b'\\' {
        char::from(b).to_string()
    } else {
        format!("\\{b:03}")
    }
}

/// The reply to a query whose header and question are `head`.
fn reply(head: &[u8], query: &Query, map: &[(String, IpAddr)]) -> Vec<u8> {
    let key = query.name.to_ascii_lowercase();
    let found = map.iter().find(|(name, _)| *name == key).map(|(_, ip)| *ip);
    let address: Option<Vec<u8>> = match (found, query.qtype) {
        (Some(IpAddr::V4(v4)), TYPE_A) => Some(v4.octets().to_vec()),
        (Some(IpAddr::V6(v6)), TYPE_AAAA) => Some(v6.octets().to_vec()),
        (Some(_), TYPE_AAAA) if key == "localhost" => {
            Some(std::net::Ipv6Addr::LOCALHOST.octets().to_vec())
        }
        _ => None,
    };
    let mut out = head.to_vec();
    // QR, the query's opcode and RD kept, RA; RCODE 3 (NXDOMAIN) for a
    // name the map lacks, else 0.
    let rd = head.get(2).copied().unwrap_or(0) & 0x01;
    let rcode = if found.is_some() { 0 } else { 3 };
    if let Some(b) = out.get_mut(2) {
        *b = 0x80 | 0x04 | rd;
    }
    if let Some(b) = out.get_mut(3) {
        *b = 0x80 | rcode;
    }
    // ANCOUNT, NSCOUNT, ARCOUNT.
    let ancount: u16 = if address.is_some() { 1 } else { 0 };
    for (i, value) in [(6, ancount), (8, 0), (10, 0)] {
        for (j, byte) in value.to_be_bytes().into_iter().enumerate() {
            if let Some(b) = out.get_mut(i + j) {
                *b = byte;
            }
        }
    }
    if let Some(address) = address {
        // The name as a pointer to the question's (offset 12), the type,
        // class IN, a TTL of 0 (nothing is cached), the address.
        out.extend_from_slice(&[0xc0, 12]);
        out.extend_from_slice(&query.qtype.to_be_bytes());
        out.extend_from_slice(&[0, 1, 0, 0, 0, 0]);
        out.extend_from_slice(&u16::try_from(address.len()).unwrap_or(0).to_be_bytes());
        out.extend_from_slice(&address);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(name: &[&[u8]], qtype: u16) -> Vec<u8> {
        let mut q = vec![0xab, 0xcd, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0];
        for label in name {
            q.push(u8::try_from(label.len()).unwrap());
            q.extend_from_slice(label);
        }
        q.push(0);
        q.extend_from_slice(&qtype.to_be_bytes());
        q.extend_from_slice(&[0, 1]);
        q
    }

    #[test]
    fn questions_are_read_and_answered_from_the_map() {
        let map = [("evil.example".to_owned(), "127.0.0.2".parse().unwrap())];
        let packet = query(&[b"EVIL", b"example"], TYPE_A);
        let (q, end) = parse_query(&packet).unwrap();
        assert_eq!(
            (q.name.as_str(), q.qtype, end),
            ("EVIL.example", 1, packet.len())
        );
        let answer = reply(&packet, &q, &map);
        assert_eq!(&answer[..2], &[0xab, 0xcd]);
        assert_eq!(answer[3] & 0x0f, 0, "NOERROR");
        assert_eq!(&answer[6..8], &[0, 1], "one answer");
        assert_eq!(&answer[answer.len() - 4..], &[127, 0, 0, 2]);
        // AAAA of an IPv4-only name: NOERROR, no record.
        let packet = query(&[b"evil", b"example"], TYPE_AAAA);
        let (q, _) = parse_query(&packet).unwrap();
        let answer = reply(&packet, &q, &map);
        assert_eq!((answer[3] & 0x0f, &answer[6..8]), (0, &[0u8, 0][..]));
        // Unmapped: NXDOMAIN.
        let packet = query(&[b"x\x00y", b"invalid"], TYPE_A);
        let (q, _) = parse_query(&packet).unwrap();
        assert_eq!(q.name, "x\\000y.invalid");
        assert_eq!(reply(&packet, &q, &map)[3] & 0x0f, 3);
        // A response, or two questions: not a query to answer.
        let mut response = query(&[b"a"], TYPE_A);
        response[2] |= 0x80;
        assert!(parse_query(&response).is_none());
        assert!(parse_query(&[0; 5]).is_none());
    }
}
