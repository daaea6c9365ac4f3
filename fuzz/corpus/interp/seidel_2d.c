#include <math.h>

/* 9-point Gauss-Seidel sweep (PolyBench seidel-2d) */
void seidel_2d(int TSTEPS, int N, double A[N][N])
{
  for (int t = 0; t <= TSTEPS - 1; t++)
    for (int i = 1; i <= N - 2; i++)
      for (int j = 1; j <= N - 2; j++)
        A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
                   + A[i][j-1] + A[i][j] + A[i][j+1]
                   + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0;
}
