// A linearized pointer access A[i * m + j + s] delinearizes to A[i][j + s] with inner extent m:
// the in-bounds assumption 0 <= j + s < m for 0 <= j < k (when anything runs). B is read with the
// same shape; B is restrict, so no alias check is needed.
// expect-context: [n, m, k, s] -> { : -9223372036854775808 <= n, m, k, s <= 9223372036854775807 }
// compare-within: [n, m, k, s] -> { : n >= 1 and k >= 1 }
// expect-assumed: [n, m, k, s] -> { : s >= 0 and k + s <= m }
// expect-invalid: [n, m, k, s] -> { : false }
void lin_offset(long n, long m, long k, long s, double *A, double *restrict B)
{
  for (long i = 0; i < n; i++)
    for (long j = 0; j < k; j++)
      A[i * m + j + s] = B[i * m + j + s] + 1.0;
}
