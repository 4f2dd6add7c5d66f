/* Prints every field of the generated plans (plans.inc, listed in list.inc) by name, so a test
 * sees that the positional initializer lands in tempi.h's fields. Compiled as C and as C++. */
#include <tempi/tempi.h>

#include <stdio.h>

#include "plans.inc"

static const tempi_static_plan *const all[] = {
#include "list.inc"
};

int main(void) {
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
    const tempi_static_plan *p = all[i];
    printf("abi=%d key=%016llx start=%lld bytes=%lld ndims=%d counts=", p->abi_version,
           (unsigned long long)p->shape_key, (long long)p->start, (long long)p->bytes, p->ndims);
    for (int d = 0; d < TEMPI_MAX_DIMS; ++d)
      printf("%s%lld", d ? "," : "", (long long)p->counts[d]);
    printf(" strides=");
    for (int d = 0; d < TEMPI_MAX_DIMS; ++d)
      printf("%s%lld", d ? "," : "", (long long)p->strides[d]);
    printf(" extent=%lld lb=%lld size=%lld W=%d slot=%s text=%s\n", (long long)p->extent,
           (long long)p->lb, (long long)p->size, p->word_size, p->runtime_slot ? "set" : "null",
           p->text);
  }
  return 0;
}
