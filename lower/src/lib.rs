//! # lower: generated loop nests to x86-64
//!
//! The last stage of the pipeline `C → model (scop) → schedule → loops
//! (ast) → machine code`: it takes an [`ast::Node`] (loops, guards, blocks,
//! statement calls `S(e_0, .., e_k)`) and the model's statement bodies
//! (expression trees over array accesses, [`scop::model::Expr`]) and emits
//! one System V function through `codegen-x86`'s encoder; the JIT maps it
//! W^X. `poly run` calls it; `poly compile --emit asm|c` prints it.
//!
//! ## The schedule
//! [`front`] chooses the schedule the loops follow ([`Front::schedule`]):
//! the program's original one, or the affine scheduler's (`scheduler`,
//! from all flow, anti and output dependences) when that puts more
//! statements under a parallel outer loop, respects every dependence
//! ([`respects_dependences`], checked here, not trusted) and loses no
//! vectorized loop or tiled contraction ([`Policy::Auto`]; the rule and
//! its reasons are in the `choice` module). Where neither puts every
//! statement under a parallel outer loop, and the code runs on one
//! thread, sweeps inside an enclosing loop (a time loop) are fused along
//! their outer loops with the least shifts that keep every dependence
//! (module `fuse`) when that halves the arrays they sweep
//! ([`Origin::Fused`]; the fused loop runs on one thread, so on more the
//! parallel sweeps stay: the choice is made for a number of threads,
//! [`front_for`], by default [`default_threads`]). [`front_with`] forces
//! one ([`Policy`]); `poly compile --emit schedule` prints the schedule in
//! use and standard error says which, for how many threads and why.
//!
//! Compilation uses a second core where there is one
//! ([`compile_threads`]): the dependences are computed while the original
//! schedule's loops are generated (they do not need each other), and
//! [`front_versioned`] (what `poly run` compiles with) computes the
//! versioning's analysis ([`Front::assumptions`]) while the schedule is
//! chosen. The answers are those of one thread (checked in the tests);
//! `POLY_COMPILE_THREADS=1` keeps everything on the calling thread. On
//! tiled_mix, the slowest kernel, this takes the latency from ~20 ms of
//! work to 14.5–18.3 ms (`target/release/examples/compile_time 11
//! scop/tests/kernels/tiled_mix.c`, with and without the variable).
//!
//! ## The function
//! One argument (`rdi`): the address of the *argument vector*, one 8-byte
//! slot per signature parameter in order (`int` and `long` as `i64`, `double` as its
//! bits, arrays as pointers), then one pointer per local array. `rbx` keeps
//! it for the whole function; integer parameters are read as memory
//! operands `[rbx+8k]`. The prologue saves `rbp rbx r12–r15` and reserves
//! a fixed frame addressed from `rsp`: slots for outer iterators and
//! bounds, run-time invariants (strides such as `NJ*NK`, computed once in a
//! setup block from the parameters), double constants (four copies, so a
//! packed instruction can read them), scalars (local `double`s and written
//! `double` parameters) and spills around calls.
//!
//! ## Registers and loops
//! * A `for` loop evaluates its first value into its iterator and, when the
//!   condition is `c <= ub` / `c < ub` with `ub` free of `c` (always for
//!   generated code), `ub` once before the loop (loop-invariant bound); the
//!   loop is rotated (test at the bottom, one guard in front).
//! * Innermost loops get the general registers: their iterator and bound,
//!   and one pointer per *group* of accesses (same array, same linear
//!   offset up to a constant): the group's address at the first iteration
//!   is computed once, each access is `[p + disp]`, and `p` advances by the
//!   group's stride per iteration (strength reduction: no multiplication in
//!   the loop). An enclosing loop keeps its iterator and bound in
//!   registers when the innermost loops inside still get theirs (module
//!   `regs`: an upper bound on what they take, outermost loops first, none
//!   around a tiled contraction or a transposed nest), else in frame slots
//!   (tiled_mix's row iterator was reloaded twelve times per row).
//!   Parameter expressions in bounds (`M - 1`) are run-time invariants
//!   read from their slot; a loop's first value and bound are evaluated
//!   straight into their registers, comparisons of variables (`c3 >= c2 +
//!   1`) and low-bit tests (`(c2 - 1) % 2 == 0`) read them in place. `rax`/`rdx`
//!   serve division (`idiv`, `floord`, `%`) and calls; the rest are
//!   allocated first-free, temporaries last; an expression that does not fit
//!   is reported as unsupported.
//! * Double values live in vector registers, allocated first-free from the
//!   sixteen; expression trees are evaluated in source order (no
//!   reassociation, no contraction) in scalar loops, so scalar code gives the
//!   interpreter's results bit for bit, except `exp` (below). `pow` calls
//!   Rust's libm wrapper (the interpreter's function) with live registers
//!   saved in the frame; `sqrt`, `fabs`, `fmin`/`fmax` (with C's NaN rule)
//!   are inline. `exp(x)` is inline for `|x| <= 708` (module `expo`:
//!   `x = k ln 2 + r` by a Cody–Waite split, `e^r` by its degree-13 Taylor
//!   polynomial in Estrin's scheme, `2^k` added to the exponent field;
//!   within 2 ulp of libm, tested on 400 000 arguments; misc_math 6.9 →
//!   5.8 ms of CPU) and calls the wrapper otherwise (NaN, overflow,
//!   subnormal results), when thirteen vector registers are free. A
//!   statement's repeated sub-trees (`2.0 * A[i][j][k]` three times in
//!   heat-3d, module `cse`) are evaluated once into a register; operands
//!   already in registers (hoisted, shared, forwarded) are read by the
//!   three-operand forms without a copy. A division by a constant `c` gives
//!   the quotient bit for bit (module `recip`): `x * (1/c)` for `c = ±2^k`;
//!   in scalar code, for other `c` with `1/c` normal, `q = fma(x, y,`
//!   `RN(x·y_lo))` from the double-word reciprocal `y + y_lo` when `|x|` and
//!   `|x/c|` lie in `[2^-960, 2^1000]` (a range test; `vdivsd` otherwise),
//!   checked by Markstein's correction `q' = fma(fma(−q, c, x), y, q)` (the
//!   correctly rounded quotient), taken when it differs (a predicted
//!   branch, so the check stays off the dependence chain); `vdivpd`
//!   for other constants in vector loops (tested through the JIT on
//!   random bit patterns and the range limits). So scalar loops give the
//!   interpreter's results bit for bit except the inline `exp` (within 2
//!   ulp of libm); `a + x*y` as one FMA (one rounding instead of two)
//!   happens only in vector loops and the tiled contraction (below).
//! * In an innermost loop without guards: an array written at a single
//!   loop-invariant element, and accessed only there, is kept in a register
//!   (scalar promotion: loaded before, stored after); maximal loop-invariant
//!   sub-expressions (`alpha * A[i][k]`, parameters) are computed once before
//!   the loop.
//! * Values carried across iterations (`forward`): when a pointer group
//!   holds one store in the innermost loop and the array's other stores
//!   are apart from its accesses (a subscript that does not move with the
//!   loop differs by a non-zero constant: another row, never the same
//!   element since every access is inside its array's extent), a read of
//!   the group at element offset `k` from the store sees what offset `k +
//!   1` held at the end of the previous iteration, so it is served from a
//!   register rotated at the end of each iteration (seidel's `A[i][j-1]`,
//!   `A[i][j]`, `A[i][j+1]`: one load instead of three, the previous
//!   result without a store-to-load round trip); a read of the stored
//!   element in a later statement takes the stored value (also in vector
//!   loops). When the vector registers do not hold every group's plan,
//!   only the values stored in the last iterations are carried (the reads
//!   that would wait for a store). Stores are not removed; the values are
//!   the interpreter's bit for bit.
//! * Wavefront jam (module `wave`, in [`prepare_with`]): a pair of
//!   unit-step loops `for i { for j { calls } }` that both carry
//!   dependences (the inner one a recurrence, latency-bound: seidel's
//!   element waits for its left neighbour through six additions and the
//!   division) runs four rows at once, row `i + r` lagging `s·r` columns
//!   (`S(i, j); S(i+1, j-s); ..` per iteration, guards split into a
//!   prologue and an epilogue), when the dependences' time differences
//!   `(d_i, d_j)` inside one iteration of the enclosing loops satisfy
//!   `d_i >= 0` and `d_j + s'·d_i >= 0` for some `s' <= 3` (checked on the
//!   model's dependences); `s = s' + 1`, so a row's operand from the row
//!   above comes from an earlier iteration and the four recurrences
//!   overlap. The rows are pointer groups of their own, each carrying its
//!   previous result in a register (above). seidel_2d (`TSTEPS=20
//!   N=1000`, 2-core Xeon under load 10–13, interleaved with main's
//!   binary): CPU per run (`kernel_cpu.py --repeat 5`) 207–249 → 102–106
//!   ms, gcc 257–291 ms; wall (`run_kernels.py --only seidel_2d --repeat
//!   5`) gcc/poly 1.13–1.30 → 1.77–3.68. floyd_warshall's `i`, `j` pair
//!   (a dependence at `j = k + 1`) is jammed too: 220–226 → 186–242 ms of
//!   CPU. The instances are the original ones in another order that
//!   keeps every dependence; the values are the interpreter's bit for bit.
//! * Integer division and remainder by a constant: shifts for powers of
//!   two, a magic multiplier (one-operand `imul`, high half) otherwise;
//!   `x % 2^s == 0` in a guard is one `test`.
//! * An innermost loop prefetches, for each pointer group that moves with
//!   the enclosing loop by a cache line or more, the window it will touch
//!   8 enclosing iterations later. When the loop's first value or bound
//!   depends on the enclosing iterator (a band: the window moves along the
//!   row), they are evaluated at the later iterator, and the group's
//!   address at both prefetched (the end only for a window of at most 16
//!   iterations); prefetching the current window's place in the later row
//!   fetched the line before the one needed. A shift from the current
//!   first value known at compile time (the same bound one row on, module
//!   `affine_fold`) folds into the address's invariant (`prefetcht0 [p +
//!   t]`), a shift in a register scales by the addressing mode, and a
//!   window length bounded at compile time drops the run-time test
//!   (tiled_mix: 22–26 → 10 instructions per innermost loop entry), and a
//!   short window's end whose shift is only bounded (`min(M - 1, c2 + 11)`
//!   against `c2 + 1`: at most 10) is prefetched at the bound, which is
//!   the element itself wherever the `min` does not clip (tiled_mix's JIT
//!   instructions 1 175 007 → 1 049 217). Short loops over rows far
//!   apart (tiled_mix's band: 0.19 → 0.14–0.15 ms of CPU) then overlap
//!   their misses; fixed windows keep the one prefetch of their start.
//!
//! * Guard splitting (`split`, in [`prepare_with`]): a unit-step innermost
//!   loop whose guards test its iterator `c` runs as a prologue and an
//!   epilogue with the original body around a *middle* range in which
//!   every guard atom affine in `c` has one known value (the range starts
//!   at the greatest lower threshold, `c >= t`, and ends at the least upper
//!   one); modulo tests `(k*c + r) % m == 0` with constant `r` are decided
//!   by running the middle in steps of the moduli's lcm (at most 8) from a
//!   multiple of it, one copy of the body per residue. The three ranges
//!   cover the loop's in order, so the instances and their order are
//!   unchanged. misc_math's loop (`i % 3 != 1 && i != 2`, as `c1 % 3 == 0
//!   && c1 >= 3 && N >= c1 + 1 || ...`) becomes a guard-free middle in
//!   steps of 3; a middle without modulo tests may be vectorized (tiled_mix's
//!   sum outside a band of `i`). Loops of other steps split the same way
//!   over their progression (modulo tests stay); guard atoms that do not
//!   mention `c` are unswitched first (`if (a) loop else loop`, at most two
//!   atoms), and the prologue and epilogue resolve the one threshold they
//!   lie beyond and are dropped when nothing is left to run: tiled_mix's
//!   step-2 loop with `c2 % 2 == 0 || c3 >= c2 + 1` runs as a guard-free
//!   loop from `c2 - 3` in even rows and from `c2 + 1` in odd ones, and
//!   its sum over `c1 <= 3 || c1 >= N - 2` runs 4 + 2 iterations instead
//!   of `N` (JIT instructions of tiled_mix under callgrind, 3 runs at N =
//!   M = 4000: 1 492 365 → 1 175 007).
//! * Unrolling of column writes (`unroll`): a guard-free unit-step innermost
//!   loop in which a statement writes an element whose row moves with the
//!   loop (`C[j][i] += ..` in a `j` loop, scalar), or moves by other than
//!   one element (a reversal `A[N - 1 - i]`), is unrolled four times
//!   (plus a remainder loop), so that the counter, the bound test and the
//!   unit-stride pointers are paid once per four iterations and more
//!   iterations (cache misses) fit in the processor's window.
//!
//! ## Vectorization
//! An innermost loop runs four iterations at once in ymm registers when
//! every access is strength-reduced with stride 0 or 1 element, the bodies
//! only use `+ - * /`, negation, `sqrt`, `fabs`, literals and parameters,
//! there are no guards, the step is 1, and every written array is either
//! * accessed through one group at unit stride, where no pair of accesses
//!   at distance `0 < d < 4` (element touched at iteration `x` and again at
//!   `x + d`) has the later access in an earlier statement (or a write
//!   before a read in one statement) — running each statement for four
//!   iterations before the next would reverse that dependence (at `d >= 4`
//!   the two iterations are in different steps of four, in order); or
//! * accessed through several unit-stride groups whose distance is known
//!   only at run time (`A[i][j]` and `A[i-1][j+1]` in a `j` loop: `n - 1`
//!   elements): before the vector loop, the distance of the groups' first
//!   addresses is checked to be at least six elements plus the spread of
//!   the displacements, so no element is touched by two of them within one
//!   4-wide step (nor by a step's store and the half of a read carried
//!   from the step before, below); otherwise the scalar loop runs all
//!   iterations; or
//! * a sum reduction `s = s + e` / `s = s - e` / `s += e` on one invariant
//!   element that nothing else in the loop touches: partial sums in the
//!   lanes (and a second accumulator), folded into lane 0 after the loop.
//!
//! Stride-0 reads and parameters are broadcast before the loop. The main
//! loop does sixteen iterations per trip (the body four times: counter,
//! bound test and pointer updates once per 16 elements; stencil_diag's row
//! loop went from 17 to 14.5 instructions per 8 elements), then four-wide
//! steps while four iterations are left, then the scalar loop finishes.
//! Each trip of the main loop prefetches, for every written unit-stride
//! group that moves by a cache line or more per iteration of the
//! enclosing loop, the two lines its stores cover one enclosing iteration
//! on (`prefetcht0 [p + r]`, `[p + r + 64]`, the row's offset `r` in a
//! register while enough stay free): the next row is then on its way
//! while this one is written, where a short row (stencil_diag's 4.8 kB)
//! ends before the hardware prefetcher follows it and every store waited
//! for its line (stencil_diag on a 2-core Xeon: 0.21–0.24 → 0.16–0.18 ms
//! of CPU per run, gcc -O3 -march=native's zmm loop 0.16–0.18 ms wall).
//! A read two elements before another read of its unit-stride group in the
//! same statement (`A[i-1]` with `A[i+1]`; the group not written in the
//! loop, or its array written only through other groups at a checked
//! distance) is not loaded: it is the high half of the partner's load of
//! the step before and the low half of the current one (`vperm2f128`), two
//! loads per step instead of three for a three-point stencil (jacobi_1d
//! 31.8 → 28.2 ms of CPU, stencil_diag 55 → 49 µs). `a + b*c` becomes
//! `vfmadd231pd` in the vector loop: one rounding instead of two, and
//! reductions are reassociated, so vectorized results differ from the
//! interpreter's in the last bits (the tests allow a relative 1e-9, far
//! above the effect at these sizes). Not vectorized: strided or gathered
//! accesses (`C[j][i]` in a `j` loop), written arrays accessed at distances
//! only known at run time through groups of other strides, calls, integer
//! values, guards, steps other than 1. The per-loop decision and its reason
//! are in [`Compiled::notes`].
//!
//! ## Contractions: packing and register tiles
//! A perfect nest of three unit-step loops around one statement
//! `C[..i..][j] = C[..i..][j] + x * y` (also `x*y + C`, `C - x*y`) is
//! recognised in any loop order (roles: `k` is the loop the written element
//! does not depend on, `j` the loop of its last subscript, which must be
//! `j+const`, `i` the third, alone in another subscript; one factor must
//! not depend on `j`, the other not on `i`, neither may read `C`; the
//! loops' bounds are free of the nest's iterators, except that the `j`
//! loop's may be affine in an outer `i`). Its only dependences are then
//! along `k` for one `(i, j)`, so the nest runs as a BLIS-style gemm: `j`
//! in blocks of 4080, `k` in blocks of `KC` (384 on a 48 KiB first-level
//! cache; the last two of less than `2·KC` steps halved; the `b` factor
//! packed into panels of 8 columns), `i` in blocks of `MC` (120 on a 1 MiB
//! second-level cache, 240 on 2 MiB; the `a` factor packed into panels of
//! 6 rows): the blocks follow the host's cache sizes, read from sysfs
//! (module `blocking`, [`Blocking`]); every 6×8 tile of `C` kept in twelve `ymm`
//! registers over the block's `k` steps: two panel loads, six broadcasts
//! and twelve `vfmadd231pd` per step, the `a` panel prefetched 32 steps
//! ahead (the `b` panel too in the first tile of a column of tiles; the
//! others find it in the first-level cache), and the next tile of `C`
//! prefetched into the second-level cache
//! before the `k` loop and into the first 32 steps before its end (rows of
//! `C` a power of two apart share one set of the first-level cache, where
//! an earlier prefetch evicted the panels and was evicted before use);
//! edge tiles run on a zero-padded copy in the frame. A unit-stride `b`
//! side is packed row by row (each row of the block read in order, 8
//! doubles stored per panel; panels one line longer than their data, so
//! that a row's stores spread over the cache sets). gemm 1024³ on one
//! thread of a loaded 2-core Xeon (`poly run ... --repeat 5 --threads 1`,
//! median CPU per run, best of 14 interleaved invocations): 69.3 → 65.2
//! ms (31.0 → 32.9 GFLOP/s; medians of the 14: 75.6 → 70.6 ms), the 6×8
//! micro-kernel alone taking 53.9 ms for the same flops.
//! A triangular or band nest (syrk's `j <= i`) is tiled over its bounding
//! box: a tile is full when its first and last rows are (the bounds are
//! affine in `i`), an edge tile copies each row's own column range, an
//! empty one is skipped. Packing (module `pack`, its state in one `Pack`
//! context: side, contraction, offsets, iterator slots, `k` range)
//! evaluates each factor with the statement's own operations (the
//! interpreter's values bit for bit): a unit-stride access along the
//! side's role is copied 8 doubles at a time; otherwise the factor's
//! sub-expressions that do not move with `k` (`alpha`, `x[i]`, scalars)
//! are computed once per row of the side into a register, and when its
//! other accesses are unit-stride along `k` (gemm's `alpha * A[i][k]`)
//! four `k` are evaluated at once in a `ymm` register (lane by lane the
//! scalar operations, no contraction) and the four lanes stored to their
//! panel rows (`vunpckhpd`, `vperm2f128`), the last `kc % 4` by the scalar
//! code: 14 instructions per four elements of gemm's `a` side instead of
//! 8 per element, `alpha` no longer reloaded per element; a full panel is
//! packed across its rows four `k` at a time (module `panel`), the rows
//! transposed into whole `k` steps: 8 stores per 24 elements of gemm's
//! `a` side instead of 24. The first tile of each column
//! of tiles also prefetches the next column's `b` panel into the
//! second-level cache, one line per `k` step (a second copy of the
//! unrolled loop; the other tiles run the one without). gemm 512³: 69.1
//! → 68.2 M instructions of generated code (callgrind, `--repeat 1`);
//! 1024³ did not move beyond the machine's noise (session 16, load 10–17
//! on 2 cores: interleaved runs of main's binary and this one, mins of
//! 62–67 ms and, later, 82–90 ms of CPU per run for both). Every element
//! of `C` receives
//! its terms in the original `k` order, each as one FMA: the only change
//! against the C semantics is the single rounding of `c + x*y`, within the
//! 1e-9 tolerance above. The packing buffers are a per-worker workspace
//! ([`Compiled::workspace`] bytes, in the argument vector). Before
//! lowering, [`prepare_with`] distributes a loop that carries no dependence
//! around such a nest (`for i { C[i][j] *= beta; for k for j .. }` becomes
//! two nests; gemm, 2mm, syrk), innermost loops first, and interchanges a
//! reduction pair `for j for k: W[..][j] += e` whose `k` loop is strided
//! into `for k for j` (doitgen's `sum[p] += A[s] * C4[s][p]`: then
//! vectorized; each element's terms keep their order). Not tiled: a `k`
//! loop whose bounds depend on `i` (trmm), subscripts like `C[i + j]`, a
//! factor reading `C`, guards inside.
//!
//! ## Column nests: 4×4 blocks with register transposes
//! A unit-step loop `c1` around one unit-step loop `c2` of statement calls,
//! whose bounds do not depend on `c1`, in which every written array is
//! contiguous along `c1` (`C[j][i]`: a column walk along `c2`) and some
//! read is contiguous along `c2` (`B[i][j]`), runs by strips of four `c1`
//! (module `transpose`, which the column unrolling above leaves alone). In
//! a strip, each block of four `c2` loads the `c2`-contiguous reads of the
//! four rows four wide (`vmovupd` at `B[i+s][j]`, `s = 0..3`) and
//! transposes them: `vunpcklpd`/`vunpckhpd` pair rows 0–1 and 2–3 within
//! 128-bit halves, `vperm2f128` (`0x20`, `0x31`) joins the halves, giving
//! `B[i..i+3][j+r]` for `r = 0..3`. Then, per `r`, each statement's value
//! is evaluated four wide with its lanes along `c1` (the scalar code's
//! operations and order, no FMA: the interpreter's results bit for bit),
//! `c1`-contiguous reads loaded at row `j+r`, and stored to `C[j+r][i..i+3]`
//! (row distances in registers `s` and `3s`, or added to the pointer when
//! registers are short). A read of an array `t` that an earlier statement
//! wrote at the same element in the same iteration (lrr_listing1's
//! `t[i+j]`) is *forwarded*: it takes that *producer*'s value, which must
//! read only arrays the nest does not write. The producers' stores run
//! after the strip's blocks, row by row in the original order (so `t`
//! keeps its final values), and the leftover columns and rows run the
//! original body. Legality comes from the model's subscripts, not the
//! kernel's shape: every array a non-producer writes is accessed at one
//! element `f(c1, c2)` of rank 2 (no dependence between iterations), the
//! producers and the rest touch disjoint written arrays; otherwise (a read
//! of `t` not from this iteration, a producer reading `C`, `x[i+j] +=`, a
//! triangle) the nest is lowered as
//! before (tests in `lower/tests/transpose.rs`). lrr_listing1 (both nests), CPU
//! 24.6 → 14.1 ms at the checker's size (`kernel_cpu.py`; gcc 22–23).
//!
//! ## Unroll-and-jam (off by default)
//! [`prepare_with`] can unroll-and-jam a top-level loop that carries no
//! dependence and whose statements all write along their innermost loop
//! (`for i { for k { for j { S(i,k,j) } } }` → `S(i..i+F-1, k, j)` in the
//! `j` loop, plus a remainder loop); the copies are independent
//! iterations, which the vectorizer is told ([`Copies`]). Without loads
//! shared between copies it does not pay yet, so [`prepare`] uses factor 1.
//!
//! ## Workers
//! [`compile_pieces`] compiles each top-level loop nest as its own
//! function; a nest whose outer loop `c_l` carries no dependence among its
//! statements ([`parallel_dims`]: flow, anti and output dependences from
//! `dataflow`, mapped to schedule times, never differ at `l` when they
//! agree before it) reads a chunk number `t` and count `T` from the
//! argument vector and runs iterations `n*t/T .. n*(t+1)/T` of its `n`.
//! A nest whose outer loop carries a dependence (a time loop) also gets a
//! [`Nest`] when a loop inside it, under at most two sequential loops,
//! carries none among its own statements (heat_3d's and jacobi_1d's sweeps
//! inside `t`, fdtd_2d's four): the sequential loops and guards around
//! such loops become steps that the driver runs (bounds evaluated in
//! Rust), each parallel loop a chunked function and each maximal stretch
//! of code between them a plain one, all reading the enclosing iterators
//! from the argument vector. Statements outside the parallel loops run
//! once, on the calling thread, in the nest's order; an instance of a
//! parallel loop ends, all its chunks done, before the next step (the
//! barrier), so every dependence between steps is respected.
//!
//! [`run_pieces`] runs the pieces in order on a team of worker threads
//! started once for all runs (the `workers` module): an instance of a
//! parallel loop is a *job*, published through one atomic ticket per
//! worker (the job's number and that worker's range of chunks, four chunks
//! per worker, one for a tiled contraction, which repacks its shared
//! factor per chunk); each worker takes its own range first (the same rows
//! in every instance: a time loop's sweeps find them in its core's cache)
//! and then what is left of the others', by compare-and-swap, and the
//! caller waits, spinning, until every chunk is done. Idle workers spin
//! for 50 µs, yield for 0.5 ms, then park; parked workers are woken for a
//! nest's instances (a series: once woken they stay awake) and for a
//! parallel piece that took 0.5 ms or more, while a shorter piece only
//! gets the workers still awake (waking a thread costs a system call, and
//! on a loaded machine the woken thread can take the caller's processor
//! for a time slice: tiled_mix's 0.2 ms went to 3–14 ms). A worker the
//! system has not scheduled takes nothing and delays nothing: the caller
//! runs the chunks.
//! The choices are made at run time: an instance runs on the team when its
//! loop's previous instance took at least a threshold on one thread (its
//! time, or its time on the team times the workers that took part), on
//! the calling thread otherwise (stencil_diag's rows: too short to split);
//! a piece with a nest runs as one function in its first run, as the nest
//! in its second, then as whichever was faster last, so the driver's
//! work per step never makes a kernel slower than the one-function code.
//! [`run_adaptive`] (what `poly run` calls with more than one thread for
//! a kernel with a loop to share)
//! also holds the kernel as one function (the one-thread code): its first
//! run runs that on the calling thread, and so do the later runs while
//! the fastest such run took less than [`SEQUENTIAL_NS`] (1 ms); only a
//! longer kernel runs as pieces, its parallel loops then on the team from
//! their first instance. Below a millisecond the pieces and the team
//! cost more than a second core saves: tiled_mix at N = M = 4000 took
//! 0.34 ms on two threads and 0.22 ms as one function on one (idle 2-core
//! Xeon; which part of the difference is the pieces' separate calls and
//! which the hand-over was not isolated).
//! `poly run` allocates the arrays once and refills them before each run,
//! as the gcc harness of the shared checker does (a fresh copy per run
//! left short kernels slower in their first runs: stencil_diag at
//! `--repeat 5`, 46 → 39 µs).
//! Scalars live in a scalar area shared through the argument vector, so
//! values cross pieces and leaves.
//!
//! ## Safety
//! The compiled code has no bounds checks: [`accesses_in_bounds`] proves
//! with the engine that every access of every executed instance is inside
//! its array at the given sizes, and `poly run` uses the interpreter
//! otherwise (as it does for any [`Error::Unsupported`] construct), saying
//! so on standard error. Arrays are assumed not to overlap (they are
//! distinct allocations in `poly run`).
//!
//! ```
//! let src = "void axpy(int N, double a, double X[N], double Y[N]) {
//!   for (int i = 0; i < N; i++)
//!     Y[i] = Y[i] + a * X[i];
//! }";
//! let front = lower::front(src).unwrap();
//! let (kernel, loops) = lower::kernel_and_loops(&front).unwrap();
//! let code = lower::compile(&kernel, &loops).unwrap();
//! assert!(code.notes[0].contains("vectorized"));
//! assert!(code.asm_text().contains("vfmadd231pd"));
//! let args = ["N=10".to_string()];
//! let run = lower::run(&code, &kernel, &front.function, &args, 1, &mut |_, _| {}).unwrap();
//! let reference = scop::commands::interp_function(&front.function, &args).unwrap();
//! assert_eq!(run.checksums.lines().next(), reference.lines().next()); // X unchanged
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod affine_fold;
mod blocking;
mod body;
mod choice;
mod contract;
mod coverable;
mod cprint;
mod cse;
mod emit;
mod error;
mod expo;
mod forward;
mod function;
mod fuse;
mod jam;
mod kernel;
mod linear;
mod nest;
mod nested;
mod pack;
mod panel;
mod parallel;
mod pipeline;
mod prefetch;
mod recip;
mod regs;
mod run;
mod split;
mod state;
mod tile;
mod transpose;
mod unroll;
mod vector;
mod wave;
mod workers;

pub use blocking::Blocking;
pub use choice::{
    choose, choose_for, original_schedule, scheduler_schedule, Chosen, FusedLoops, Origin, Policy,
};
pub use cprint::c_function;
pub use emit::{Inst, Listed, MemSize, Operand, Width};
pub use error::{Error, Result};
pub use function::{
    compile, compile_jammed, compile_pieces, compile_pieces_beside, statements_of, Compiled, Piece,
};
pub use jam::{jam_outer, writes_move_inside, Copies};
pub use kernel::{AccessInfo, ArrayInfo, Kernel, ParamClass, StmtInfo, Storage};
pub use linear::{Lin, Poly};
pub use nested::{Nest, Step};
pub use parallel::{parallel_dims, respects_dependences};
pub use pipeline::{
    compile_threads, default_threads, front, front_for, front_versioned, front_with,
    kernel_and_loops, loops, parallel_in, prepare, prepare_with, schedule, version, Front, JAM,
};
pub use run::{
    accesses_in_bounds, median, parse_assignments, run, run_adaptive, run_pieces, FmaControl,
    KernelFn, Outcome, RunContext, SEQUENTIAL_NS,
};
