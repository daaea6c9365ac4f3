//! Constraint rows in one flat buffer, shared between copies of a basic
//! map and copied on write.
//!
//! [`Rows`] is the storage of a [`BasicMap`](crate::BasicMap)'s equalities
//! and inequalities: `len` rows of one `width`, stored row after row in a
//! single vector behind a reference count. So a basic map with `n` rows
//! costs one allocation for its rows, not `n + 1`, and a copy of it costs
//! one reference count: cloning a basic map (which the operations do all
//! the time: a union, a composition, a coalesce that changes nothing) only
//! counts one more owner, and the first mutable access of a copy whose
//! rows are shared copies the buffer (`Arc::make_mut`), so a change to one
//! copy never shows in another.
//!
//! Read access is by row: indexing gives a `[Int]` slice and [`iter`]
//! yields them. Mutation of the rows (push, remove, retain, sort) and of
//! the columns ([`insert_columns`](Rows::insert_columns),
//! [`remove_columns`](Rows::remove_columns)) goes through methods that keep
//! every row the same width; the width of an empty list is that of the
//! first row pushed.
//!
//! Every write first makes the storage unique (`Arc::make_mut`, an
//! atomic operation): code that appends many rows takes a
//! [`RowsWriter`](Rows::writer) once, and builds each row in place
//! ([`push_with`](RowsWriter::push_with), [`push_iter`](RowsWriter::push_iter))
//! rather than in a vector of its own that is then copied.
//!
//! Mutating code that only *may* change the rows should first decide
//! read-only whether it will (see `coalesce::cheap`): a mutable access of
//! shared rows copies them even if nothing is then written.
//!
//! [`iter`]: Rows::iter

use std::cmp::Ordering;
use std::ops::{Index, IndexMut, Range, RangeBounds};
use std::sync::atomic::{AtomicU64, Ordering as Relaxed};
use std::sync::{Arc, Weak};

use crate::int::Int;

/// Rows `[c | params | in | out | locals]` of one width, stored flat,
/// shared by reference count and copied on the first write of a shared
/// copy: one allocation for the rows of a basic map, one buffer copied by a
/// written copy.
#[derive(Clone, Default)]
pub struct Rows(Arc<Shared>);

/// The rows of a [`Rows`], one after the other.
pub type Iter<'a> = std::slice::ChunksExact<'a, Int>;
/// The rows of a [`Rows`], mutably.
pub type IterMut<'a> = std::slice::ChunksExactMut<'a, Int>;

/// The shared storage: the rows and a mark (see [`NEXT_MARK`]).
#[derive(Default)]
struct Shared {
    /// `len * width` entries, row after row.
    data: Vec<Int>,
    len: usize,
    /// The width of every row (meaningless while `len` is 0).
    width: usize,
    /// 0, or the mark given by [`Rows::mark_pair`] since the last write.
    /// (Read and written with relaxed ordering: a fact marked on one thread
    /// is only ever a shortcut on another.)
    mark: AtomicU64,
}

impl Clone for Shared {
    /// A copy is about to be written: it has no mark.
    fn clone(&self) -> Shared {
        Shared {
            data: copy_entries(&self.data),
            len: self.len,
            width: self.width,
            mark: AtomicU64::new(0),
        }
    }
}

/// A copy of `entries`, with room for no more: one pass that copies the
/// machine integers and clones the big ones (the slice's own `to_vec`
/// guards each clone against a panic, about twice the instructions a row
/// entry).
fn copy_entries(entries: &[Int]) -> Vec<Int> {
    let mut v = Vec::with_capacity(entries.len());
    append_entries(&mut v, entries);
    v
}

/// Append a copy of `entries` to `data` (as [`copy_entries`] copies).
#[inline]
fn append_entries(data: &mut Vec<Int>, entries: &[Int]) {
    data.extend(entries.iter().map(|x| match x {
        Int::Small(x) => Int::Small(*x),
        Int::Big(b) => Int::Big(b.clone()),
    }));
}

