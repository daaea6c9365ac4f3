//! Recording the operations a program asks of the engine (cargo feature
//! `trace`, off by default).
//!
//! The public set and relation operations (union, intersection, difference,
//! complement, coalesce, equality, emptiness, inclusion, projection,
//! lexmin/lexmax, application and composition, gist, ...) of [`Map`](crate::Map),
//! [`UnionMap`](crate::UnionMap) and [`BasicMap`](crate::BasicMap) wrap their
//! bodies in [`traced!`]. Without the feature the macro is the body itself:
//! no code, no cost. With it, and the environment variable
//! `PRESBURGER_TRACE` naming a file, each call made from outside the engine
//! (the outermost traced call of a thread; what an operation does inside is
//! not recorded) that returns `Ok` appends one JSON line to that file:
//!
//! ```text
//! {"op": "intersect", "args": ["{ [i] : 0 <= i <= 9 }", "{ [i] : i >= 5 }"]}
//! ```
//!
//! with its operands in isl notation and the op names of the conformance
//! format (`../shared/conformance/README.md`: `apply_range` is `compose`,
//! `apply` takes the set first, `project` a set and one dimension index,
//! `lexmin_map` a relation). Operations that format has no name for are
//! recorded under the engine's method name (`intersect_domain`,
//! `project_out`, ...), so that a corpus script can count them and leave
//! them out. A line already written by this process is not written again;
//! writes append (`O_APPEND`), one line per write, so several processes may
//! share one file. Recording never changes an answer: when the file cannot
//! be written, recording stops with one note on standard error.

/// Wrap an operation's body: `traced!(OP, [ARGS...], { BODY })`, where `OP`
/// is the op name (an expression, evaluated only when recording) and the
/// `ARGS` implement `Display`. The body's `return` and `?` keep their
/// meaning (with the feature on, the body becomes a closure whose result is
/// the operation's).
#[cfg(feature = "trace")]
macro_rules! traced {
    ($op:expr, [$($arg:expr),* $(,)?], $body:block) => {
        $crate::trace::call(|| $op, &[$(&$arg as &dyn ::std::fmt::Display),*], || $body)
    };
}

/// Without the `trace` feature, [`traced!`] is the body.
#[cfg(not(feature = "trace"))]
macro_rules! traced {
    ($op:expr, [$($arg:expr),* $(,)?], $body:block) => {
        $body
    };
}

pub(crate) use traced;

