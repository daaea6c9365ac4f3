void early(int n, int m, double A[16], double B[16]) {
  for (int i = 0; i < n; i++) {
    if (i > m)
      return;
    A[i] = A[i] + B[i];
  }
  B[0] = 1.0;
}
