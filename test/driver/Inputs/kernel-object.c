/* Stands in for an object tempi-cc compiled from a rewritten source: it calls a tempi_* entry
   point and registers a CUDA fat binary, the two marks tempi-cc looks for when it links. */
void tempi_fake_entry(void);
void __cudaRegisterFatBinary(void);
void stand_in_kernels(void) {
  tempi_fake_entry();
  __cudaRegisterFatBinary();
}
