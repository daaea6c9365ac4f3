//! The cache blocks of a contraction's loops ([`crate::tile`]) from the
//! sizes of the host's data caches, read once per process from Linux's
//! `/sys/devices/system/cpu/cpu0/cache/index*/{level,type,size}`, with a
//! fallback where they cannot be read (32 KiB first level, 512 KiB second:
//! small for a recent x86-64 core, so the blocks fit wherever they run).
//!
//! - `KC`, the depth of a block: a `b` panel (`KC · 64` bytes) takes half
//!   the first-level cache, the `a` panel streaming past it most of the
//!   rest (48 KiB: 384, measured against 256 and 512 with cachegrind, see
//!   [`crate::tile::NR`]'s module; 32 KiB: 256).
//! - `MC`, the rows of an `a` block (`MC · KC · 8` bytes, reread from the
//!   second-level cache for every `b` panel): 45/128 (35 %) of the second
//!   level, the share of the 1 MiB of the core it was tuned on (120 rows at
//!   `KC` = 384); 240 on a 2 MiB second level.
//! - `NC`, the columns of a `b` block: 4080 (510 panels), which the third
//!   level holds at any `KC` here (at most 16 MiB); not read, since that
//!   level is shared with other cores and the program's other data.

use std::sync::OnceLock;

use crate::tile::{MR, NR};

/// Cache blocks of a contraction (see the module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocking {
    /// Depth of a block (`k` steps), a multiple of 16.
    pub kc: i64,
    /// Rows of an `a` block, a multiple of [`MR`].
    pub mc: i64,
    /// Columns of a `b` block, a multiple of [`NR`].
    pub nc: i64,
}

/// First-level data cache assumed when sysfs does not say (bytes).
pub const FALLBACK_L1: usize = 32 << 10;
/// Second-level cache assumed when sysfs does not say (bytes).
pub const FALLBACK_L2: usize = 512 << 10;

/// Padding (bytes) after each panel of the `b` side: panels `kc · 64`
/// bytes apart would start in the same set of the first-level cache (a
/// multiple of 4 KiB apart), and the row-by-row copy of the side
/// ([`crate::pack`]) would store a whole row of the block into one set.
pub const B_PAD: i64 = 64;

impl Blocking {
    /// The blocks for a first-level data cache of `l1` bytes and a
    /// second-level cache of `l2` bytes.
    pub fn for_caches(l1: usize, l2: usize) -> Blocking {
        let kc = (l1 as i64 / 2 / (NR * 8) / 16 * 16).clamp(128, 512);
        let a_block = l2 as i64 / 128 * 45;
        let mc = (a_block / (kc * 8) / MR * MR).clamp(4 * MR, 80 * MR);
        Blocking { kc, mc, nc: 4080 }
    }

    /// The blocks for this machine (its caches read once per process).
    pub fn host() -> Blocking {
        static HOST: OnceLock<Blocking> = OnceLock::new();
        *HOST.get_or_init(|| {
            let (l1, l2) = host_caches();
            Blocking::for_caches(l1.unwrap_or(FALLBACK_L1), l2.unwrap_or(FALLBACK_L2))
        })
    }

    /// Byte offset of the `a` side's block in the workspace: after the
    /// largest `b` block's panels.
    pub fn a_base(&self) -> i64 {
        self.nc / NR * (self.kc * NR * 8 + B_PAD)
    }

    /// Bytes of workspace a contraction needs per worker (both packed
    /// blocks).
    pub fn workspace(&self) -> usize {
        (self.a_base() + self.kc * self.mc * 8) as usize
    }
}

/// The sizes of the first-level data cache and the second-level cache of
/// CPU 0, where sysfs gives them.
fn host_caches() -> (Option<usize>, Option<usize>) {
    let (mut l1, mut l2) = (None, None);
    for i in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
        let read = |f: &str| std::fs::read_to_string(format!("{dir}/{f}")).ok();
        let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size"))
        else {
            continue;
        };
        let size = parse_size(&size);
        match (level.trim(), kind.trim()) {
            ("1", "Data" | "Unified") => l1 = l1.or(size),
            ("2", "Data" | "Unified") => l2 = l2.or(size),
            _ => {}
        }
    }
    (l1, l2)
}

/// A sysfs cache size (`48K`, `2048K`, `1M`, `512`) in bytes; `None` for
/// anything else, or a size outside 4 KiB–1 GiB.
pub fn parse_size(s: &str) -> Option<usize> {
    let s = s.trim();
    let (digits, unit) = match s.as_bytes().last()? {
        b'K' | b'k' => (&s[..s.len() - 1], 1 << 10),
        b'M' | b'm' => (&s[..s.len() - 1], 1 << 20),
        b'G' | b'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    let n: usize = digits.parse().ok()?;
    n.checked_mul(unit)
        .filter(|b| (4 << 10..=1 << 30).contains(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_as_sysfs_writes_them() {
        assert_eq!(parse_size("48K\n"), Some(48 << 10));
        assert_eq!(parse_size("2048K"), Some(2 << 20));
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("65536"), Some(64 << 10));
        for bad in ["", "K", "12Q", "-4K", "1K", "2G", "99999999999999999999K"] {
            assert_eq!(parse_size(bad), None, "{bad}");
        }
    }

    #[test]
    fn blocks_follow_the_caches() {
        // the core the constants were tuned on, and this session's Xeon
        let tuned = Blocking::for_caches(48 << 10, 1 << 20);
        assert_eq!((tuned.kc, tuned.mc, tuned.nc), (384, 120, 4080));
        let xeon = Blocking::for_caches(48 << 10, 2 << 20);
        assert_eq!((xeon.kc, xeon.mc), (384, 240));
        let small = Blocking::for_caches(FALLBACK_L1, FALLBACK_L2);
        assert_eq!((small.kc, small.mc), (256, 90));
        for (l1, l2) in [
            (4 << 10, 4 << 10),
            (1 << 30, 1 << 30),
            (32 << 10, 256 << 10),
        ] {
            let b = Blocking::for_caches(l1, l2);
            assert!((128..=512).contains(&b.kc) && b.kc % 16 == 0, "{b:?}");
            assert!(
                (4 * MR..=80 * MR).contains(&b.mc) && b.mc % MR == 0,
                "{b:?}"
            );
            // the b panel and the a block where the module says
            assert!(b.kc * NR * 8 <= (l1 as i64 / 2).max(128 * 64), "{b:?}");
            assert!(b.mc * b.kc * 8 <= (l2 as i64 * 45 / 128).max(4 * MR * 512 * 8));
        }
        let b = Blocking::host();
        assert_eq!(b.workspace() as i64, b.a_base() + b.kc * b.mc * 8);
    }
}
