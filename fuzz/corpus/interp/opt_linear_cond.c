void k(int n, int m, double *A, double *B) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if ((i + j) % 2 == 0)
        A[i * m + j] = A[i * m + j] + B[j * n + i] * 0.5;
}
