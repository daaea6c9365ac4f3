#include <math.h>

/* Nussinov-like RNA folding DP with a real-valued pairing score */
void nussinov(int N, double seq[N], double table[N][N])
{
  for (int i = N - 1; i >= 0; i--) {
    for (int j = i + 1; j < N; j++) {
      if (j - 1 >= 0)
        table[i][j] = fmax(table[i][j], table[i][j-1]);
      if (i + 1 < N)
        table[i][j] = fmax(table[i][j], table[i+1][j]);
      if (j - 1 >= 0 && i + 1 < N) {
        if (i < j - 1)
          table[i][j] = fmax(table[i][j], table[i+1][j-1] + seq[i] * seq[j]);
        else
          table[i][j] = fmax(table[i][j], table[i+1][j-1]);
      }
      for (int k = i + 1; k < j; k++)
        table[i][j] = fmax(table[i][j], table[i][k] + table[k+1][j]);
    }
  }
}
