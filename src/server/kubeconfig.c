/* kubeconfig.c: see kubeconfig.h. Certificates and keys are embedded
 * base64-encoded (the *-data fields), as kind and kubeadm write them. */
#include "server/kubeconfig.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void base64_field(FILE *f, const char *indent, const char *field, const char *pem) {
  size_t n = strlen(pem);
  unsigned char *out = xmalloc(4 * ((n + 2) / 3) + 1);
  EVP_EncodeBlock(out, (const unsigned char *)pem, (int)n);
  fprintf(f, "%s%s: %s\n", indent, field, out);
  free(out);
}

bool kubeconfig_write(const char *dir, const char *server_url, const kubeconfig_creds *creds) {
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
  fprintf(f, "apiVersion: v1\nkind: Config\nclusters:\n- name: dra\n  cluster:\n    server: %s\n", server_url);
  if (creds->tls && creds->ca_cert) base64_field(f, "    ", "certificate-authority-data", creds->ca_cert);
  else if (creds->tls) fputs("    insecure-skip-tls-verify: true\n", f);
  fputs("contexts:\n- name: dra\n  context:\n    cluster: dra\n    user: dra\n    namespace: default\n"
        "current-context: dra\nusers:\n- name: dra\n  user:",
        f);
  if (creds->client_cert && creds->client_key) {
    fputc('\n', f);
    base64_field(f, "    ", "client-certificate-data", creds->client_cert);
    base64_field(f, "    ", "client-key-data", creds->client_key);
  } else if (creds->token) {
    fprintf(f, "\n    token: %s\n", creds->token);
  } else {
    fputs(" {}\n", f);
  }
  return fclose(f) == 0;
}
