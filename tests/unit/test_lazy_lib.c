/* test_lazy_lib.c: libraries loaded on first call (util/lazy_lib.h): a
 * symbol is found once and kept, and a library or symbol that cannot be
 * found ends the process with exit status 1 and the reason; and a program
 * linked with dra's internals starts without the lazily loaded libraries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "util/lazy_lib.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_symbol_found_and_kept(void **state) {
  (void)state;
  static lazy_lib libm = LAZY_LIB_INIT("libm.so.6");
  static void *_Atomic slot;
  void *cos_in_libm = lazy_lib_symbol(&libm, &slot, "cos");
  /* the library is loaded now: a second open finds it without loading */
  void *loaded = dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD);
  assert_non_null(loaded);
  assert_non_null(cos_in_libm);
  assert_ptr_equal(cos_in_libm, dlsym(loaded, "cos"));
  assert_ptr_equal(atomic_load(&slot), cos_in_libm);
  static void *_Atomic other;
  assert_ptr_equal(lazy_lib_symbol(&libm, &other, "sin"), dlsym(loaded, "sin"));
  assert_ptr_equal(lazy_lib_symbol(&libm, &slot, "cos"), cos_in_libm);
  dlclose(loaded);
}

/* What a child that looks symbol up in soname prints to stderr, and its
 * exit status. */
static int child_lookup(const char *soname, const char *symbol, char *said, size_t room) {
  int pipe_fds[2];
  assert_int_equal(pipe(pipe_fds), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    dup2(pipe_fds[1], 2);
    lazy_lib lib = LAZY_LIB_INIT(soname);
    void *_Atomic slot = NULL;
    lazy_lib_symbol(&lib, &slot, symbol);
    _exit(0);
  }
  close(pipe_fds[1]);
  size_t n = 0;
  ssize_t got;
  while (n + 1 < room && (got = read(pipe_fds[0], said + n, room - 1 - n)) > 0) n += (size_t)got;
  said[n] = 0;
  close(pipe_fds[0]);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static void test_missing_library_ends_the_process(void **state) {
  (void)state;
  char said[512];
  assert_int_equal(child_lookup("libdra-no-such-library.so.0", "f", said, sizeof said), 1);
  assert_non_null(strstr(said, "dra: cannot load libdra-no-such-library.so.0: "));
}

static void test_missing_symbol_ends_the_process(void **state) {
  (void)state;
  char said[512];
  assert_int_equal(child_lookup("libm.so.6", "dra_no_such_call", said, sizeof said), 1);
  assert_non_null(strstr(said, "dra: cannot load libm.so.6: "));
  assert_non_null(strstr(said, "dra_no_such_call"));
  assert_int_equal(child_lookup("libm.so.6", "cos", said, sizeof said), 0);
}

/* A program linked with dra's internals (as the dra binary is) has none of
 * the lazily loaded libraries mapped until it calls into one. */
static void test_not_loaded_at_start(void **state) {
  (void)state;
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps) skip();
  char line[1024];
  int libc_seen = 0;
  while (fgets(line, sizeof line, maps)) {
    if (strstr(line, "/libc.so")) libc_seen = 1;
    assert_null(strstr(line, "libmicrohttpd"));
    assert_null(strstr(line, "libgnutls"));
    assert_null(strstr(line, "libcrypto"));
    assert_null(strstr(line, "libcurl"));
  }
  fclose(maps);
  assert_true(libc_seen);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_not_loaded_at_start),
      cmocka_unit_test(test_symbol_found_and_kept),
      cmocka_unit_test(test_missing_library_ends_the_process),
      cmocka_unit_test(test_missing_symbol_ends_the_process),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
