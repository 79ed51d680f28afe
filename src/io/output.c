#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/alloc.h"

struct cb_output {
  char *path, *tmp; /* tmp NULL for stdout */
  FILE *f;
  int err; /* errno of the first failed write, 0 if none */
};

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = cb_malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

cb_status cb_output_open(const char *path, cb_output **out, cb_error *err) {
  *out = NULL;
  if (!path || !*path) return cb_error_set(err, CB_EINPUT, "the output file name is empty");
  cb_output *o = cb_calloc(1, sizeof *o);
  if (!o) return cb_error_set(err, CB_EINTERNAL, "out of memory");
  if (strcmp(path, "-") == 0) {
    o->f = stdout;
    *out = o;
    return CB_OK;
  }
  struct stat sb;
  if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    free(o);
    return cb_error_set(err, CB_EINPUT, "cannot write '%s': it is a directory", path);
  }
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  o->path = dup_str(path);
  o->tmp = cb_malloc(strlen(path) + 16);
  if (!o->path || !o->tmp) {
    cb_output_abort(o);
    return cb_error_set(err, CB_EINTERNAL, "out of memory");
  }
  snprintf(o->tmp, strlen(path) + 16, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    cb_output_abort(o);
    return cb_error_set(err, CB_EINPUT, "cannot write '%s': %s", path, strerror(e));
  }
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    close(fd);
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    cb_output_abort(o);
    return cb_error_set(err, CB_EINTERNAL, "out of memory");
  }
  *out = o;
  return CB_OK;
}

cb_status cb_output_write(void *out, const unsigned char *data, size_t len) {
  cb_output *o = out;
  if (o->err) return CB_EINTERNAL;
  if (len && fwrite(data, 1, len, o->f) != len) {
    o->err = errno ? errno : EIO;
    return CB_EINTERNAL;
  }
  return CB_OK;
}

cb_status cb_output_commit(cb_output *o, cb_error *err) {
  if (!o->tmp) {
    int bad = o->err || fflush(o->f) != 0;
    int e = o->err ? o->err : errno;
    free(o);
    return bad ? cb_error_set(err, CB_EINTERNAL, "cannot write to standard output: %s", strerror(e)) : CB_OK;
  }
  if (!o->err && fflush(o->f) != 0) o->err = errno;
  if (!o->err && fsync(fileno(o->f)) != 0 && errno != EINVAL) o->err = errno;
  mode_t mask = umask(0);
  umask(mask);
  if (!o->err && fchmod(fileno(o->f), 0666 & ~mask) != 0) o->err = errno;
  if (fclose(o->f) != 0 && !o->err) o->err = errno;
  o->f = NULL;
  if (!o->err && rename(o->tmp, o->path) != 0) o->err = errno;
  if (o->err) {
    cb_status st = cb_error_set(err, CB_EINTERNAL, "cannot write '%s': %s", o->path, strerror(o->err));
    cb_output_abort(o);
    return st;
  }
  free(o->tmp);
  free(o->path);
  free(o);
  return CB_OK;
}

void cb_output_abort(cb_output *o) {
  if (!o) return;
  if (o->f && o->f != stdout) fclose(o->f);
  if (o->tmp) unlink(o->tmp);
  free(o->tmp);
  free(o->path);
  free(o);
}
