/* kubeconfig.c: see kubeconfig.h. */
#include "server/kubeconfig.h"
#include "util/strbuf.h"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

bool kubeconfig_write(const char *dir, const char *server_url, bool tls, const char *token) {
  strbuf path = STRBUF_INIT;
  sb_printf(&path, "%s/kubeconfig", dir);
  int fd = open(sb_str(&path), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  sb_free(&path);
  if (fd < 0) return false;
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    return false;
  }
  fprintf(f,
          "apiVersion: v1\nkind: Config\nclusters:\n- name: dra\n  cluster:\n    server: %s\n%s"
          "contexts:\n- name: dra\n  context:\n    cluster: dra\n    user: dra\n    namespace: default\n"
          "current-context: dra\nusers:\n- name: dra\n  user:%s%s\n",
          server_url, tls ? "    insecure-skip-tls-verify: true\n" : "", token ? "\n    token: " : " {}",
          token ? token : "");
  return fclose(f) == 0;
}
