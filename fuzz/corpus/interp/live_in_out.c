// Live-range reordering must keep the live-in value of A read before A is
// overwritten (S1), and the live-out value of B written last (S2), although
// no read protects either: the forced dependences of the scheduler.
void live_in_out(int N, double A[N], double B[N]) {
  for (int i = 0; i < N; i++)
    B[i] = A[N - 1 - i];
  for (int i = 0; i < N; i++)
    A[i] = 1.0;
  for (int i = 0; i < N; i++)
    B[N - 1 - i] = 2.0;
}
