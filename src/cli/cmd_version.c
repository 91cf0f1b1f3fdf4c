/* cmd_version.c: `dra version` (also `dra --version`): dra's release, the
 * Kubernetes level it implements, and the build (commit, tree state, date,
 * compiler), as the server's /version reports them. */
#include "commands.h"
#include "util/build_info.h"
#include <stdio.h>
#include <string.h>

int cmd_version(int argc, char **argv) {
  if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    puts("usage: dra version\n\nPrints dra's release, the Kubernetes level it implements and the build.");
    return 0;
  }
  if (argc > 1) {
    fprintf(stderr, "error: unknown flag: %s\n", argv[1]);
    return 2;
  }
  printf("dra %s, Kubernetes v%s.%s (%s)\n", dra_build.release, dra_build.kube_major, dra_build.kube_minor,
         dra_build.git_version);
  printf("commit: %s (%s)\n", dra_build.git_commit[0] ? dra_build.git_commit : "unknown",
         dra_build.tree_state[0] ? dra_build.tree_state : "not built from git");
  printf("built: %s, %s, %s\n", dra_build.build_date, dra_build.compiler, dra_build.platform);
  return 0;
}
