/* alloc_explain.c: why claims do not fit on a node (dra allocate --explain). */
#include "alloc/alloc_internal.h"

void alloc_explain(alloc_index *ix, const node *nd, const resource_claim *const *claims, size_t n, bool json,
                   strbuf *sb) {
  (void)ix, (void)nd, (void)claims, (void)n, (void)json;
  sb_puts(sb, "");
}
