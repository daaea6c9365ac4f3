// An int subscript j + s of a long-indexed array with inner extent 10: the in-bounds assumption
// 0 <= s <= 5 and, separately, the int restriction s + 4 <= INT_MAX.
// expect-context: [n, s] -> { : -9223372036854775808 <= n <= 9223372036854775807 and -2147483648 <= s <= 2147483647 }
// compare-within: [n, s] -> { : n >= 1 }
// expect-assumed: [n, s] -> { : 0 <= s <= 5 }
// expect-invalid: [n, s] -> { : s >= 2147483644 }
void mixed_types(long n, int s, double A[][10])
{
  for (long i = 0; i < n; i++)
    for (int j = 0; j < 5; j++)
      A[i][j + s] = 1.0;
}
