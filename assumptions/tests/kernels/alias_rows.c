// Array parameters without outer extent may overlap like pointers: A is written, B read; each
// spans cells [0, 10 n) when the in-bounds assumption (m <= 10) holds.
// expect-context: [n, m] -> { : -9223372036854775808 <= n, m <= 9223372036854775807 }
// compare-within: [n, m] -> { : n >= 1 and m >= 1 }
// expect-assumed: [n, m] -> { : m <= 10 }
// expect-invalid: [n, m] -> { : false }
// expect-alias: A B extent 10 * n - 10 + m
void alias_rows(long n, long m, double A[][10], double B[][10])
{
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++)
      A[i][j] = B[i][j] + 1.0;
}