/// Marks of facts about a pair of row lists (equalities, inequalities)
/// that hold as long as neither is written: the pair carries `(m, m + 1)`
/// for an even `m` taken once from this global counter, and a write clears
/// the mark of the rows written (a copy starts without one). So a mark
/// found on both rows of a basic map was given to exactly these rows, in
/// this order, unchanged since.
static NEXT_MARK: AtomicU64 = AtomicU64::new(2);

impl Rows {
    /// No rows.
    pub fn new() -> Rows {
        Rows::default()
    }

    /// No rows, with room for `n` rows of `width` entries.
    pub fn with_capacity(n: usize, width: usize) -> Rows {
        Rows(Arc::new(Shared {
            data: Vec::with_capacity(n * width),
            len: 0,
            width,
            mark: AtomicU64::new(0),
        }))
    }

    /// The number of rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len
    }

    /// True if there are no rows.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.len == 0
    }

    /// The width of the rows (0 if there are none).
    #[inline]
    pub fn width(&self) -> usize {
        if self.0.len == 0 {
            0
        } else {
            self.0.width
        }
    }

    /// The rows, in order.
    #[inline]
    pub fn iter(&self) -> Iter<'_> {
        self.0.data.chunks_exact(self.0.width.max(1))
    }

    /// Row `i`, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&[Int]> {
        (i < self.0.len).then(|| &self[i])
    }

    /// The first row, if any.
    pub fn first(&self) -> Option<&[Int]> {
        self.get(0)
    }

    /// The last row, if any.
    pub fn last(&self) -> Option<&[Int]> {
        self.0.len.checked_sub(1).map(|i| &self[i])
    }

    /// True if some row equals `row`.
    pub fn contains(&self, row: &[Int]) -> bool {
        self.iter().any(|r| r == row)
    }

    /// All entries, row after row.
    pub fn as_flat(&self) -> &[Int] {
        &self.0.data
    }

    /// The rows as separate vectors.
    pub fn to_vec(&self) -> Vec<Vec<Int>> {
        self.iter().map(<[Int]>::to_vec).collect()
    }

    /// The rows as separate vectors (the same as [`to_vec`](Self::to_vec)).
    pub fn into_vec(self) -> Vec<Vec<Int>> {
        self.to_vec()
    }

    /// True if `self` and `other` are the same storage (a copy not written
    /// since): their rows are then equal without comparing them.
    pub fn shares(&self, other: &Rows) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Mark the pair `(eqs, ineqs)` (distinct storages) with a fresh
    /// number: [`marked_pair`](Self::marked_pair) is true for them until one
    /// is written. For facts that depend on the rows only.
    pub(crate) fn mark_pair(eqs: &Rows, ineqs: &Rows) {
        if eqs.shares(ineqs) {
            return;
        }
        // even for the equalities, the next odd number for the inequalities:
        // a pair marked the other way round is not this pair
        let m = NEXT_MARK.fetch_add(2, Relaxed::Relaxed);
        eqs.0.mark.store(m, Relaxed::Relaxed);
        ineqs.0.mark.store(m + 1, Relaxed::Relaxed);
    }

    /// True if `(eqs, ineqs)` were marked together by
    /// [`mark_pair`](Self::mark_pair) and neither was written since.
    pub(crate) fn marked_pair(eqs: &Rows, ineqs: &Rows) -> bool {
        let m = eqs.0.mark.load(Relaxed::Relaxed);
        m != 0 && m + 1 == ineqs.0.mark.load(Relaxed::Relaxed)
    }

    /// The storage, about to be written: copied if shared, unmarked.
    #[inline]
    fn write(&mut self) -> &mut Shared {
        let s = Arc::make_mut(&mut self.0);
        *s.mark.get_mut() = 0;
        s
    }

    /// The rows, mutably, in order.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        let s = self.write();
        s.data.chunks_exact_mut(s.width.max(1))
    }

    /// Append a row. Panics if its width is not that of the rows (or 0).
    pub fn push(&mut self, row: impl AsRef<[Int]>) {
        self.writer().push(row)
    }

    /// Append a row made of the entries of `it`. Panics if their number is
    /// not the width of the rows (or is 0).
    pub fn push_iter(&mut self, it: impl IntoIterator<Item = Int>) {
        self.writer().push_iter(it)
    }

    /// Append a row of `width` zeros and give it to `fill`.
    pub fn push_with(&mut self, width: usize, fill: impl FnOnce(&mut [Int])) {
        self.writer().push_with(width, fill)
    }

    /// The rows, to change in place (the storage copied if shared, once).
    pub fn rows_mut(&mut self) -> RowsMut<'_> {
        let s = self.write();
        let n = s.len * s.width;
        RowsMut {
            data: &mut s.data[..n],
            width: s.width,
        }
    }

    /// The rows, to append many (the storage copied if shared, once).
    pub fn writer(&mut self) -> RowsWriter<'_> {
        RowsWriter(self.write())
    }

    /// Remove the last row and return it.
    pub fn pop(&mut self) -> Option<Vec<Int>> {
        if self.is_empty() {
            return None;
        }
        let s = self.write();
        s.len -= 1;
        Some(s.data.split_off(s.len * s.width))
    }

    /// Remove row `i` and return it (the rows after it move up).
    pub fn remove(&mut self, i: usize) -> Vec<Int> {
        assert!(i < self.len(), "row {i} of {}", self.len());
        let s = self.write();
        let w = s.width;
        let row = s.data.drain(i * w..(i + 1) * w).collect();
        s.len -= 1;
        row
    }

    /// Remove row `i` and return it (the last row takes its place).
    pub fn swap_remove(&mut self, i: usize) -> Vec<Int> {
        let last = self.len() - 1;
        self.swap(i, last);
        self.pop().expect("a row")
    }

    /// Insert a row at position `i`.
    pub fn insert(&mut self, i: usize, row: impl AsRef<[Int]>) {
        assert!(i <= self.len(), "row {i} of {}", self.len());
        let row = row.as_ref();
        let s = self.write();
        s.start_row(row.len());
        let at = i * s.width;
        s.data.splice(at..at, row.iter().cloned());
        s.len += 1;
    }

    /// Replace row `i` by `row` (of the same width).
    pub fn set(&mut self, i: usize, row: impl AsRef<[Int]>) {
        self[i].clone_from_slice(row.as_ref());
    }

    /// Keep the rows `sources[0], sources[1], …` in that order, the others
    /// dropped. The sources are distinct, each at or after its new place
    /// (`sources[j] >= j`): then exchanging row `j` with row `sources[j]`
    /// for `j = 0, 1, …` (what an unshared list does, in place) takes every
    /// row from where it was. A shared list is not copied whole: the new
    /// list has only the rows taken.
    pub fn swap_in(&mut self, sources: impl IntoIterator<Item = usize>) {
        if Arc::strong_count(&self.0) > 1 {
            // shared (as `Arc::make_mut` would copy it): a new list of the
            // rows taken, the others not copied
            let (w, len) = (self.0.width, self.0.len);
            let mut data = Vec::new();
            let mut j = 0;
            for i in sources {
                assert!(j <= i && i < len, "row {i} to {j} of {len}");
                if data.capacity() == 0 {
                    data.reserve_exact((len - j) * w);
                }
                append_entries(&mut data, &self.0.data[i * w..(i + 1) * w]);
                j += 1;
            }
            *self = Rows(Arc::new(Shared {
                data,
                len: j,
                width: w,
                mark: AtomicU64::new(0),
            }));
            return;
        }
        let s = self.write();
        let mut j = 0;
        for i in sources {
            assert!(j <= i && i < s.len, "row {i} to {j} of {}", s.len);
            s.move_row(i, j);
            j += 1;
        }
        s.data.truncate(j * s.width);
        s.len = j;
    }

    /// Exchange rows `i` and `j`.
    pub fn swap(&mut self, i: usize, j: usize) {
        if i == j {
            return;
        }
        assert!(i < self.len() && j < self.len());
        self.rows_mut().swap(i, j)
    }

    /// Keep the first `n` rows.
    pub fn truncate(&mut self, n: usize) {
        if n < self.len() {
            let s = self.write();
            s.data.truncate(n * s.width);
            s.len = n;
        }
    }

    /// Remove every row.
    pub fn clear(&mut self) {
        if !self.is_empty() {
            let s = self.write();
            s.data.clear();
            s.len = 0;
        }
    }

    /// Keep the rows for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&[Int]) -> bool) {
        let w = self.0.width;
        // read-only first: a list kept whole is not copied
        let Some(first) = self.iter().position(|r| !keep(r)) else {
            return;
        };
        let s = self.write();
        let mut kept = first;
        for i in first + 1..s.len {
            if keep(&s.data[i * w..(i + 1) * w]) {
                s.move_row(i, kept);
                kept += 1;
            }
        }
        s.data.truncate(kept * w);
        s.len = kept;
    }

    /// Keep the rows for which `keep` is true, in order; `keep` may change
    /// them.
    pub fn retain_mut(&mut self, mut keep: impl FnMut(&mut [Int]) -> bool) {
        if self.is_empty() {
            return;
        }
        let s = self.write();
        let w = s.width;
        let mut kept = 0;
        for i in 0..s.len {
            if keep(&mut s.data[i * w..(i + 1) * w]) {
                s.move_row(i, kept);
                kept += 1;
            }
        }
        s.data.truncate(kept * w);
        s.len = kept;
    }

    /// Sort the rows lexicographically (stable).
    pub fn sort(&mut self) {
        self.sort_by(|a, b| a.cmp(b))
    }

    /// Sort the rows by `cmp` (stable).
    pub fn sort_by(&mut self, mut cmp: impl FnMut(&[Int], &[Int]) -> Ordering) {
        let n = self.len();
        let sorted = |r: &Rows, cmp: &mut dyn FnMut(&[Int], &[Int]) -> Ordering| {
            (1..n).all(|i| cmp(&r[i - 1], &r[i]) != Ordering::Greater)
        };
        if n < 2 || sorted(self, &mut cmp) {
            return;
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| cmp(&self[a], &self[b]));
        self.permute(&order);
    }

    /// Sort the rows by `cmp` (the order of equal rows is unspecified).
    pub fn sort_unstable_by(&mut self, cmp: impl FnMut(&[Int], &[Int]) -> Ordering) {
        self.sort_by(cmp)
    }

    /// Sort the rows by a key (stable).
    pub fn sort_by_key<K: Ord>(&mut self, mut key: impl FnMut(&[Int]) -> K) {
        self.sort_by(|a, b| key(a).cmp(&key(b)))
    }

    /// Put the rows in the order `order` (row `k` becomes row `order[k]`
    /// of before).
    fn permute(&mut self, order: &[usize]) {
        let s = self.write();
        let w = s.width;
        let mut old = std::mem::take(&mut s.data);
        let mut data = Vec::with_capacity(old.len());
        for &i in order {
            data.extend(old[i * w..(i + 1) * w].iter_mut().map(std::mem::take));
        }
        s.data = data;
    }

    /// Remove consecutive equal rows.
    pub fn dedup(&mut self) {
        let n = self.len();
        let Some(first) = (1..n).find(|&i| self[i - 1] == self[i]) else {
            return;
        };
        let s = self.write();
        let w = s.width;
        // rows [0, first) are kept; row `first` repeats row `first - 1`
        let mut kept = first;
        for i in first + 1..n {
            if s.data[i * w..(i + 1) * w] != s.data[(kept - 1) * w..kept * w] {
                s.move_row(i, kept);
                kept += 1;
            }
        }
        s.data.truncate(kept * w);
        s.len = kept;
    }

    /// Remove the rows in `range` and return them.
    pub fn drain(&mut self, range: impl RangeBounds<usize>) -> std::vec::IntoIter<Vec<Int>> {
        let (a, b) = bounds(range, self.len());
        if a == b {
            return Vec::new().into_iter();
        }
        let s = self.write();
        let w = s.width;
        let out: Vec<Vec<Int>> = s.data[a * w..b * w]
            .chunks_exact(w)
            .map(<[Int]>::to_vec)
            .collect();
        s.data.drain(a * w..b * w);
        s.len -= b - a;
        out.into_iter()
    }

    /// Append the rows of `other`.
    pub fn append_rows(&mut self, other: &Rows) {
        if other.is_empty() {
            return;
        }
        if self.is_empty() {
            *self = other.clone();
            return;
        }
        let s = self.write();
        s.start_row(other.0.width);
        append_entries(&mut s.data, &other.0.data);
        s.len += other.0.len;
    }

    /// Insert `n` zero columns before column `at` of every row.
    pub fn insert_columns(&mut self, at: usize, n: usize) {
        if n == 0 || self.is_empty() {
            return;
        }
        let s = self.write();
        let w = s.width;
        assert!(at <= w, "column {at} of {w}");
        // in place: grown by zeros, then each entry moved up (never down)
        // from the last; every slot it leaves holds a zero
        let len = s.len;
        s.data.resize(len * (w + n), Int::ZERO);
        for r in (0..len).rev() {
            let (old, new) = (r * w, r * (w + n));
            for c in (at..w).rev() {
                s.data.swap(old + c, new + c + n);
            }
            if new > old {
                for c in (0..at).rev() {
                    s.data.swap(old + c, new + c);
                }
            }
        }
        s.width = w + n;
    }

    /// Remove columns `cols` of every row.
    pub fn remove_columns(&mut self, cols: Range<usize>) {
        if cols.is_empty() || self.is_empty() {
            return;
        }
        let w = self.0.width;
        assert!(cols.end <= w, "columns {cols:?} of {w}");
        self.retain_columns(|c| !cols.contains(&c))
    }

    /// Keep the columns `c` of every row for which `keep(c)` is true.
    pub fn retain_columns(&mut self, mut keep: impl FnMut(usize) -> bool) {
        if self.is_empty() {
            return;
        }
        let w = self.0.width;
        let kept: Vec<bool> = (0..w).map(&mut keep).collect();
        let n = kept.iter().filter(|&&k| k).count();
        if n == w {
            return;
        }
        assert!(n > 0, "a row keeps at least one column");
        // the kept entries moved (not cloned) into a new buffer, row by row
        // (in place, every later entry would move once per removed column)
        // the removed columns as one run `a..b` (the usual case: two block
        // moves per row), else entry by entry
        let a = kept.iter().position(|&k| !k).unwrap_or(w);
        let b = a + (w - n);
        let one_run = kept[a..b].iter().all(|&k| !k);
        let s = self.write();
        let mut data = Vec::with_capacity(s.len * n);
        for row in s.data.chunks_exact_mut(w) {
            if one_run {
                data.extend(row[..a].iter_mut().map(std::mem::take));
                data.extend(row[b..].iter_mut().map(std::mem::take));
            } else {
                let kept_entries = row.iter_mut().zip(&kept).filter(|(_, &k)| k);
                data.extend(kept_entries.map(|(v, _)| std::mem::take(v)));
            }
        }
        s.data = data;
        s.width = n;
    }

    /// Remove column `col` of every row.
    pub fn remove_column(&mut self, col: usize) {
        self.remove_columns(col..col + 1)
    }
}