/// The op name of a lexicographic optimum: `lexmin`/`lexmax` of a set,
/// `lexmin_map`/`lexmax_map` of a relation (the conformance format's names).
#[cfg_attr(not(feature = "trace"), allow(dead_code))]
pub(crate) fn lexopt_name(is_set: bool, op: &'static str) -> &'static str {
    match (is_set, op) {
        (false, "lexmin") => "lexmin_map",
        (false, "lexmax") => "lexmax_map",
        _ => op,
    }
}

#[cfg(feature = "trace")]
pub(crate) use on::call;

#[cfg(feature = "trace")]
mod on {
    use std::cell::Cell;
    use std::collections::HashSet;
    use std::fmt::{Display, Write as _};
    use std::fs::{File, OpenOptions};
    use std::hash::{Hash, Hasher};
    use std::io::Write as _;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Mutex, Once};

    use crate::error::Result;

    thread_local! {
        /// How many traced operations are running on this thread.
        static DEPTH: Cell<u32> = const { Cell::new(0) };
    }

    /// The open trace file and the hashes of the lines written to it.
    struct Sink {
        file: File,
        seen: HashSet<u64>,
    }

    /// The sink, `None` until recording starts or after the file failed.
    static SINK: Mutex<Option<Sink>> = Mutex::new(None);

    /// Whether recording is on (read without the lock on every traced call).
    static ON: AtomicBool = AtomicBool::new(false);

    /// Start recording to `path` (appending), if it opens.
    pub(crate) fn record_to(path: &std::ffi::OsStr) {
        match OpenOptions::new().create(true).append(true).open(path) {
            Ok(file) => {
                *lock() = Some(Sink {
                    file,
                    seen: HashSet::new(),
                });
                ON.store(true, Ordering::Relaxed);
            }
            Err(e) => eprintln!("presburger trace: cannot open {path:?}: {e}; not recording"),
        }
    }

    fn lock() -> std::sync::MutexGuard<'static, Option<Sink>> {
        SINK.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Recording is on: `PRESBURGER_TRACE` is read at the first traced call.
    fn enabled() -> bool {
        static FROM_ENV: Once = Once::new();
        FROM_ENV.call_once(|| {
            if let Some(path) = std::env::var_os("PRESBURGER_TRACE") {
                record_to(&path);
            }
        });
        ON.load(Ordering::Relaxed)
    }

    /// Leaves the traced operation (also on panic).
    struct Depth;

    impl Drop for Depth {
        fn drop(&mut self) {
            DEPTH.with(|d| d.set(d.get() - 1));
        }
    }

    /// Run `body`; record it when it is the outermost traced call and succeeds.
    pub(crate) fn call<R>(
        op: impl FnOnce() -> &'static str,
        args: &[&dyn Display],
        body: impl FnOnce() -> Result<R>,
    ) -> Result<R> {
        if !enabled() {
            return body();
        }
        let outer = DEPTH.with(|d| {
            d.set(d.get() + 1);
            d.get() == 1
        });
        let _depth = Depth;
        let r = body();
        if outer && r.is_ok() {
            // still inside: printing the operands records nothing
            write_line(op(), args);
        }
        r
    }

    fn write_line(op: &str, args: &[&dyn Display]) {
        let mut line = format!("{{\"op\": \"{op}\", \"args\": [");
        for (k, a) in args.iter().enumerate() {
            if k > 0 {
                line.push_str(", ");
            }
            json_string(&mut line, &a.to_string());
        }
        line.push_str("]}\n");
        let mut h = std::collections::hash_map::DefaultHasher::new();
        line.hash(&mut h);
        let key = h.finish();
        let mut guard = lock();
        let Some(s) = guard.as_mut() else { return };
        if !s.seen.insert(key) {
            return;
        }
        if let Err(e) = s.file.write_all(line.as_bytes()) {
            eprintln!("presburger trace: write failed: {e}; not recording any more");
            *guard = None;
            ON.store(false, Ordering::Relaxed);
        }
    }

    /// Append `text` as a JSON string literal.
    fn json_string(out: &mut String, text: &str) {
        out.push('"');
        for c in text.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => out.push(c),
            }
        }
        out.push('"');
    }
}

#[cfg(all(test, feature = "trace"))]
mod tests {
    use crate::{Map, UnionMap};

    /// `cargo test --release -p presburger --features trace --lib trace`
    #[test]
    fn records_outermost_successful_calls_once() {
        let path = std::env::temp_dir().join(format!("presburger-trace-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        super::on::record_to(path.as_os_str());
        // a parameter name no other test uses: other threads may record too
        let a: Map = "[traceprobe] -> { [i] : 0 <= i <= traceprobe }"
            .parse()
            .unwrap();
        let b: Map = "[traceprobe] -> { [i] : i >= 5 }".parse().unwrap();
        let c: Map = "[traceprobe] -> { [i, j] }".parse().unwrap();
        for _ in 0..2 {
            a.intersect(&b).unwrap(); // calls BasicMap::intersect inside
            assert!(a.union(&c).is_err()); // not recorded: it failed
            UnionMap::from_map(a.clone()).lexmin().unwrap(); // calls Map::lexmin inside
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let ours: Vec<&str> = text.lines().filter(|l| l.contains("traceprobe")).collect();
        assert_eq!(
            ours,
            [
                r#"{"op": "intersect", "args": ["[traceprobe] -> { [i] : 0 <= i <= traceprobe }", "[traceprobe] -> { [i] : i >= 5 }"]}"#,
                r#"{"op": "lexmin", "args": ["[traceprobe] -> { [i] : 0 <= i <= traceprobe }"]}"#,
            ],
            "{text}"
        );
    }
}
