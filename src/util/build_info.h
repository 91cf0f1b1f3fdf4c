/* build_info.h: what this build of dra is: its release, the Kubernetes
 * level it implements, and the commit it was built from. `dra version` and
 * the server's /version print it. */
#ifndef DRA_BUILD_INFO_H
#define DRA_BUILD_INFO_H

typedef struct build_info {
  const char *release;      /* dra's own version, "0.1.0" */
  const char *kube_major;   /* the Kubernetes release implemented: "1" */
  const char *kube_minor;   /* "37" */
  const char *git_version;  /* as /version's gitVersion: "v1.37.0+dra.0.1.0" */
  const char *git_commit;   /* "" outside a git checkout */
  const char *tree_state;   /* "clean", "dirty" or "" */
  const char *build_date;   /* the commit's date, RFC 3339 UTC */
  const char *compiler;     /* the C compiler, e.g. "gcc 12.2.0" */
  const char *platform;     /* "linux/amd64" */
} build_info;

extern const build_info dra_build;

#endif
