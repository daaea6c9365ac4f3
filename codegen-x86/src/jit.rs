//! Executable memory and typed entry points: the crate's only `unsafe` code.
//!
//! [`ExecutableMemory`] maps anonymous pages read-write, copies the machine
//! code in, then flips them to read-execute with `mprotect`; the pages are never
//! writable and executable at the same time, and are unmapped when the last
//! handle is dropped. [`JitFunction`] pairs a mapping with a typed entry point
//! so that callers invoke generated code without writing `unsafe` themselves.
//!
//! # The trust boundary
//!
//! Executing bytes is inherently beyond the type system: the machine code must
//! follow the System V ABI, honour the declared [`Signature`], and only touch
//! memory its arguments point to. This crate treats code produced by its own
//! [`Assembler`](crate::Assembler)/[`FunctionBuilder`](crate::FunctionBuilder)
//! as trusted, like a compiler trusts its own output; the `unsafe` blocks below
//! only uphold the memory-mapping invariants.
#![allow(unsafe_code)]

use crate::error::Error;
use std::fmt;
use std::ptr::NonNull;
use std::sync::Arc;

/// An owned `mmap` region; unmapped on drop.
struct Mapping {
    ptr: NonNull<u8>,
    /// Mapped length (whole pages).
    mapped_len: usize,
    /// Number of code bytes at the start of the region.
    code_len: usize,
}

// SAFETY: after construction the region is read/execute-only and never
// mutated, so sharing or moving the handle between threads is sound.
unsafe impl Send for Mapping {}
// SAFETY: as above; all access is read-only.
unsafe impl Sync for Mapping {}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: `ptr`/`mapped_len` describe exactly the region returned by `mmap` in
        // `ExecutableMemory::new`, and no reference into it outlives `self`
        // (borrows of the bytes are tied to the owning handle).
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), self.mapped_len);
        }
    }
}

fn os_error(call: &'static str) -> Error {
    Error::Os {
        call,
        errno: std::io::Error::last_os_error().raw_os_error().unwrap_or(0),
    }
}

/// A fresh private anonymous read-write mapping of `len` bytes (page-aligned
/// by the kernel); the caller owns it and unmaps it.
fn map_anonymous(len: usize) -> Result<NonNull<u8>, Error> {
    // SAFETY: an anonymous private mapping at a kernel-chosen address cannot
    // alias any existing Rust object.
    let raw = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return Err(os_error("mmap"));
    }
    NonNull::new(raw.cast::<u8>()).ok_or_else(|| os_error("mmap"))
}

/// Read-execute memory holding a copy of some machine code.
///
/// Cloning is cheap (the mapping is reference-counted).
///
/// ```
/// use codegen_x86::ExecutableMemory;
/// let mem = ExecutableMemory::new(&[0xc3])?; // ret
/// assert_eq!(mem.bytes(), [0xc3]);
/// # Ok::<(), codegen_x86::Error>(())
/// ```
#[derive(Clone)]
pub struct ExecutableMemory {
    map: Arc<Mapping>,
}

impl fmt::Debug for ExecutableMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExecutableMemory")
            .field("addr", &self.map.ptr)
            .field("code_len", &self.map.code_len)
            .field("mapped_len", &self.map.mapped_len)
            .finish()
    }
}

