void k(int n, double A[8], double B[8]) {
  for (int i = 0; i < n; i++) {
    if (i > 7) { A[i] = 0.0; abort(); } else B[i] = 1.0;
    A[i] = B[i];
  }
}
