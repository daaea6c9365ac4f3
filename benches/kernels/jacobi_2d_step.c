// params: N=4000
// flops: 5*(N-2)*(N-2)
/* One Jacobi sweep of a 2-D five-point stencil: every row of B is
   independent (the outer loop is parallel), the inner loop is unit-stride.
   benches/README.md measures its scaling with --threads. */
void jacobi_2d_step(int N, double A[N][N], double B[N][N])
{
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}
