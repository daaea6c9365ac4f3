// An unsigned iterator compared with an int bound: n is converted to unsigned, so a negative n
// makes the loop run about 2^32 times instead of not at all: a restriction.
// expect-context: [n] -> { : -2147483648 <= n <= 2147483647 }
// compare-within: [n] -> { : n != 0 }
// expect-assumed: [n] -> { : }
// expect-invalid: [n] -> { : n < 0 }
void unsigned_iter(int n, double *restrict A)
{
  for (unsigned i = 0; i < n; i++)
    A[i] = 2.0;
}
