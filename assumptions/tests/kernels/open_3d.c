// An array parameter without outer extent: the inner extents 20 and 30 bound j and k + 1.
// expect-context: [n, p, q] -> { : -9223372036854775808 <= n, p, q <= 9223372036854775807 }
// compare-within: [n, p, q] -> { : n >= 1 and p >= 1 and q >= 1 }
// expect-assumed: [n, p, q] -> { : p <= 20 and q <= 29 }
// expect-invalid: [n, p, q] -> { : false }
void open_3d(long n, long p, long q, double A[restrict][20][30])
{
  for (long i = 0; i < n; i++)
    for (long j = 0; j < p; j++)
      for (long k = 0; k < q; k++)
        A[i][j][k + 1] = A[i][j][k] * 0.5;
}
