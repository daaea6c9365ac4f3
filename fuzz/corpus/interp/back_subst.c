#include <math.h>

/* Back substitution U x = b with a decrementing loop and a local scalar */
void back_subst(int N, double U[N][N], double b[N], double x[N])
{
  for (int i = N - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < N; j++)
      s -= U[i][j] * x[j];
    x[i] = s / (U[i][i] + N);
  }
}
