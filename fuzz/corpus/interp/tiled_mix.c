#include <math.h>
#define min(a, b) (((a) < (b)) ? (a) : (b))
#define max(a, b) (((a) > (b)) ? (a) : (b))

/* Tiled band update with min/max bounds, a += 2 step, if/else and a scalar */
void tiled_mix(int N, int M, double A[N][M], double B[N], double x[M])
{
  for (int ii = 0; ii < N; ii += 4)
    for (int i = ii; i < min(ii + 4, N); i++)
      for (int j = max(0, i - 3); j <= min(M - 1, i + 3); j += 2) {
        if (i % 2 == 0 || j > i)
          A[i][j] = A[i][j] + B[i] * x[j];
        else
          A[i][j] = A[i][j] - 0.5 * x[j];
      }
  double s = 0.0;
  for (int i = 0; i < N; i++)
    if (!(i > 3 && i < N - 2))
      s += B[i];
  for (int j = M - 1; j >= 0; j -= 3)
    x[j] = x[j] * s;
}
