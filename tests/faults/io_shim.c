/* An LD_PRELOAD shim for I/O fault injection (after jq's inject_errors.c):
 * CB_FAULT="name:n" makes the n-th call (1-based) of `name` fail, where name
 * is one of fopen, mkstemp, fdopen, fwrite, fflush, fsync, fclose, rename. On exit
 * it writes "name calls" to $CB_FAULT_COUNT (if set) so that a test knows how
 * many call sites there are to try. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long calls;

static int hit(const char *name) {
  const char *spec = getenv("CB_FAULT");
  size_t n = strlen(name);
  if (!spec || strncmp(spec, name, n) != 0 || spec[n] != ':') return 0;
  return ++calls == atol(spec + n + 1);
}

static void *real(const char *name) { return dlsym(RTLD_NEXT, name); }

__attribute__((destructor)) static void report(void) {
  const char *path = getenv("CB_FAULT_COUNT");
  FILE *(*open_real)(const char *, const char *) = real("fopen");
  int (*close_real)(FILE *) = real("fclose");
  if (!path || !open_real || !close_real) return;
  FILE *f = open_real(path, "w");
  if (!f) return;
  fprintf(f, "%ld\n", calls);
  close_real(f);
}

FILE *fopen(const char *path, const char *mode) {
  if (hit("fopen")) return errno = EACCES, NULL;
  return ((FILE * (*)(const char *, const char *)) real("fopen"))(path, mode);
}

int mkstemp(char *tmpl) {
  if (hit("mkstemp")) return errno = EACCES, -1;
  return ((int (*)(char *))real("mkstemp"))(tmpl);
}

FILE *fdopen(int fd, const char *mode) {
  if (hit("fdopen")) return errno = ENOMEM, NULL;
  return ((FILE * (*)(int, const char *)) real("fdopen"))(fd, mode);
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f) {
  if (hit("fwrite")) return errno = ENOSPC, 0;
  return ((size_t(*)(const void *, size_t, size_t, FILE *))real("fwrite"))(p, size, n, f);
}

int fflush(FILE *f) {
  if (f && hit("fflush")) return errno = EIO, EOF;
  return ((int (*)(FILE *))real("fflush"))(f);
}

int fsync(int fd) {
  if (hit("fsync")) return errno = EIO, -1;
  return ((int (*)(int))real("fsync"))(fd);
}

int fclose(FILE *f) {
  if (hit("fclose")) {
    ((int (*)(FILE *))real("fclose"))(f); /* really close it: a failed close still releases the stream */
    return errno = EIO, EOF;
  }
  return ((int (*)(FILE *))real("fclose"))(f);
}

int rename(const char *from, const char *to) {
  if (hit("rename")) return errno = EXDEV, -1;
  return ((int (*)(const char *, const char *))real("rename"))(from, to);
}
