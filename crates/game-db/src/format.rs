//! The bytes on disk: tier file headers, block indexes and the manifest.

use std::fmt::Write as _;
use std::path::Path;

use game_core::Tier;

use crate::{Error, RecordWidth, Result};

/// The version of the tier file format this library writes. Version 3
/// writes a block of small remoteness dense (a byte a record, no bitmap);
/// version 2 laid every block out as a presence bitmap, then the values
/// of the records that stand for a position (see the crate docs' block
/// layout). Files of versions 2 and 3 are read; a file of version 1
/// (16- or 32-bit records compressed as they are), or of a version newer
/// than this one, is refused as [`Error::UnsupportedVersion`] naming the
/// version found.
pub const FORMAT_VERSION: u32 = 3;

/// The oldest tier file format this library reads.
const OLDEST_READ_VERSION: u32 = 2;

/// The highest manifest version this library reads and writes. Version 2
/// adds tiers stored as shards (several files, each a contiguous range of
/// the tier's indices); a manifest that lists no sharded tier is still
/// written as version 1, so that databases of whole tiers stay readable by
/// older versions of this library. The `rules-key` line (the rules key's
/// text, after the `rules` line of its hash) is optional in every version:
/// manifests written before it still open; a version of this library older
/// than the line refuses a manifest holding it as damaged.
pub const MANIFEST_VERSION: u32 = 2;

/// The first eight bytes of every tier file.
pub(crate) const MAGIC: [u8; 8] = *b"GSDB\r\n\x1a\n";

/// The codec of the blocks: zstd frames.
pub(crate) const CODEC_ZSTD: u8 = 1;

/// Bytes of the fixed part of a header, before the game name.
pub(crate) const FIXED_HEADER: usize = 68;

/// Bytes of one block index entry: compressed length and checksum.
pub(crate) const INDEX_ENTRY: usize = 8;

/// The largest uncompressed block, in bytes.
pub(crate) const MAX_BLOCK_BYTES: usize = 64 << 20;

/// The longest game name, in bytes.
pub const MAX_NAME_BYTES: usize = 255;

