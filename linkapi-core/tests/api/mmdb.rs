//! Writes a small MaxMind-format database (format 2.0, IPv4, 24-bit records) mapping IPv4
//! networks to countries, for tests of visit countries: the same file format GeoLite2 and
//! GeoIP2 Country come in, read by the same reader the server uses.

use std::net::Ipv4Addr;

/// A record of the search tree.
#[derive(Clone, Copy)]
enum Record {
    Empty,
    Node(usize),
    Data(usize),
}

/// The database's bytes: each `(network, prefix length, country)` answers
/// `{"country": {"iso_code": country}}`.
pub fn country_database(networks: &[(Ipv4Addr, u8, &str)]) -> Vec<u8> {
    let mut data = Vec::new();
    let mut nodes: Vec<[Record; 2]> = vec![[Record::Empty; 2]];
    for (network, prefix, country) in networks {
        let offset = data.len();
        map(&mut data, 1);
        string(&mut data, "country");
        map(&mut data, 1);
        string(&mut data, "iso_code");
        string(&mut data, country);
        let bits = u32::from(*network);
        let mut node = 0;
        for depth in 0..*prefix {
            let bit = ((bits >> (31 - depth)) & 1) as usize;
            if depth + 1 == *prefix {
                nodes[node][bit] = Record::Data(offset);
            } else {
                node = match nodes[node][bit] {
                    Record::Node(next) => next,
                    _ => {
                        nodes.push([Record::Empty; 2]);
                        let next = nodes.len() - 1;
                        nodes[node][bit] = Record::Node(next);
                        next
                    }
                };
            }
        }
    }
    let count = nodes.len();
    let mut out = Vec::new();
    for pair in &nodes {
        for record in pair {
            let value = match record {
                Record::Empty => count,
                Record::Node(next) => *next,
                Record::Data(offset) => count + 16 + offset,
            };
            out.extend_from_slice(&(value as u32).to_be_bytes()[1..]);
        }
    }
    out.extend_from_slice(&[0; 16]);
    out.extend_from_slice(&data);
    out.extend_from_slice(b"\xAB\xCD\xEFMaxMind.com");
    map(&mut out, 9);
    string(&mut out, "node_count");
    unsigned(&mut out, 6, count as u64);
    string(&mut out, "record_size");
    unsigned(&mut out, 5, 24);
    string(&mut out, "ip_version");
    unsigned(&mut out, 5, 4);
    string(&mut out, "database_type");
    string(&mut out, "linkapi-test-country");
    string(&mut out, "languages");
    out.extend_from_slice(&[1, 4]); // an array (extended type 11) of one
    string(&mut out, "en");
    string(&mut out, "binary_format_major_version");
    unsigned(&mut out, 5, 2);
    string(&mut out, "binary_format_minor_version");
    unsigned(&mut out, 5, 0);
    string(&mut out, "build_epoch");
    // uint64 is extended type 9: a control byte of type 0, then 9 - 7.
    out.extend_from_slice(&[8, 2]);
    out.extend_from_slice(&1_800_000_000_u64.to_be_bytes());
    string(&mut out, "description");
    map(&mut out, 1);
    string(&mut out, "en");
    string(&mut out, "countries for tests");
    out
}

fn map(out: &mut Vec<u8>, entries: u8) {
    out.push((7 << 5) | entries);
}

fn string(out: &mut Vec<u8>, text: &str) {
    assert!(text.len() < 29, "short strings only");
    out.push((2 << 5) | text.len() as u8);
    out.extend_from_slice(text.as_bytes());
}

/// An unsigned integer of type `kind` (5: uint16, 6: uint32) in as few bytes as it needs.
fn unsigned(out: &mut Vec<u8>, kind: u8, value: u64) {
    let bytes = value.to_be_bytes();
    let skip = bytes.iter().take_while(|b| **b == 0).count();
    out.push((kind << 5) | (8 - skip) as u8);
    out.extend_from_slice(&bytes[skip..]);
}
