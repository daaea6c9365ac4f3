void k(int N, double A[N]) {
  for (int i = 0; i < N; i++)
    if (i > 0) {
      A[i] = fma;
      abort();
    }
}
