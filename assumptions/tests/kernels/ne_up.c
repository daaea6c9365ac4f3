// `i != b` stepping by 3 from a: affine only when b - a is a non-negative multiple of 3; the
// increment never wraps then (b <= INT_MAX).
// expect-context: [a, b] -> { : -2147483648 <= a, b <= 2147483647 }
// compare-within: [a, b] -> { : a != b }
// expect-assumed: [a, b] -> { : }
// expect-invalid: [a, b] -> { : b < a or (b - a) mod 3 != 0 }
void ne_up(int a, int b, double *restrict A)
{
  for (int i = a; i != b; i += 3)
    A[i] = 1.0;
}
