// Restrict pointers never alias; the three-dimensional linearization A[(i * p + j) * q + k]
// has inner extents p and q, and the subscripts stay within them by the loop bounds.
// The offset access B[(i * p + j) * q + k + 1] needs k + 1 < q: q >= r + 1.
// expect-context: [n, p, q, r] -> { : -9223372036854775808 <= n, p, q, r <= 9223372036854775807 }
// compare-within: [n, p, q, r] -> { : n >= 1 and p >= 1 and r >= 1 }
// expect-assumed: [n, p, q, r] -> { : q >= r + 1 }
// expect-invalid: [n, p, q, r] -> { : false }
void restrict_3d(long n, long p, long q, long r, double *restrict A, double *restrict B)
{
  for (long i = 0; i < n; i++)
    for (long j = 0; j < p; j++)
      for (long k = 0; k < r; k++)
        A[(i * p + j) * q + k] = B[(i * p + j) * q + k + 1];
}
