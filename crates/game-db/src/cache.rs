//! A small least-recently-used cache: of decompressed blocks, and of open
//! files.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A key: the opened tier file's serial number (a rewritten tier gets a new
/// one, so stale blocks are never served) and the block's number (0 for
/// the file itself).
pub(crate) type Key = (u64, u64);

/// What an entry counts against the capacity.
pub(crate) trait Weight {
    /// The entry's weight.
    fn weight(&self) -> usize;
}

/// A decompressed block weighs the bytes its buffers hold allocated (their
/// capacity): a small block in a large buffer weighs the buffer, so that
/// the cache's capacity bounds the memory it keeps.
impl Weight for Vec<u8> {
    fn weight(&self) -> usize {
        self.capacity()
    }
}

/// A decompressed block with its rank index weighs its buffers.
impl Weight for crate::layout::Block {
    fn weight(&self) -> usize {
        self.allocated()
    }
}

/// An open file weighs one.
impl Weight for std::fs::File {
    fn weight(&self) -> usize {
        1
    }
}

/// Entries of at most `capacity` weight in all, the least recently used
/// evicted first.
#[derive(Debug)]
pub(crate) struct Lru<V> {
    capacity: usize,
    bytes: usize,
    clock: u64,
    map: HashMap<Key, (u64, Arc<V>)>,
    order: BTreeMap<u64, Key>,
}

impl<V: Weight> Lru<V> {
    pub fn new(capacity: usize) -> Lru<V> {
        Lru {
            capacity,
            bytes: 0,
            clock: 0,
            map: HashMap::new(),
            order: BTreeMap::new(),
        }
    }

    /// The entry, marked as just used.
    pub fn get(&mut self, key: Key) -> Option<Arc<V>> {
        let (stamp, data) = self.map.get_mut(&key)?;
        self.order.remove(stamp);
        self.clock += 1;
        *stamp = self.clock;
        self.order.insert(self.clock, key);
        Some(Arc::clone(data))
    }

    /// Keeps the entry unless it alone exceeds the capacity. Returns an
    /// evicted entry no one else holds, or the entry itself if it was not
    /// kept and no one else holds it, for its buffer to be reused.
    pub fn insert(&mut self, key: Key, data: Arc<V>) -> Option<V> {
        if data.weight() > self.capacity {
            return Arc::try_unwrap(data).ok();
        }
        let mut spare = None;
        if let Some((stamp, old)) = self.map.remove(&key) {
            self.order.remove(&stamp);
            self.bytes -= old.weight();
        }
        while self.bytes + data.weight() > self.capacity {
            let Some((_, victim)) = self.order.pop_first() else {
                break;
            };
            if let Some((_, old)) = self.map.remove(&victim) {
                self.bytes -= old.weight();
                spare = Arc::try_unwrap(old).ok();
            }
        }
        self.clock += 1;
        self.bytes += data.weight();
        self.order.insert(self.clock, key);
        self.map.insert(key, (self.clock, data));
        spare
    }

    /// Forgets every entry of the file with serial number `file`.
    pub fn forget_file(&mut self, file: u64) {
        let keys: Vec<Key> = self.map.keys().filter(|k| k.0 == file).copied().collect();
        for k in keys {
            if let Some((stamp, old)) = self.map.remove(&k) {
                self.order.remove(&stamp);
                self.bytes -= old.weight();
            }
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.map.len()
    }
}

#[cfg(test)]
impl<V: Weight> Lru<V> {
    /// The bytes the kept blocks' buffers hold allocated.
    pub fn allocated(&self) -> usize {
        self.map.values().map(|(_, v)| v.weight()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(n: usize) -> Arc<Vec<u8>> {
        Arc::new(vec![0u8; n])
    }

    #[test]
    fn evicts_least_recently_used() {
        let mut c = Lru::<Vec<u8>>::new(30);
        c.insert((0, 1), block(10));
        c.insert((0, 2), block(10));
        c.insert((0, 3), block(10));
        assert!(c.get((0, 1)).is_some()); // 2 is now the oldest
        let spare = c.insert((0, 4), block(10));
        assert_eq!(spare.map(|v| v.len()), Some(10));
        assert!(c.get((0, 2)).is_none());
        assert!(c.get((0, 1)).is_some());
        assert!(c.get((0, 3)).is_some());
        assert!(c.get((0, 4)).is_some());
        assert_eq!(c.len(), 3);
    }

    #[test]
    fn too_large_and_zero_capacity_keep_nothing() {
        let mut c = Lru::<Vec<u8>>::new(5);
        c.insert((0, 1), block(10));
        assert_eq!(c.len(), 0);
        let mut z = Lru::<Vec<u8>>::new(0);
        z.insert((0, 1), block(1));
        assert!(z.get((0, 1)).is_none());
    }

    /// A block larger than the whole cache was not kept, and not handed
    /// back either: a lookup moves its block buffer into the cache, so
    /// with a cache smaller than a block (`cache_bytes` 4096, blocks of
    /// 16 KiB) every lookup allocated a new block buffer. It comes back
    /// now, to be read into again.
    #[test]
    fn an_entry_too_large_to_keep_is_handed_back() {
        let mut c = Lru::<Vec<u8>>::new(5);
        let data = block(10);
        let at = data.as_ptr();
        let back = c.insert((0, 1), data).expect("the buffer back");
        assert_eq!((back.as_ptr(), back.len()), (at, 10));
        // Not while someone else holds it.
        let shared = block(10);
        assert!(c.insert((0, 2), Arc::clone(&shared)).is_none());
        assert_eq!(c.len(), 0);
    }

    /// A block weighs its buffer, not the records in it.
    #[test]
    fn a_small_block_in_a_large_buffer_weighs_the_buffer() {
        let mut c = Lru::<Vec<u8>>::new(100);
        let mut big = Vec::with_capacity(1000);
        big.extend_from_slice(&[1, 2]);
        assert!(c.insert((0, 1), Arc::new(big)).is_some(), "handed back");
        assert_eq!((c.len(), c.allocated()), (0, 0));
        c.insert((0, 2), block(60));
        assert_eq!(c.allocated(), 60);
    }

    #[test]
    fn forget_file_drops_only_that_file() {
        let mut c = Lru::<Vec<u8>>::new(100);
        c.insert((1, 0), block(10));
        c.insert((2, 0), block(10));
        c.forget_file(1);
        assert!(c.get((1, 0)).is_none());
        assert!(c.get((2, 0)).is_some());
        c.insert((3, 0), block(90)); // fits: the forgotten bytes were freed
        assert!(c.get((2, 0)).is_some());
    }
}