impl ExecutableMemory {
    /// Maps `code` into fresh pages: RW while copying, then RX.
    ///
    /// ```
    /// use codegen_x86::{Error, ExecutableMemory};
    /// assert_eq!(ExecutableMemory::new(&[]).unwrap_err(), Error::EmptyCode);
    /// let mem = ExecutableMemory::new(&[0x90, 0xc3])?;
    /// assert_eq!((mem.len(), mem.is_empty()), (2, false));
    /// assert!(!mem.as_ptr().is_null());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new(code: &[u8]) -> Result<ExecutableMemory, Error> {
        if code.is_empty() {
            return Err(Error::EmptyCode);
        }
        // SAFETY: sysconf has no memory-safety preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
            .ok()
            .filter(|p| p.is_power_of_two())
            .unwrap_or(4096);
        let len = code.len().div_ceil(page) * page;
        let ptr = map_anonymous(len)?;
        // From here on, `map` unmaps the region on every exit path.
        let map = Mapping {
            ptr,
            mapped_len: len,
            code_len: code.len(),
        };
        // SAFETY: the region is `len >= code.len()` bytes, currently writable,
        // and exclusively ours; `code` cannot overlap a fresh mapping.
        unsafe {
            std::ptr::copy_nonoverlapping(code.as_ptr(), map.ptr.as_ptr(), code.len());
        }
        // SAFETY: `ptr`/`len` are the page-aligned region mapped above.
        let rc =
            unsafe { libc::mprotect(ptr.as_ptr().cast(), len, libc::PROT_READ | libc::PROT_EXEC) };
        if rc != 0 {
            return Err(os_error("mprotect"));
        }
        Ok(ExecutableMemory { map: Arc::new(map) })
    }

    /// Address of the first code byte.
    pub fn as_ptr(&self) -> *const u8 {
        self.map.ptr.as_ptr()
    }

    /// Number of code bytes (not the page-rounded mapping size).
    pub fn len(&self) -> usize {
        self.map.code_len
    }

    /// Always `false`: empty code is rejected by [`ExecutableMemory::new`].
    pub fn is_empty(&self) -> bool {
        self.map.code_len == 0
    }

    /// The code bytes, read back from the executable pages.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: the first `code_len` bytes were initialised by `new`, the
        // pages stay mapped and readable while `self` (hence the Arc) lives,
        // and nothing writes to them after `mprotect`.
        unsafe { std::slice::from_raw_parts(self.map.ptr.as_ptr(), self.map.code_len) }
    }
}

mod sealed {
    pub trait Sealed {}
}

/// Types that may be passed to a JIT function (in integer or vector argument registers).
///
/// Sealed; implemented for `i64`, `u64`, `isize`, `usize`, `f64` and raw pointers to
/// `f64`, `i64` and `u8`.
pub trait Arg: sealed::Sealed + Copy {}

/// Types a JIT function may return (in `rax` or `xmm0`): `()`, `i64`, `u64`,
/// `isize`, `usize`, `f64`. Sealed.
pub trait Ret: sealed::Sealed {}

macro_rules! marker {
    ($tr:ident: $($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl $tr for $t {}
    )*};
}
marker!(Arg: i64, u64, isize, usize, f64, *const f64, *mut f64, *const i64, *mut i64, *const u8, *mut u8);
impl sealed::Sealed for () {}
impl Ret for () {}
impl Ret for i64 {}
impl Ret for u64 {}
impl Ret for isize {}
impl Ret for usize {}
impl Ret for f64 {}

/// A System V function-pointer type a [`JitFunction`] can be called as, e.g.
/// `extern "sysv64" fn(*const f64, usize) -> f64`. Sealed; implemented for up
/// to six [`Arg`]s and one [`Ret`].
pub trait Signature: sealed::Sealed + Copy {
    /// The arguments as a tuple.
    type Args;
    /// The return type.
    type Output;
    /// Calls the function pointer.
    #[doc(hidden)]
    fn invoke(self, args: Self::Args) -> Self::Output;
}

macro_rules! signature {
    ($($a:ident),*) => {
        impl<R: Ret, $($a: Arg),*> sealed::Sealed for extern "sysv64" fn($($a),*) -> R {}
        impl<R: Ret, $($a: Arg),*> Signature for extern "sysv64" fn($($a),*) -> R {
            type Args = ($($a,)*);
            type Output = R;
            #[allow(non_snake_case)]
            fn invoke(self, ($($a,)*): Self::Args) -> R {
                self($($a),*)
            }
        }
    };
}
signature!();
signature!(A);
signature!(A, B);
signature!(A, B, C);
signature!(A, B, C, D);
signature!(A, B, C, D, E);
signature!(A, B, C, D, E, G);

/// Machine code mapped executable, callable as the signature `F`.
///
/// ```
/// use codegen_x86::{Assembler, Gpr, JitFunction};
/// let mut asm = Assembler::new();
/// asm.lea(Gpr::Rax, codegen_x86::Mem::sib(Gpr::Rdi, Gpr::Rsi, codegen_x86::Scale::X1, 0)?);
/// asm.ret();
/// let add: JitFunction<extern "sysv64" fn(i64, i64) -> i64> = JitFunction::new(&asm.finish()?)?;
/// assert_eq!(add.call((40, 2)), 42);
/// # Ok::<(), codegen_x86::Error>(())
/// ```
#[derive(Clone)]
pub struct JitFunction<F: Signature> {
    mem: ExecutableMemory,
    entry: F,
}

