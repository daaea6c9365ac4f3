use super::*;

fn row(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

/// A write to one copy never shows in the other, whichever is written.
#[test]
fn copies_are_independent() {
    let a: Rows = vec![row(&[1, 2]), row(&[3, 4])].into();
    let mut b = a.clone();
    assert!(a.shares(&b));
    b[0][1] = Int::from(7);
    assert!(!a.shares(&b));
    assert_eq!(a, vec![row(&[1, 2]), row(&[3, 4])]);
    assert_eq!(b, vec![row(&[1, 7]), row(&[3, 4])]);
    let mut c = b.clone();
    c.push(row(&[5, 6]));
    assert_eq!(b.len(), 2);
    assert_eq!(c.len(), 3);
    assert_eq!(c.clone().into_vec().len(), 3);
    assert_eq!(c.into_vec().len(), 3);
}

/// A mark holds for the pair marked together until either is written,
/// and for copies not written since; not for a pair put together.
#[test]
fn marks_last_until_a_write() {
    let e: Rows = vec![row(&[1, 2])].into();
    let i: Rows = vec![row(&[3, 4])].into();
    assert!(!Rows::marked_pair(&e, &i));
    Rows::mark_pair(&e, &i);
    assert!(Rows::marked_pair(&e, &i));
    let (e2, mut i2) = (e.clone(), i.clone());
    assert!(Rows::marked_pair(&e2, &i2));
    i2[0][0] = Int::from(5);
    assert!(!Rows::marked_pair(&e2, &i2));
    assert!(Rows::marked_pair(&e, &i));
    let other: Rows = vec![row(&[3, 4])].into();
    Rows::mark_pair(&e2, &other);
    assert!(!Rows::marked_pair(&e, &i) || !Rows::marked_pair(&e, &other));
    assert!(!Rows::marked_pair(&e, &i2));
    let mut i3 = i.clone();
    drop(i);
    i3.push(row(&[0, 1]));
    assert!(!Rows::marked_pair(&e2, &i3));
}

/// An identity is its storage's until a write, by a sharer or by the
/// only owner.
#[test]
fn identities_end_at_a_write() {
    let mut a: Rows = vec![row(&[1, 2])].into();
    let id = a.id();
    let b = a.clone();
    assert!(id.is(&a) && id.is(&b));
    a.push(row(&[0, 1]));
    assert!(!id.is(&a) && id.is(&b));
    let mut b = b;
    b[0][0] = Int::from(3);
    assert!(!id.is(&b));
    let other: Rows = vec![row(&[1, 2])].into();
    assert!(!id.is(&other));
}

/// Every list operation agrees with the same operation on a vector of
/// row vectors (the representation this one replaced).
#[test]
fn agrees_with_vectors() {
    let mut seed = 7u64;
    let mut next = move |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for _ in 0..2000 {
        let w = 1 + next(4) as usize;
        let mut v: Vec<Vec<Int>> = Vec::new();
        let mut r = Rows::new();
        for _ in 0..12 {
            let row: Vec<Int> = (0..w).map(|_| Int::from(next(3) as i64 - 1)).collect();
            match next(14) {
                0..=3 => {
                    v.push(row.clone());
                    r.push(&row);
                }
                4 if !v.is_empty() => {
                    let i = next(v.len() as u64) as usize;
                    assert_eq!(v.remove(i), r.remove(i));
                }
                5 => assert_eq!(v.pop(), r.pop()),
                6 => {
                    v.retain(|x| x[0] != Int::from(0));
                    r.retain(|x| x[0] != Int::from(0));
                }
                7 => {
                    v.sort();
                    r.sort();
                }
                8 => {
                    v.dedup();
                    r.dedup();
                }
                9 if !v.is_empty() => {
                    let (i, j) = (next(v.len() as u64) as usize, next(v.len() as u64) as usize);
                    v.swap(i, j);
                    r.swap(i, j);
                    let k = next(v.len() as u64) as usize;
                    assert_eq!(v.swap_remove(k), r.swap_remove(k));
                }
                10 => {
                    let i = next(v.len() as u64 + 1) as usize;
                    v.insert(i, row.clone());
                    r.insert(i, &row);
                }
                11 if !v.is_empty() => {
                    let a = next(v.len() as u64) as usize;
                    let got: Vec<Vec<Int>> = r.drain(a..).collect();
                    assert_eq!(got, v.drain(a..).collect::<Vec<_>>());
                }
                12 => {
                    v.retain_mut(|x| {
                        x[0] = &x[0] + &Int::from(1);
                        x[0] != Int::from(1)
                    });
                    r.retain_mut(|x| {
                        x[0] = &x[0] + &Int::from(1);
                        x[0] != Int::from(1)
                    });
                }
                _ => {
                    let keep = r.clone();
                    r.extend(keep.iter());
                    v.extend(keep.to_vec());
                }
            }
            assert_eq!(r, v);
            assert_eq!(r.len(), v.len());
            assert_eq!(r.last(), v.last().map(|x| &x[..]));
        }
        if !v.is_empty() {
            let wv = v[0].len();
            let (at, n) = (next(wv as u64 + 1) as usize, next(3) as usize);
            for x in &mut v {
                x.splice(at..at, std::iter::repeat_n(Int::ZERO, n));
            }
            r.insert_columns(at, n);
            assert_eq!(r, v);
            let wv = v[0].len();
            let a = next(wv as u64) as usize;
            let b = (a + next(2) as usize).min(wv - 1).max(a);
            for x in &mut v {
                x.drain(a..b);
            }
            r.remove_columns(a..b);
            assert_eq!(r, v);
            // any set of columns kept (one run removed, or several)
            let wv = v[0].len();
            let mask: Vec<bool> = (0..wv).map(|c| c == 0 || next(2) == 0).collect();
            for x in &mut v {
                let mut c = 0;
                x.retain(|_| {
                    c += 1;
                    mask[c - 1]
                });
            }
            r.retain_columns(|c| mask[c]);
            assert_eq!(r, v);
        }
    }
}
