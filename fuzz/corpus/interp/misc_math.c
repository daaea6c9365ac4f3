#include <math.h>

/* Reversal with N/2 bound, a written scalar parameter, %, !, ==, casts, libm calls */
void misc_math(int N, double alpha, double A[N], double B[N])
{
  for (int i = 0; i < N / 2; i++) {
    double t = A[i];
    A[i] = A[N - 1 - i];
    A[N - 1 - i] = t;
  }
  alpha = alpha * 0.5;
  for (int i = 0; i < N; i++) {
    if (i % 3 != 1 && !(i == 2))
      B[i] = pow(A[i], 2.0) + exp(-fabs(B[i] - alpha)) / (i + 1);
    else
      B[i] = fmax(A[i], B[i]) - fmin(A[i], -B[i]) * (i % 4) + sqrt(B[i]) + (double)i / 2 + i / 2;
  }
}