/// The rows of a [`Rows`] made unique once, to be changed in place
/// (see [`Rows::rows_mut`]): exchanged, split, indexed.
pub struct RowsMut<'a> {
    data: &'a mut [Int],
    width: usize,
}

impl RowsMut<'_> {
    /// The number of rows.
    pub fn len(&self) -> usize {
        self.data.len() / self.width.max(1)
    }

    /// True if there are no rows.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Exchange rows `i` and `j`.
    pub fn swap(&mut self, i: usize, j: usize) {
        if i == j {
            return;
        }
        let w = self.width;
        let (a, b) = (i.min(j), i.max(j));
        let (lo, hi) = self.data.split_at_mut(b * w);
        lo[a * w..(a + 1) * w].swap_with_slice(&mut hi[..w]);
    }

    /// Row `i` and the others (with their indices), all mutably.
    pub fn split_row_mut(
        &mut self,
        i: usize,
    ) -> (&mut [Int], impl Iterator<Item = (usize, &mut [Int])>) {
        let w = self.width;
        let (before, rest) = self.data.split_at_mut(i * w);
        let (row, after) = rest.split_at_mut(w);
        let others = before.chunks_exact_mut(w).enumerate().chain(
            after
                .chunks_exact_mut(w)
                .enumerate()
                .map(move |(k, r)| (i + 1 + k, r)),
        );
        (row, others)
    }
}

