/* exec_credential.c: running an exec credential plugin (see
 * exec_credential.h); messages as k8s.io/client-go
 * plugin/pkg/client/auth/exec/exec.go words them. */
#include "exec_credential.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define GROUP "client.authentication.k8s.io/"

static int known_version(const char *v) { return v && (!strcmp(v, GROUP "v1") || !strcmp(v, GROUP "v1beta1")); }

int exec_credential_parse(const char *api_version, const char *text, size_t len, exec_result *out, char *err,
                          size_t errlen) {
  memset(out, 0, sizeof *out);
  json_error_t jerr;
  json_t *doc = json_loadb(text, len, 0, &jerr);
  int rc = -1;
  if (!json_is_object(doc)) {
    snprintf(err, errlen, "decoding stdout: couldn't get version/kind; json parse error: %s", jerr.text);
    goto out;
  }
  const char *kind = json_string_value(json_object_get(doc, "kind"));
  const char *got = json_string_value(json_object_get(doc, "apiVersion"));
  if (!kind || strcmp(kind, "ExecCredential")) {
    snprintf(err, errlen, "decoding stdout: no kind \"%s\" is registered for version \"%s\"", kind ? kind : "",
             got ? got : "");
    goto out;
  }
  if (!got || strcmp(got, api_version)) {
    snprintf(err, errlen, "exec plugin is configured to use API version %s, plugin returned version %s",
             api_version, got ? got : "");
    goto out;
  }
  const json_t *status = json_object_get(doc, "status");
  if (!json_is_object(status)) {
    snprintf(err, errlen, "exec plugin didn't return a status field");
    goto out;
  }
  const char *token = json_string_value(json_object_get(status, "token"));
  const char *cert = json_string_value(json_object_get(status, "clientCertificateData"));
  const char *key = json_string_value(json_object_get(status, "clientKeyData"));
  if ((!token || !*token) && (!cert || !*cert) && (!key || !*key)) {
    snprintf(err, errlen, "exec plugin didn't return a token or cert/key pair");
    goto out;
  }
  if ((cert && *cert) != (key && *key)) {
    snprintf(err, errlen, "exec plugin returned only certData or keyData");
    goto out;
  }
  if (token && *token) out->token = strdup(token);
  if (cert && *cert) {
    out->cert = (kc_bytes){(unsigned char *)strdup(cert), strlen(cert)};
    out->key = (kc_bytes){(unsigned char *)strdup(key), strlen(key)};
  }
  rc = 0;
out:
  json_decref(doc);
  return rc;
}

static char *read_fd(int fd, size_t *len) {
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  if (!buf) abort();
  for (;;) {
    ssize_t got = read(fd, buf + n, cap - n - 1);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    n += (size_t)got;
    if (n + 1 == cap && !(buf = realloc(buf, cap *= 2))) abort();
  }
  buf[n] = 0;
  *len = n;
  return buf;
}

int exec_credential_run(const kc_exec *x, exec_result *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  if (!known_version(x->api_version)) {
    snprintf(err, errlen, "exec plugin: invalid apiVersion \"%s\"", x->api_version ? x->api_version : "");
    return -1;
  }
  if (!strcmp(x->api_version, GROUP "v1") && (!x->interactive_mode || !*x->interactive_mode)) {
    snprintf(err, errlen, "exec plugin: interactiveMode must be specified for %s to use exec authentication plugin",
             x->command);
    return -1;
  }
  if (x->interactive_mode && !strcmp(x->interactive_mode, "Always") && !isatty(STDIN_FILENO)) {
    snprintf(err, errlen, "exec plugin cannot support interactive mode: standard input is not a terminal");
    return -1;
  }
  int interactive = x->interactive_mode && strcmp(x->interactive_mode, "Never") && isatty(STDIN_FILENO);
  char info[256];
  snprintf(info, sizeof info,
           "{\"kind\":\"ExecCredential\",\"apiVersion\":\"%s\",\"spec\":{\"interactive\":%s}}",
           x->api_version, interactive ? "true" : "false");
  int fds[2], ready[2];
  if (pipe(fds) || pipe2(ready, O_CLOEXEC)) { /* ready closes on a successful exec */
    snprintf(err, errlen, "exec: %s", strerror(errno));
    return -1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(err, errlen, "exec: fork: %s", strerror(errno));
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    close(ready[0]);
    dup2(fds[1], STDOUT_FILENO);
    for (char **e = x->env; e && *e; e++) putenv(*e);
    setenv("KUBERNETES_EXEC_INFO", info, 1);
    size_t n = 0;
    while (x->args && x->args[n]) n++;
    char **argv = calloc(n + 2, sizeof *argv);
    if (!argv) _exit(127);
    argv[0] = x->command;
    for (size_t i = 0; i < n; i++) argv[i + 1] = x->args[i];
    execvp(x->command, argv);
    int e = errno; /* tells the parent why exec failed */
    if (write(ready[1], &e, sizeof e) < 0) _exit(127);
    _exit(127);
  }
  close(fds[1]);
  close(ready[1]);
  int exec_errno = 0;
  ssize_t got = read(ready[0], &exec_errno, sizeof exec_errno);
  close(ready[0]);
  size_t len;
  char *text = read_fd(fds[0], &len);
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  int rc = -1;
  if (got == (ssize_t)sizeof exec_errno) {
    if (exec_errno == ENOENT)
      snprintf(err, errlen, "exec: executable %s not found", x->command);
    else
      snprintf(err, errlen, "exec: fork/exec %s: %s", x->command, strerror(exec_errno));
  } else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
    snprintf(err, errlen, "exec: executable %s failed with exit code %d", x->command,
             WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  } else {
    rc = exec_credential_parse(x->api_version, text, len, out, err, errlen);
  }
  free(text);
  return rc;
}

void exec_result_free(exec_result *r) {
  free(r->token);
  free(r->cert.data);
  free(r->key.data);
  memset(r, 0, sizeof *r);
}
