/* continue_token.h: the opaque `continue` token of paginated lists. */
#ifndef DRA_SRV_CONTINUE_TOKEN_H
#define DRA_SRV_CONTINUE_TOKEN_H
#include "api/object.h"
#include <stdbool.h>
#include <stdint.h>

/* A token resuming after last, issued at store revision rv. malloc'd. */
char *continue_token_make(uint64_t rv, const object_meta *last);
/* The "<namespace>/<name>" a page starts after (malloc'd into *start);
 * false when the token is not one this server issued. The key is not
 * ordered as text: list.c compares its two parts the way the store orders
 * objects (namespace, then name). */
bool continue_token_parse(const char *token, char **start);

#endif
