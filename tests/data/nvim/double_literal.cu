// double_literal.cu: the fixture of tests/nvim_lsp.sh (two CU201 findings).
__global__ void decay(float *x, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  for (int s = 0; s < steps; ++s)
    v = /* Dämpfung → */ v * 0.999 + 0.001;
  x[i] = v;
}
