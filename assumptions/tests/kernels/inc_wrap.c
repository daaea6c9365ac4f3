// `i <= n` with n = INT_MAX never fails: i + 1 wraps to INT_MIN (a restriction on the increment);
// the subscript i - s leaves the int range when n - s > INT_MAX.
// expect-context: [n, s] -> { : -2147483648 <= n, s <= 2147483647 }
// compare-within: [n, s] -> { : s <= n }
// expect-assumed: [n, s] -> { : }
// expect-invalid: [n, s] -> { : n = 2147483647 or n - s >= 2147483648 }
void inc_wrap(int n, int s, double *restrict A)
{
  for (int i = s; i <= n; i++)
    A[i - s] = 1.0;
}