impl<F: Signature> fmt::Debug for JitFunction<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JitFunction")
            .field("signature", &std::any::type_name::<F>())
            .field("mem", &self.mem)
            .finish()
    }
}

impl<F: Signature> JitFunction<F> {
    /// Maps `code` (entry point at offset 0) as a function of type `F`.
    ///
    /// ```
    /// use codegen_x86::JitFunction;
    /// // 48 c7 c0 05 00 00 00 = mov rax, 5; c3 = ret
    /// let f: JitFunction<extern "sysv64" fn() -> u64> =
    ///     JitFunction::new(&[0x48, 0xc7, 0xc0, 0x05, 0, 0, 0, 0xc3])?;
    /// assert_eq!(f.call(()), 5);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn new(code: &[u8]) -> Result<JitFunction<F>, Error> {
        Ok(JitFunction::from_memory(ExecutableMemory::new(code)?))
    }

    /// Wraps already-mapped code whose entry point is its first byte.
    ///
    /// ```
    /// use codegen_x86::{ExecutableMemory, JitFunction};
    /// let mem = ExecutableMemory::new(&[0x48, 0x89, 0xf8, 0xc3])?; // mov rax, rdi; ret
    /// let id = JitFunction::<extern "sysv64" fn(i64) -> i64>::from_memory(mem);
    /// assert_eq!(id.call((-3,)), -3);
    /// assert_eq!(id.memory().len(), 4);
    /// # Ok::<(), codegen_x86::Error>(())
    /// ```
    pub fn from_memory(mem: ExecutableMemory) -> JitFunction<F> {
        const { assert!(std::mem::size_of::<F>() == std::mem::size_of::<*const u8>()) };
        let ptr = mem.as_ptr();
        // SAFETY: `F` is (sealed to) an `extern "sysv64" fn` pointer type, which
        // has the size and representation of a non-null code address; `ptr` is
        // a non-null address of executable memory kept alive by `mem`, which
        // this struct owns for as long as `entry` can be called.
        let entry = unsafe { std::mem::transmute_copy::<*const u8, F>(&ptr) };
        JitFunction { mem, entry }
    }

    /// Calls the function with an argument tuple.
    pub fn call(&self, args: F::Args) -> F::Output {
        self.entry.invoke(args)
    }

    /// The underlying executable memory.
    pub fn memory(&self) -> &ExecutableMemory {
        &self.mem
    }
}

/// Zero-initialised `f64` storage in an anonymous mapping of its own, for
/// the arrays and packing buffers of generated code: it starts on a
/// 64-byte line at least, and a buffer of [`HUGE_PAGE`] bytes or more
/// starts on a [`HUGE_PAGE`] boundary and is advised for transparent huge
/// pages (`madvise(MADV_HUGEPAGE)`; where the system does not grant them it
/// stays on ordinary pages). An allocator's block of the same size lies 16
/// or 48 bytes past a line (every 8-double row of a tile then straddles
/// two lines) on 4 KiB pages scattered in physical memory, whose placement
/// in the physically indexed second-level cache changes from process to
/// process (gemm at 1024³ on a Xeon: 72 or 95 ms per run, by process).
///
/// ```
/// use codegen_x86::jit::{DataBuffer, HUGE_PAGE};
/// let mut b = DataBuffer::zeroed(HUGE_PAGE / 8 + 3)?;
/// assert_eq!(b.as_slice().len(), HUGE_PAGE / 8 + 3);
/// assert!(b.as_slice().iter().all(|&x| x == 0.0));
/// assert_eq!(b.as_slice().as_ptr() as usize % HUGE_PAGE, 0);
/// b.as_mut_slice()[5] = 2.5;
/// assert_eq!(b.as_slice()[5], 2.5);
/// assert!(DataBuffer::zeroed(0)?.as_slice().is_empty());
/// # Ok::<(), codegen_x86::Error>(())
/// ```
pub struct DataBuffer {
    /// The mapping (`None` for an empty buffer).
    map: Option<(NonNull<u8>, usize)>,
    /// The first element (dangling when empty).
    data: NonNull<f64>,
    len: usize,
}

