// Two pointers accessed with the same linearized shape: no assumption, but A and B may overlap;
// each spans cells [0, n*m) where it runs.
// expect-context: [n, m] -> { : -9223372036854775808 <= n, m <= 9223372036854775807 }
// compare-within: [n, m] -> { : n >= 1 and m >= 1 }
// expect-assumed: [n, m] -> { : }
// expect-invalid: [n, m] -> { : false }
// expect-alias: A B extent n*m
void copy_alias(long n, long m, double *A, double *B)
{
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++)
      A[i * m + j] = 2.0 * B[m * i + j];
}
