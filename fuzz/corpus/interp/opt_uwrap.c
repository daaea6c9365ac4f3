void uwrap(unsigned n, double A[16], double B[16]) {
  for (unsigned i = 0; i < 16; i++)
    A[(i - n) % 16] = A[(i - n) % 16] + B[i] * (i - n);
}
