void down(int n, double *restrict A, double *B) {
  for (int i = n; i != 0; i -= 2)
    A[i] = B[i - 1] + A[i];
}
