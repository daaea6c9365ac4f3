void lin(long n, long m, double *A, double B[][8]) {
  for (long i = 0; i < n; i++)
    for (unsigned j = 0; j < 8; j++)
      A[i * m + j] = A[i * m + j] + B[i][j] * 2.0;
}