impl Index<usize> for RowsMut<'_> {
    type Output = [Int];
    fn index(&self, i: usize) -> &[Int] {
        &self.data[i * self.width..(i + 1) * self.width]
    }
}

impl IndexMut<usize> for RowsMut<'_> {
    fn index_mut(&mut self, i: usize) -> &mut [Int] {
        &mut self.data[i * self.width..(i + 1) * self.width]
    }
}

/// Appends rows to a [`Rows`] (see [`Rows::writer`]): the storage is
/// made unique once, not once per row.
pub struct RowsWriter<'a>(&'a mut Shared);

impl RowsWriter<'_> {
    /// Append a row. Panics if its width is not that of the rows (or 0).
    pub fn push(&mut self, row: impl AsRef<[Int]>) {
        let row = row.as_ref();
        let s = &mut *self.0;
        s.start_row(row.len());
        append_entries(&mut s.data, row);
        s.len += 1;
    }

    /// Append a row made of the entries of `it`. Panics if their number is
    /// not the width of the rows (or is 0).
    pub fn push_iter(&mut self, it: impl IntoIterator<Item = Int>) {
        let s = &mut *self.0;
        let at = s.data.len();
        s.data.extend(it);
        let w = s.data.len() - at;
        if s.len == 0 {
            assert!(w > 0, "a constraint row has at least the constant column");
            s.width = w;
        } else {
            assert_eq!(w, s.width, "a row of another width");
        }
        s.len += 1;
    }

    /// Append a row of `width` zeros and give it to `fill`.
    pub fn push_with(&mut self, width: usize, fill: impl FnOnce(&mut [Int])) {
        let s = &mut *self.0;
        s.start_row(width);
        let at = s.data.len();
        s.data.resize(at + width, Int::ZERO);
        s.len += 1;
        fill(&mut s.data[at..]);
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.0.len
    }

    /// True if there are no rows.
    pub fn is_empty(&self) -> bool {
        self.0.len == 0
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> &[Int] {
        let s = &*self.0;
        assert!(i < s.len, "row {i} of {}", s.len);
        &s.data[i * s.width..(i + 1) * s.width]
    }

    /// Keep the first `n` rows.
    pub fn truncate(&mut self, n: usize) {
        let s = &mut *self.0;
        if n < s.len {
            s.data.truncate(n * s.width);
            s.len = n;
        }
    }
}

