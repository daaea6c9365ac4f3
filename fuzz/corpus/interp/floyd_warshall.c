#include <math.h>

/* All-pairs shortest paths (PolyBench floyd-warshall, with fmin) */
void floyd_warshall(int N, double path[N][N])
{
  for (int k = 0; k < N; k++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        path[i][j] = fmin(path[i][j], path[i][k] + path[k][j]);
}
