// A call of an unknown function on an error path: the parameters under which it runs are a
// restriction and the branch is not part of the model.
// expect-context: [n, m] -> { : -9223372036854775808 <= n, m <= 9223372036854775807 }
// compare-within: [n, m] -> { : n >= 1 }
// expect-assumed: [n, m] -> { : }
// expect-invalid: [n, m] -> { : m <= n - 2 }
void error_path(long n, long m, double *restrict A)
{
  for (long i = 0; i < n; i++) {
    if (i > m)
      abort();
    A[i] = 3.0;
  }
}