impl Shared {
    /// Check that a row of `width` may be added (setting the width of an
    /// empty list).
    #[inline]
    fn start_row(&mut self, width: usize) {
        if self.len == 0 {
            assert!(
                width > 0,
                "a constraint row has at least the constant column"
            );
            self.width = width;
            self.data.clear();
        } else {
            assert_eq!(width, self.width, "a row of another width");
        }
        if self.data.capacity() < self.data.len() + width {
            // (room for a few rows at once: lists grow one row at a time)
            self.data
                .reserve(width.max(self.data.len()).max(FIRST_ROOM * width));
        }
    }

    /// Move row `from` to row `to <= from` (what was at `to` is dropped
    /// later).
    #[inline]
    fn move_row(&mut self, from: usize, to: usize) {
        if from == to {
            return;
        }
        let w = self.width;
        let (lo, hi) = self.data.split_at_mut(from * w);
        lo[to * w..(to + 1) * w].swap_with_slice(&mut hi[..w]);
    }
}

/// The room for rows made by the first push onto an empty list.
const FIRST_ROOM: usize = 4;

/// `range` as `(start, end)` within `0..len`.
fn bounds(range: impl RangeBounds<usize>, len: usize) -> (usize, usize) {
    use std::ops::Bound::*;
    let a = match range.start_bound() {
        Included(&a) => a,
        Excluded(&a) => a + 1,
        Unbounded => 0,
    };
    let b = match range.end_bound() {
        Included(&b) => b + 1,
        Excluded(&b) => b,
        Unbounded => len,
    };
    assert!(a <= b && b <= len, "rows {a}..{b} of {len}");
    (a, b)
}

