#include <math.h>

/* Cholesky factorization of the lower triangle, made diagonally dominant first */
void cholesky(int N, double A[N][N])
{
  for (int i = 0; i < N; i++)
    A[i][i] += 2 * N;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (int k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = sqrt(A[i][i]);
  }
}
