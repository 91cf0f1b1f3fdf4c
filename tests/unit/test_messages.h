/* test_messages.h: kube-apiserver's long validation messages (the name
 * formats of apimachinery's pkg/util/validation),
 * written out once for every validation test, and the rendering of an error
 * list as one "path: body" line per error. */
#ifndef DRA_TEST_MESSAGES_H
#define DRA_TEST_MESSAGES_H
#include "util/fielderr.h"
#include "util/strbuf.h"
#include <stdlib.h>

#define LABEL_RE                                                                                                   \
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end " \
  "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "                 \
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
#define SUBDOMAIN_RE                                                                                              \
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "   \
  "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "            \
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
#define CID_RE                                                                                                    \
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "    \
  "characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is "              \
  "'[A-Za-z_][A-Za-z0-9_]*')"
#define KEY_CHARS                                                                                                 \
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "      \
  "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "                       \
  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
#define VALUE_RE                                                                                                  \
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "    \
  "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for " \
  "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
#define FQN_MSG "a fully qualified name must be a domain and a name separated by a slash"
#define REF_MSG "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"
#define ADMIN_DENIED                                                                                                 \
  "Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the " \
  "containing namespace"

static inline char *render_errors(const errlist *e) {
  strbuf sb = STRBUF_INIT;
  for (size_t i = 0; i < e->n; i++) {
    char *t = field_error_text(&e->items[i]);
    if (i) sb_putc(&sb, '\n');
    sb_puts(&sb, t);
    free(t);
  }
  return sb_detach(&sb);
}

#endif