/// The identity of a [`Rows`] storage, kept without keeping the rows: it
/// [`is`](RowsId::is) a `Rows` only while that storage is unwritten (a
/// write of shared rows copies them; a write of rows whose identity is kept
/// moves them to a new storage, `Arc::make_mut` with weak references; the
/// old storage's address is not reused while the identity is kept).
#[derive(Clone)]
pub(crate) struct RowsId(Weak<Shared>);

impl RowsId {
    /// True if `r` is the storage this identity was taken of, unwritten.
    pub(crate) fn is(&self, r: &Rows) -> bool {
        std::ptr::eq(self.0.as_ptr(), Arc::as_ptr(&r.0))
    }
}

impl Rows {
    /// The identity of this storage (see [`RowsId`]).
    pub(crate) fn id(&self) -> RowsId {
        RowsId(Arc::downgrade(&self.0))
    }
}

impl Index<usize> for Rows {
    type Output = [Int];
    #[inline]
    fn index(&self, i: usize) -> &[Int] {
        let s = &*self.0;
        assert!(i < s.len, "row {i} of {}", s.len);
        &s.data[i * s.width..(i + 1) * s.width]
    }
}

impl IndexMut<usize> for Rows {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut [Int] {
        assert!(i < self.len(), "row {i} of {}", self.len());
        let s = self.write();
        &mut s.data[i * s.width..(i + 1) * s.width]
    }
}

