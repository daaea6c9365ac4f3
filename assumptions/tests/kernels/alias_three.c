// Three pointers, one written: A against B and A against C are compared, B against C (both only
// read) is not. The long loop `i != n` is a restriction for n < 0.
// expect-context: [n] -> { : -9223372036854775808 <= n <= 9223372036854775807 }
// compare-within: [n] -> { : n != 0 }
// expect-assumed: [n] -> { : }
// expect-invalid: [n] -> { : n < 0 }
// expect-alias: A B extent n
void alias_three(long n, double *A, double *B, double *C)
{
  for (long i = 0; i != n; i++)
    A[i] = B[i] * C[i];
}
