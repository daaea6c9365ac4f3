#include <math.h>

/* C := alpha*A*A^T + beta*C, lower triangle (PolyBench syrk) */
void syrk(int N, int M, double alpha, double beta, double C[N][N], double A[N][M])
{
  int i, j, k;
  for (i = 0; i < N; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < M; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
}