/// The size of a transparent huge page on x86-64 (2 MiB).
pub const HUGE_PAGE: usize = 2 << 20;

// SAFETY: the buffer owns its mapping exclusively; access goes through
// `&self` / `&mut self` like a `Vec<f64>`.
unsafe impl Send for DataBuffer {}
// SAFETY: as above: shared references only read.
unsafe impl Sync for DataBuffer {}

impl DataBuffer {
    /// `len` zeros (fresh anonymous pages, all of them touched).
    pub fn zeroed(len: usize) -> Result<DataBuffer, Error> {
        let bytes = len
            .checked_mul(8)
            .filter(|&b| b <= isize::MAX as usize / 2)
            .ok_or(Error::Os {
                call: "mmap",
                errno: libc::ENOMEM,
            })?;
        if bytes == 0 {
            return Ok(DataBuffer {
                map: None,
                data: NonNull::dangling(),
                len: 0,
            });
        }
        let huge = bytes >= HUGE_PAGE;
        // room to move the start to a huge page boundary
        let map_len = if huge {
            bytes.div_ceil(HUGE_PAGE) * HUGE_PAGE + HUGE_PAGE
        } else {
            bytes
        };
        let base = map_anonymous(map_len)?;
        let skip = if huge {
            (HUGE_PAGE - base.as_ptr() as usize % HUGE_PAGE) % HUGE_PAGE
        } else {
            0
        };
        // SAFETY: `skip + bytes <= map_len`: the start stays inside the
        // mapping, which `mmap` page-aligned (so 8-byte aligned).
        let start = unsafe { base.as_ptr().add(skip) };
        if huge {
            // SAFETY: the range lies inside the mapping made above; the
            // advice changes no contents. A refusal is harmless: the pages
            // stay ordinary pages.
            unsafe {
                libc::madvise(
                    start.cast(),
                    bytes.div_ceil(HUGE_PAGE) * HUGE_PAGE,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
        let mut b = DataBuffer {
            map: Some((base, map_len)),
            data: NonNull::new(start.cast::<f64>()).ok_or_else(|| os_error("mmap"))?,
            len,
        };
        // every page in memory now, so that code timed on the buffer does
        // not pay its faults (a 2 MiB page is cleared when first touched)
        for x in b.as_mut_slice().iter_mut().step_by(4096 / 8) {
            *x = 0.0;
        }
        Ok(b)
    }

    /// The elements.
    pub fn as_slice(&self) -> &[f64] {
        // SAFETY: `data` points to `len` initialised (zero-filled, then
        // only written through `as_mut_slice`) f64 inside the mapping,
        // which lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.data.as_ptr(), self.len) }
    }

    /// The elements, writable.
    pub fn as_mut_slice(&mut self) -> &mut [f64] {
        // SAFETY: as in `as_slice`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.data.as_ptr(), self.len) }
    }
}

impl Drop for DataBuffer {
    fn drop(&mut self) {
        if let Some((base, len)) = self.map {
            // SAFETY: exactly the region mapped in `zeroed`; no borrow of
            // the elements outlives `self`.
            unsafe {
                libc::munmap(base.as_ptr().cast(), len);
            }
        }
    }
}

impl fmt::Debug for DataBuffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DataBuffer")
            .field("addr", &self.data)
            .field("len", &self.len)
            .finish()
    }
}

/// CPU time consumed so far by the calling thread, in nanoseconds
/// (`CLOCK_THREAD_CPUTIME_ID`): timing generated code on a shared machine,
/// where wall-clock time mostly measures the load. `None` if the clock is
/// unavailable.
pub fn thread_cpu_ns() -> Option<u128> {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU time consumed so far by all threads of the process, in nanoseconds
/// (`CLOCK_PROCESS_CPUTIME_ID`); `None` if the clock is unavailable.
pub fn process_cpu_ns() -> Option<u128> {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

fn cpu_clock(id: libc::clockid_t) -> Option<u128> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration.
    let r = unsafe { libc::clock_gettime(id, &mut ts) };
    (r == 0).then(|| ts.tv_sec as u128 * 1_000_000_000 + ts.tv_nsec as u128)
}
