/* session.h: one kubectl dra run: kubectl's global flags (--kubeconfig,
 * --context, --cluster, --user, -n/--namespace, -A/--all-namespaces,
 * -s/--server, --token, --certificate-authority, --client-certificate,
 * --client-key, --insecure-skip-tls-verify, --tls-server-name,
 * --request-timeout, --chunk-size, -o/--output) with the command's own,
 * then the kubeconfig, the client and discovery. */
#ifndef KDRA_SESSION_H
#define KDRA_SESSION_H
#include "api.h"
#include "output.h"
#include <stdbool.h>

typedef enum flag_type { FLAG_STRING, FLAG_BOOL, FLAG_STRINGS } flag_type;

/* A command's flag: a string (const char **), a bool (bool *), or a
 * repeatable string (flag_strings *). */
typedef struct flag {
  const char *name;
  char short_name;
  flag_type type;
  void *value;
} flag;

typedef struct flag_strings {
  const char *items[16];
  size_t n;
} flag_strings;

typedef struct session {
  kc_overrides o;
  kc_config cfg;
  api a;
  out_format format;
  bool all_namespaces, help;
  const char *namespace_;  /* the namespace to read; NULL with -A */
  const char *args[8];     /* positional arguments */
  size_t n_args;
  char err[2048];
} session;

/* Parses argv (after the command name) with the command's flags (ending
 * in {0}); false with s->err set on a bad flag. */
bool session_parse(session *s, int argc, char **argv, const flag *extra);
/* Reads the kubeconfig, opens the client and discovers the versions. */
bool session_connect(session *s);
void session_close(session *s);
/* Prints "error: <s->err>" and returns 1. */
int session_fail(session *s);



/* A libdra context holding the snapshot of the kinds (namespaced kinds in
 * the session's namespace, all with -A unless all_namespaces is forced);
 * NULL with s->err set. */
dra_ctx *session_snapshot(session *s, unsigned what, bool every_namespace);
/* session_parse, --help, session_connect and session_snapshot in one,
 * keeping of the objects read what keep says (api.h; NULL: all but their
 * managedFields): the context, or NULL with *rc the exit code (0 after
 * --help). */
dra_ctx *session_start(session *s, int argc, char **argv, const flag *flags, const char *usage, unsigned what,
                       const api_keep *keep, bool every_namespace, int *rc);
/* Prints the command's usage when --help was given; true if it did. */
bool session_help(const session *s, const char *usage);
#endif
