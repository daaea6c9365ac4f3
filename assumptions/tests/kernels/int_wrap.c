// The int subscript i + s leaves the int range when s + n - 1 > INT_MAX: a restriction.
// expect-context: [n, s] -> { : -2147483648 <= n, s <= 2147483647 }
// compare-within: [n, s] -> { : n >= 1 }
// expect-assumed: [n, s] -> { : }
// expect-invalid: [n, s] -> { : n + s >= 2147483649 }
void int_wrap(int n, int s, double *restrict A)
{
  for (int i = 0; i < n; i++)
    A[i + s] = A[i + s] + 1.0;
}
