void k(int N, double A[N]) {
  for (int i = 0; i < N; i++) {
    double t = t;
    A[i] = t;
  }
}