impl PartialEq for Rows {
    fn eq(&self, other: &Rows) -> bool {
        self.0.len == other.0.len && self.0.data == other.0.data
    }
}

impl Eq for Rows {}

impl std::hash::Hash for Rows {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.len.hash(h);
        self.0.data.hash(h)
    }
}

impl std::fmt::Debug for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<Vec<Int>>> for Rows {
    fn from(v: Vec<Vec<Int>>) -> Rows {
        v.into_iter().collect()
    }
}

impl From<&[Vec<Int>]> for Rows {
    fn from(v: &[Vec<Int>]) -> Rows {
        v.iter().collect()
    }
}

impl<R: AsRef<[Int]>> FromIterator<R> for Rows {
    fn from_iter<I: IntoIterator<Item = R>>(it: I) -> Rows {
        let mut rows = Rows::new();
        rows.extend(it);
        rows
    }
}

impl IntoIterator for Rows {
    type Item = Vec<Int>;
    type IntoIter = std::vec::IntoIter<Vec<Int>>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a> IntoIterator for &'a Rows {
    type Item = &'a [Int];
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Rows {
    type Item = &'a mut [Int];
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<R: AsRef<[Int]>> Extend<R> for Rows {
    fn extend<I: IntoIterator<Item = R>>(&mut self, it: I) {
        let mut it = it.into_iter().peekable();
        let Some(first) = it.peek() else {
            return;
        };
        let (w, (lo, _)) = (first.as_ref().len(), it.size_hint());
        let s = self.write();
        s.data.reserve(lo * w);
        for row in it {
            let row = row.as_ref();
            s.start_row(row.len());
            append_entries(&mut s.data, row);
            s.len += 1;
        }
    }
}

impl PartialEq<Vec<Vec<Int>>> for Rows {
    fn eq(&self, other: &Vec<Vec<Int>>) -> bool {
        *self == other[..]
    }
}

impl PartialEq<[Vec<Int>]> for Rows {
    fn eq(&self, other: &[Vec<Int>]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == &b[..])
    }
}

#[cfg(test)]
mod tests;