/// The 64-bit FNV-1a hash of `rules`: how a database recognises the rules it
/// was written for. Stable across platforms and versions.
///
/// ```
/// // The published FNV-1a test vectors.
/// assert_eq!(game_db::rules_hash(b""), 0xcbf2_9ce4_8422_2325);
/// assert_eq!(game_db::rules_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
#[must_use]
pub fn rules_hash(rules: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in rules {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Checks that a game name can be stored: 1 to [`MAX_NAME_BYTES`] bytes,
/// no control characters (the manifest keeps it on one line).
pub(crate) fn check_name(name: &str) -> Result<()> {
    let why = if name.is_empty() {
        "empty"
    } else if name.len() > MAX_NAME_BYTES {
        "longer than 255 bytes"
    } else if name.chars().any(char::is_control) {
        "contains a control character"
    } else if name.trim() != name {
        "starts or ends with white space"
    } else {
        return Ok(());
    };
    Err(Error::InvalidName {
        name: name.to_owned(),
        why,
    })
}

/// The header of a tier file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    pub rules_hash: u64,
    pub tier: Tier,
    pub records: u64,
    pub blocks: u64,
    pub index_offset: u64,
    pub index_crc: u32,
    pub block_records: u32,
    pub width: RecordWidth,
    pub game: String,
}

impl Header {
    /// The header's length in bytes, checksum included.
    pub fn len(&self) -> usize {
        FIXED_HEADER + self.game.len() + 4
    }

    /// The header's bytes, checksum last.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.len());
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        b.extend_from_slice(&(self.len() as u32).to_le_bytes());
        b.extend_from_slice(&self.rules_hash.to_le_bytes());
        b.extend_from_slice(&self.tier.to_le_bytes());
        b.extend_from_slice(&self.records.to_le_bytes());
        b.extend_from_slice(&self.blocks.to_le_bytes());
        b.extend_from_slice(&self.index_offset.to_le_bytes());
        b.extend_from_slice(&self.index_crc.to_le_bytes());
        b.extend_from_slice(&self.block_records.to_le_bytes());
        b.push(self.width.bytes() as u8);
        b.push(CODEC_ZSTD);
        b.extend_from_slice(&(self.game.len() as u16).to_le_bytes());
        debug_assert_eq!(b.len(), FIXED_HEADER);
        b.extend_from_slice(self.game.as_bytes());
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    /// The header's length as its first [`FIXED_HEADER`] bytes say, after
    /// checking magic and version (so that a newer format is reported as
    /// such, not as a checksum failure).
    pub fn declared_len(path: &Path, fixed: &[u8]) -> Result<usize> {
        if fixed.len() < FIXED_HEADER || fixed[..8] != MAGIC {
            return Err(Error::BadMagic {
                path: path.to_owned(),
            });
        }
        let version = u32_at(fixed, 8);
        if !(OLDEST_READ_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(Error::UnsupportedVersion {
                path: path.to_owned(),
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let len = u32_at(fixed, 12) as usize;
        let name_len = usize::from(u16::from_le_bytes([fixed[66], fixed[67]]));
        if name_len == 0 || name_len > MAX_NAME_BYTES || len != FIXED_HEADER + name_len + 4 {
            // A damaged length field: the checksum cannot even be located.
            return Err(Error::HeaderChecksum {
                path: path.to_owned(),
            });
        }
        Ok(len)
    }

    /// Parses and checks a whole header (`bytes` is exactly its length).
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Header> {
        let len = Header::declared_len(path, bytes)?;
        debug_assert_eq!(len, bytes.len());
        let (body, crc) = bytes.split_at(len - 4);
        if crc32fast::hash(body) != u32_at(crc, 0) {
            return Err(Error::HeaderChecksum {
                path: path.to_owned(),
            });
        }
        // From here on the bytes are as written: a contradiction is a bug
        // of the writer (or a checksum collision), reported as corruption.
        let width = RecordWidth::from_bytes(usize::from(bytes[64]))
            .ok_or_else(|| Error::corrupt(path, format!("record width {} bytes", bytes[64])))?;
        if bytes[65] != CODEC_ZSTD {
            return Err(Error::corrupt(path, format!("unknown codec {}", bytes[65])));
        }
        let game = std::str::from_utf8(&body[FIXED_HEADER..])
            .map_err(|_| Error::corrupt(path, "game name is not UTF-8"))?
            .to_owned();
        let h = Header {
            rules_hash: u64_at(bytes, 16),
            tier: u64_at(bytes, 24),
            records: u64_at(bytes, 32),
            blocks: u64_at(bytes, 40),
            index_offset: u64_at(bytes, 48),
            index_crc: u32_at(bytes, 56),
            block_records: u32_at(bytes, 60),
            width,
            game,
        };
        if h.block_records == 0
            || u64::from(h.block_records) * h.width.bytes() as u64 > MAX_BLOCK_BYTES as u64
        {
            return Err(Error::corrupt(
                path,
                format!("{} records a block", h.block_records),
            ));
        }
        if h.blocks
            .checked_mul(INDEX_ENTRY as u64)
            .and_then(|n| n.checked_add(h.index_offset))
            .is_none()
        {
            return Err(Error::corrupt(path, "the block index ends past 2^64"));
        }
        if h.blocks != h.records.div_ceil(u64::from(h.block_records)) {
            return Err(Error::corrupt(
                path,
                format!(
                    "{} blocks for {} records of {} a block",
                    h.blocks, h.records, h.block_records
                ),
            ));
        }
        if h.index_offset < len as u64 {
            return Err(Error::corrupt(path, "block index inside the header"));
        }
        Ok(h)
    }

    /// The records of block `block`.
    pub fn records_in(&self, block: u64) -> usize {
        let first = block * u64::from(self.block_records);
        (self.records - first).min(u64::from(self.block_records)) as usize
    }

    /// The file's length: the index ends it.
    pub fn file_len(&self) -> u64 {
        self.index_offset + self.blocks * INDEX_ENTRY as u64
    }
}

pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// What the manifest says about one file of a finished tier: the whole
/// tier, or one shard of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    pub tier: Tier,
    /// `Some(k)` for shard `k` of a sharded tier (file `tier-N.shard-K`).
    pub shard: Option<u32>,
    /// The tier index of the file's first record (0 for a whole tier).
    pub first: u64,
    pub records: u64,
    pub bytes: u64,
    pub header_crc: u32,
    pub file_crc: u32,
}

/// The manifest: the game, its rules and the finished tiers, each as its
/// files in index order (one for a whole tier).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Manifest {
    pub game: String,
    pub rules_hash: u64,
    /// The rules key itself (the bytes `rules_hash` hashes), on its
    /// `rules-key` line; `None` in a manifest written before the line was.
    pub rules_key: Option<Vec<u8>>,
    pub tiers: std::collections::BTreeMap<Tier, Vec<Entry>>,
}

/// Checks that `entries` are one whole-tier file, or shards `0..k` in
/// order covering `0..records` contiguously; `Err` says what is wrong.
pub(crate) fn check_files(entries: &[Entry]) -> std::result::Result<(), String> {
    match entries {
        [] => Err("no files".into()),
        [e] if e.shard.is_none() => {
            if e.first == 0 {
                Ok(())
            } else {
                Err(format!("a whole tier starting at index {}", e.first))
            }
        }
        _ => {
            let mut next = 0u64;
            for (k, e) in entries.iter().enumerate() {
                if e.shard != Some(k as u32) || u32::try_from(k).is_err() {
                    return Err(format!(
                        "file {k} is {}, not shard {k}",
                        e.shard
                            .map_or_else(|| "a whole tier".to_string(), |s| format!("shard {s}"))
                    ));
                }
                if e.first != next {
                    return Err(format!(
                        "shard {k} starts at index {}, not {next} where shard {} ends",
                        e.first,
                        k.saturating_sub(1)
                    ));
                }
                next = next
                    .checked_add(e.records)
                    .ok_or_else(|| format!("shard {k} ends past 2^64"))?;
            }
            Ok(())
        }
    }
}

const MANIFEST_FIRST_LINE: &str = "gamesolve-db manifest";

impl Manifest {
    /// The manifest as text; its last line is a checksum of the others.
    pub fn to_text(&self) -> String {
        let sharded = self.tiers.values().flatten().any(|e| e.shard.is_some());
        let version = if sharded { MANIFEST_VERSION } else { 1 };
        let mut s = format!("{MANIFEST_FIRST_LINE} {version}\n");
        let _ = writeln!(s, "game {}", self.game);
        let _ = writeln!(s, "rules {:016x}", self.rules_hash);
        if let Some(key) = &self.rules_key {
            let _ = writeln!(s, "rules-key {}", escape_key(key));
        }
        for e in self.tiers.values().flatten() {
            let _ = write!(s, "tier {} ", e.tier);
            if let Some(k) = e.shard {
                let _ = write!(s, "shard {k} first {} ", e.first);
            }
            let _ = writeln!(
                s,
                "records {} bytes {} header-crc32 {:08x} file-crc32 {:08x}",
                e.records, e.bytes, e.header_crc, e.file_crc
            );
        }
        let crc = crc32fast::hash(s.as_bytes());
        let _ = writeln!(s, "crc32 {crc:08x}");
        s
    }

    /// Parses [`Manifest::to_text`], checking its checksum.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Manifest> {
        let bad = |fault: &str| Error::corrupt(path, format!("manifest: {fault}"));
        let text = std::str::from_utf8(bytes).map_err(|_| bad("not UTF-8"))?;
        let Some(first) = text.lines().next() else {
            return Err(Error::BadMagic {
                path: path.to_owned(),
            });
        };
        let Some(version) = first.strip_prefix(MANIFEST_FIRST_LINE) else {
            return Err(Error::BadMagic {
                path: path.to_owned(),
            });
        };
        let found: u32 = version.trim().parse().map_err(|_| bad("bad version"))?;
        if !(1..=MANIFEST_VERSION).contains(&found) || version != format!(" {found}") {
            return Err(Error::UnsupportedVersion {
                path: path.to_owned(),
                found,
                supported: MANIFEST_VERSION,
            });
        }
        let body_end = text
            .trim_end_matches('\n')
            .rfind('\n')
            .ok_or_else(|| bad("no checksum line"))?
            + 1;
        let (body, last) = text.split_at(body_end);
        let crc = last
            .strip_prefix("crc32 ")
            .and_then(|s| s.strip_suffix('\n'))
            .and_then(|s| hex(s, 8))
            .and_then(|x| u32::try_from(x).ok())
            .ok_or_else(|| bad("no checksum line"))?;
        if crc != crc32fast::hash(body.as_bytes()) {
            return Err(bad("checksum mismatch"));
        }
        let mut lines = body.lines().skip(1);
        let game = lines
            .next()
            .and_then(|l| l.strip_prefix("game "))
            .ok_or_else(|| bad("no game line"))?
            .to_owned();
        // A name no writer would store: tier headers could not hold it
        // (a name past 65,535 bytes would even be cut in its header).
        if let Err(Error::InvalidName { why, .. }) = check_name(&game) {
            return Err(bad(&format!("the game's name is {why}")));
        }
        let rules_hash = lines
            .next()
            .and_then(|l| l.strip_prefix("rules "))
            .and_then(|s| hex(s, 16))
            .ok_or_else(|| bad("no rules line"))?;
        let mut lines = lines.peekable();
        let rules_key = match lines.peek().and_then(|l| l.strip_prefix("rules-key ")) {
            Some(escaped) => {
                let key = unescape_key(escaped).ok_or_else(|| bad("bad rules-key line"))?;
                lines.next();
                if self::rules_hash(&key) != rules_hash {
                    return Err(bad(&format!(
                        "the rules key hashes to {:016x}, not to the rules line's {rules_hash:016x}",
                        self::rules_hash(&key)
                    )));
                }
                Some(key)
            }
            None => None,
        };
        let mut tiers: std::collections::BTreeMap<Tier, Vec<Entry>> = Default::default();
        for line in lines {
            let e = parse_entry(line)
                .filter(|e| e.shard.is_none() || found >= 2)
                .ok_or_else(|| bad(&format!("bad line {line:?}")))?;
            tiers.entry(e.tier).or_default().push(e);
        }
        for (t, files) in &tiers {
            check_files(files).map_err(|why| bad(&format!("tier {t}: {why}")))?;
        }
        Ok(Manifest {
            game,
            rules_hash,
            rules_key,
            tiers,
        })
    }
}

/// The rules key on one line: printable ASCII but `\` as it is, `\` as
/// `\\` and every other byte (line breaks, control characters, each byte
/// of a non-ASCII character) as `\xNN` in lower-case hexadecimal.
fn escape_key(key: &[u8]) -> String {
    let mut s = String::with_capacity(key.len());
    for &b in key {
        match b {
            b'\\' => s.push_str("\\\\"),
            b' '..=b'~' => s.push(char::from(b)),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s
}

/// The bytes [`escape_key`] wrote as `s`; `None` for any other spelling
/// (so that one key has one line).
fn unescape_key(s: &str) -> Option<Vec<u8>> {
    let mut key = Vec::with_capacity(s.len());
    let mut bytes = s.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'\\' => match bytes.next()? {
                b'\\' => key.push(b'\\'),
                b'x' => {
                    let digits = [bytes.next()?, bytes.next()?];
                    let x = hex(std::str::from_utf8(&digits).ok()?, 2)?;
                    let x = u8::try_from(x).ok()?;
                    // Printable ASCII is written as it is, never escaped.
                    if (b' '..=b'~').contains(&x) {
                        return None;
                    }
                    key.push(x);
                }
                _ => return None,
            },
            b' '..=b'~' => key.push(b),
            _ => return None,
        }
    }
    Some(key)
}

fn parse_entry(line: &str) -> Option<Entry> {
    let mut f: Vec<&str> = line.split(' ').collect();
    // `tier N shard K first F records …`: take the shard's fields out.
    let mut shard = None;
    if f.get(2) == Some(&"shard") && f.get(4) == Some(&"first") {
        let k: u32 = f.get(3)?.parse().ok()?;
        let first: u64 = f.get(5)?.parse().ok()?;
        shard = Some((k, first));
        f.drain(2..6);
    }
    let [("tier", t), ("records", r), ("bytes", b), ("header-crc32", h), ("file-crc32", c)] = [
        (*f.first()?, *f.get(1)?),
        (*f.get(2)?, *f.get(3)?),
        (*f.get(4)?, *f.get(5)?),
        (*f.get(6)?, *f.get(7)?),
        (*f.get(8)?, *f.get(9)?),
    ] else {
        return None;
    };
    if f.len() != 10 {
        return None;
    }
    Some(Entry {
        tier: t.parse().ok()?,
        shard: shard.map(|s| s.0),
        first: shard.map_or(0, |s| s.1),
        records: r.parse().ok()?,
        bytes: b.parse().ok()?,
        header_crc: u32::try_from(hex(h, 8)?).ok()?,
        file_crc: u32::try_from(hex(c, 8)?).ok()?,
    })
}

/// Exactly `digits` lower-case hexadecimal digits, as the manifest writes
/// them (so that no other spelling of a number is taken for it).
fn hex(s: &str, digits: usize) -> Option<u64> {
    let ok = s.len() == digits && s.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
    ok.then(|| u64::from_str_radix(s, 16).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            rules_hash: 0x0123_4567_89ab_cdef,
            tier: 7,
            records: 1000,
            blocks: 4,
            index_offset: 500,
            index_crc: 0xdead_beef,
            block_records: 256,
            width: RecordWidth::Narrow,
            game: "Magic Fingers".into(),
        }
    }

    #[test]
    fn header_round_trip_and_layout() {
        let h = header();
        let b = h.to_bytes();
        assert_eq!(b.len(), FIXED_HEADER + 13 + 4);
        assert_eq!(&b[..8], b"GSDB\r\n\x1a\n");
        assert_eq!(u64_at(&b, 24), 7);
        assert_eq!(Header::parse(Path::new("x"), &b).unwrap(), h);
    }

    #[test]
    fn header_refuses_contradictions() {
        let mut h = header();
        h.blocks = 3;
        let e = Header::parse(Path::new("x"), &h.to_bytes()).unwrap_err();
        assert!(matches!(e, Error::Corrupt { .. }), "{e}");
    }

    #[test]
    fn header_with_a_valid_checksum_but_absurd_sizes_is_refused() {
        // What a crafted file could hold: each is an error, not a panic or
        // a huge allocation.
        let mut h = header();
        (h.records, h.blocks, h.block_records) = (0, 0, u32::MAX);
        assert!(matches!(
            Header::parse(Path::new("x"), &h.to_bytes()),
            Err(Error::Corrupt { .. })
        ));
        let mut h = header();
        (h.records, h.blocks, h.block_records) = (u64::MAX, u64::MAX, 1);
        assert!(matches!(
            Header::parse(Path::new("x"), &h.to_bytes()),
            Err(Error::Corrupt { .. })
        ));
    }

    #[test]
    fn manifest_round_trip_and_checksum() {
        let mut m = Manifest {
            game: "Tic tac toe".into(),
            rules_hash: 42,
            rules_key: None,
            tiers: Default::default(),
        };
        for t in [3u64, 1] {
            m.tiers.insert(
                t,
                vec![Entry {
                    tier: t,
                    shard: None,
                    first: 0,
                    records: t * 10,
                    bytes: 99,
                    header_crc: 1,
                    file_crc: 0xffff_ffff,
                }],
            );
        }
        let text = m.to_text();
        assert!(text.starts_with("gamesolve-db manifest 1\n"));
        assert!(text
            .contains("\ntier 1 records 10 bytes 99 header-crc32 00000001 file-crc32 ffffffff\n"));
        assert_eq!(Manifest::parse(Path::new("m"), text.as_bytes()).unwrap(), m);
        let tampered = text.replace("records 30", "records 31");
        assert!(Manifest::parse(Path::new("m"), tampered.as_bytes()).is_err());
    }

    fn shard(k: u32, first: u64, records: u64) -> Entry {
        Entry {
            tier: 5,
            shard: Some(k),
            first,
            records,
            bytes: 80,
            header_crc: 2,
            file_crc: 3,
        }
    }

    #[test]
    fn sharded_tiers_round_trip_as_version_2() {
        let mut m = Manifest {
            game: "g".into(),
            rules_hash: 1,
            rules_key: None,
            tiers: Default::default(),
        };
        m.tiers
            .insert(5, vec![shard(0, 0, 10), shard(1, 10, 0), shard(2, 10, 7)]);
        let text = m.to_text();
        assert!(text.starts_with("gamesolve-db manifest 2\n"), "{text}");
        assert!(text.contains(
            "\ntier 5 shard 1 first 10 records 0 bytes 80 header-crc32 00000002 file-crc32 00000003\n"
        ));
        assert_eq!(Manifest::parse(Path::new("m"), text.as_bytes()).unwrap(), m);
        // Shard lines in a version-1 manifest, gaps, overlaps and
        // misnumbered shards are refused (a crafted manifest, checksum
        // fixed up).
        let fix = |t: &str| {
            let body = &t[..t.trim_end().rfind('\n').unwrap() + 1];
            format!("{body}crc32 {:08x}\n", crc32fast::hash(body.as_bytes()))
        };
        for bad in [
            text.replacen("manifest 2", "manifest 1", 1),
            text.replace("shard 2 first 10", "shard 2 first 11"),
            text.replace("shard 1 first 10 records 0", "shard 1 first 10 records 1"),
            text.replace("shard 2 first", "shard 3 first"),
            text.replace("shard 0 first 0", "shard 0 first 1"),
        ] {
            let e = Manifest::parse(Path::new("m"), fix(&bad).as_bytes()).unwrap_err();
            assert!(matches!(e, Error::Corrupt { .. }), "{e}");
        }
    }

    /// A manifest (its checksum right) naming a game no tier header can
    /// hold was taken: `Database::open_any` opened it, and every tier then
    /// written failed its own check as a damaged header (`HeaderChecksum`
    /// on a name of 300 bytes; one of 70,000 had its length cut to 16
    /// bits in the header).
    #[test]
    fn a_manifest_naming_an_impossible_game_is_refused() {
        for (name, why) in [
            ("x".repeat(300), "longer than 255 bytes"),
            ("x".repeat(70_000), "longer than 255 bytes"),
            ("tab\there".into(), "contains a control character"),
            ("trailing ".into(), "starts or ends with white space"),
        ] {
            let m = Manifest {
                game: name,
                rules_hash: 1,
                rules_key: None,
                tiers: Default::default(),
            };
            let e = Manifest::parse(Path::new("m"), m.to_text().as_bytes()).unwrap_err();
            assert!(
                matches!(&e, Error::Corrupt { fault, .. } if fault.contains(why)),
                "{e}"
            );
        }
    }

    /// Rewrites `text`'s checksum line for its (altered) body.
    fn fix_checksum(text: &str) -> String {
        let body = &text[..text.trim_end().rfind('\n').unwrap() + 1];
        format!("{body}crc32 {:08x}\n", crc32fast::hash(body.as_bytes()))
    }

    #[test]
    fn the_rules_key_round_trips_on_one_line() {
        for key in [
            &b""[..],
            b"7x6",
            b"width 5 height 5 \\ two\nlines\r\x00",
            "misère ≠ normal".as_bytes(),
            b"\xff\xfe not UTF-8",
            b"trailing space ",
        ] {
            let m = Manifest {
                game: "g".into(),
                rules_hash: rules_hash(key),
                rules_key: Some(key.to_vec()),
                tiers: Default::default(),
            };
            let text = m.to_text();
            // The game, the hash, the key, the checksum: four lines after
            // the first, whatever bytes the key holds.
            assert_eq!(text.lines().count(), 5, "{text:?}");
            let line = text.lines().nth(3).unwrap();
            assert!(line.starts_with("rules-key "), "{text:?}");
            assert!(line.bytes().all(|b| (b' '..=b'~').contains(&b)), "{line:?}");
            assert_eq!(Manifest::parse(Path::new("m"), text.as_bytes()).unwrap(), m);
        }
        let m = Manifest {
            game: "g".into(),
            rules_hash: rules_hash(b"a\\b\n"),
            rules_key: Some(b"a\\b\n".to_vec()),
            tiers: Default::default(),
        };
        assert!(
            m.to_text().contains("\nrules-key a\\\\b\\x0a\n"),
            "{}",
            m.to_text()
        );
    }

    /// A manifest written before the key was recorded (as faults.rs and
    /// older versions of this library write it) still parses, keyless.
    #[test]
    fn a_manifest_without_a_rules_key_still_parses() {
        let body = format!(
            "gamesolve-db manifest 1\ngame g\nrules {:016x}\n\
             tier 0 records 1 bytes 99 header-crc32 00000001 file-crc32 00000002\n",
            rules_hash(b"r")
        );
        let m = Manifest::parse(
            Path::new("m"),
            fix_checksum(&format!("{body}x\n")).as_bytes(),
        )
        .unwrap();
        assert_eq!(m.rules_key, None);
        assert_eq!(m.rules_hash, rules_hash(b"r"));
        assert_eq!(m.tiers.len(), 1);
    }

    /// A key line (checksum right) whose text is not what the rules line
    /// hashes, or spelled other than the writer spells it, is damage.
    #[test]
    fn a_rules_key_contradicting_its_hash_or_misspelled_is_refused() {
        let m = Manifest {
            game: "g".into(),
            rules_hash: rules_hash(b"5x5"),
            rules_key: Some(b"5x5".to_vec()),
            tiers: Default::default(),
        };
        let text = m.to_text();
        for (bad, why) in [
            (text.replace("rules-key 5x5", "rules-key 4x4"), "hashes to"),
            (
                text.replace("rules-key 5x5", "rules-key 5\\x785"),
                "bad rules-key",
            ),
            (
                text.replace("rules-key 5x5", "rules-key 5x5\\"),
                "bad rules-key",
            ),
            (
                text.replace("rules-key 5x5", "rules-key 5x5\\x0"),
                "bad rules-key",
            ),
            (
                text.replace("rules-key 5x5", "rules-key 5x5\\X0a"),
                "bad rules-key",
            ),
            (
                text.replace("rules-key 5x5", "rules-key 5x5\t"),
                "bad rules-key",
            ),
        ] {
            let e = Manifest::parse(Path::new("m"), fix_checksum(&bad).as_bytes()).unwrap_err();
            assert!(
                matches!(&e, Error::Corrupt { fault, .. } if fault.contains(why)),
                "{bad:?}: {e}"
            );
        }
    }

    #[test]
    fn names() {
        assert!(check_name("Connect Four 7x6").is_ok());
        assert!(check_name("").is_err());
        assert!(check_name("a\nb").is_err());
        assert!(check_name(" a").is_err());
        assert!(check_name(&"x".repeat(256)).is_err());
    }
}
