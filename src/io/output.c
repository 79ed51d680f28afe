#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"

/* What a name turns out to be once its links are followed. */
typedef enum { TARGET_NEW, TARGET_FILE, TARGET_STREAM, TARGET_STDOUT } target_kind;

typedef struct target {
  target_kind kind;
  char *path;     /* the name with every link followed; NULL for standard output */
  struct stat sb; /* of an existing file */
} target;

struct cb_output {
  char *path, *tmp; /* path NULL for stdout, tmp NULL for a stream */
  FILE *f;
  int err;  /* errno of the first failed write, 0 if none */
  int keep; /* an existing file's mode and owner to keep */
  struct stat old;
};

/* The temporary file a signal must remove: a static copy, since a handler
 * may not touch the heap. */
static char sig_tmp[4096];
static volatile sig_atomic_t sig_armed;

static void on_signal(int sig) {
  if (sig_armed) unlink(sig_tmp);
  signal(sig, SIG_DFL);
  raise(sig);
}

void cb_output_trap_signals(void) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction sa;
    /* a signal ignored by whoever started us (nohup) stays ignored */
    if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN) continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

static void arm(const char *tmp) {
  sig_armed = 0;
  if (strlen(tmp) >= sizeof sig_tmp) return; /* too long to keep: not cleaned on a signal */
  memcpy(sig_tmp, tmp, strlen(tmp) + 1);
  sig_armed = 1;
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = cb_malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

/* The name a symbolic link at path points to, relative to path's directory. */
static char *link_target(const char *path, int *e) {
  char buf[4096];
  ssize_t n = readlink(path, buf, sizeof buf - 1);
  if (n < 0) return *e = errno, NULL;
  buf[n] = '\0';
  const char *slash = strrchr(path, '/');
  size_t dirlen = buf[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
  char *p = cb_malloc(dirlen + (size_t)n + 1);
  if (!p) return *e = ENOMEM, NULL;
  memcpy(p, path, dirlen);
  memcpy(p + dirlen, buf, (size_t)n + 1);
  return p;
}

/* Follows path's links to what they name; 0 or an errno. */
static int follow(const char *path, target *t) {
  char *cur = dup_str(path);
  if (!cur) return ENOMEM;
  for (int hops = 0; hops < 40; hops++) {
    if (lstat(cur, &t->sb) != 0) {
      int e = errno;
      if (e != ENOENT) return free(cur), e;
      t->kind = TARGET_NEW, t->path = cur;
      return 0;
    }
    if (!S_ISLNK(t->sb.st_mode)) {
      t->kind = TARGET_FILE, t->path = cur;
      return 0;
    }
    int e = 0;
    char *next = link_target(cur, &e);
    free(cur);
    if (!next) return e;
    cur = next;
  }
  free(cur);
  return ELOOP;
}

static const char OOM[] = "out of memory";

/* A name that exists: the kernel follows its links (even /proc's to a
 * pipe); only a regular file needs the name they lead to. */
static const char *classify(const char *path, target *t, const struct stat *sb) {
  struct stat so;
  int mode = fcntl(STDOUT_FILENO, F_GETFL); /* a closed standard output, opened read-only (main.c) */
  if (mode != -1 && (mode & O_ACCMODE) != O_RDONLY && fstat(STDOUT_FILENO, &so) == 0 &&
      so.st_dev == sb->st_dev && so.st_ino == sb->st_ino)
    return t->kind = TARGET_STDOUT, NULL; /* /dev/stdout and its like */
  if (S_ISDIR(sb->st_mode)) return "it is a directory";
  if (S_ISFIFO(sb->st_mode) || S_ISCHR(sb->st_mode)) {
    t->kind = TARGET_STREAM, t->path = dup_str(path);
    return t->path ? NULL : OOM;
  }
  if (!S_ISREG(sb->st_mode)) return "it is not a regular file, a FIFO or a character device";
  if (sb->st_nlink > 1)
    return "it has more than one hard link, and replacing it would break them (remove it or write elsewhere)";
  int e = follow(path, t);
  return e == ENOMEM ? OOM : e ? strerror(e) : NULL;
}

/* What path names, or CB_EINPUT with the reason it cannot be written. */
static cb_status resolve(const char *path, target *t, cb_error *err) {
  memset(t, 0, sizeof *t);
  if (!path || !*path) return cb_error_set(err, CB_EINPUT, "the output file name is empty");
  if (strcmp(path, "-") == 0) return t->kind = TARGET_STDOUT, CB_OK;
  struct stat sb;
  const char *why = NULL;
  if (stat(path, &sb) == 0)
    why = classify(path, t, &sb);
  else if (errno != ENOENT)
    why = strerror(errno);
  else if ((errno = follow(path, t)) != 0) /* new, or a dangling link's target */
    why = errno == ENOMEM ? OOM : strerror(errno);
  if (why) {
    free(t->path);
    t->path = NULL;
    if (why == OOM) return cb_error_oom(err);
    return cb_error_set(err, CB_EINPUT, "cannot write '%s': %s", path, why);
  }
  return CB_OK;
}

/* The directory a new file at path goes into must let us add one. */
static cb_status check_dir(const char *path, const char *name, cb_error *err) {
  const char *slash = strrchr(path, '/');
  char dir[4096];
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
  if (access(dir, W_OK | X_OK) != 0)
    return cb_error_set(err, CB_EINPUT, "cannot write '%s': %s", name, strerror(errno));
  return CB_OK;
}

cb_status cb_output_check(const char *path, cb_error *err) {
  target t;
  cb_status st = resolve(path, &t, err);
  if (st == CB_OK && (t.kind == TARGET_NEW || t.kind == TARGET_FILE)) st = check_dir(t.path, path, err);
  free(t.path);
  return st;
}

/* A stream (FIFO, device): opened as it is, written in place. */
static cb_status open_stream(cb_output *o, const char *name, cb_error *err) {
  int fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return cb_error_set(err, CB_EINPUT, "cannot write '%s': %s", name, strerror(errno));
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    close(fd);
    return cb_error_oom(err);
  }
  return CB_OK;
}

/* A temporary file beside o->path, renamed into place by commit. */
static cb_status open_temp(cb_output *o, const char *name, cb_error *err) {
  const char *slash = strrchr(o->path, '/');
  size_t dirlen = slash ? (size_t)(slash - o->path) + 1 : 0, cap = strlen(o->path) + 16;
  o->tmp = cb_malloc(cap);
  if (!o->tmp) return cb_error_oom(err);
  snprintf(o->tmp, cap, "%.*s.%s.XXXXXX", (int)dirlen, o->path, o->path + dirlen);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    return cb_error_set(err, CB_EINPUT, "cannot write '%s': %s", name, strerror(e));
  }
  arm(o->tmp);
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    close(fd);
    return cb_error_oom(err);
  }
  return CB_OK;
}

bool cb_output_is_stdout(const char *path) {
  target t;
  cb_error err = {0};
  if (resolve(path, &t, &err) != CB_OK) return false;
  free(t.path);
  return t.kind == TARGET_STDOUT;
}

cb_status cb_output_open(const char *path, cb_output **out, cb_error *err) {
  *out = NULL;
  target t;
  cb_status st = resolve(path, &t, err);
  if (st != CB_OK) return st;
  cb_output *o = cb_calloc(1, sizeof *o);
  if (!o) {
    free(t.path);
    return cb_error_oom(err);
  }
  if (t.kind == TARGET_STDOUT) {
    free(t.path);
    o->f = stdout;
    *out = o;
    return CB_OK;
  }
  o->path = t.path;
  o->keep = t.kind == TARGET_FILE;
  o->old = t.sb;
  st = t.kind == TARGET_STREAM ? open_stream(o, path, err) : open_temp(o, path, err);
  if (st != CB_OK) {
    cb_output_abort(o);
    return st;
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

/* The mode (and owner, where we may) the renamed file gets: an existing
 * file's own, a new file's from the umask. */
static int set_mode(cb_output *o) {
  int fd = fileno(o->f);
  if (!o->keep) {
    mode_t mask = umask(0);
    umask(mask);
    return fchmod(fd, 0666 & ~mask) == 0 ? 0 : errno;
  }
  if (o->old.st_uid != geteuid() || o->old.st_gid != getegid())
    (void)!fchown(fd, o->old.st_uid, o->old.st_gid); /* not ours to give: it stays ours */
  return fchmod(fd, o->old.st_mode & 0777) == 0 ? 0 : errno;
}

/* Why standard output failed: EBADF is a closed one (main.c opens it read-only). */
static const char *stdout_why(int e) { return e == EBADF ? "it is closed" : strerror(e); }

/* Standard output and streams: flushed, nothing to rename. */
static cb_status commit_stream(cb_output *o, cb_error *err) {
  if (!o->err && fflush(o->f) != 0) o->err = errno;
  if (o->f != stdout && fclose(o->f) != 0 && !o->err) o->err = errno;
  o->f = NULL;
  cb_status st = CB_OK;
  if (o->err && o->path)
    st = cb_error_set(err, CB_EINTERNAL, "cannot write '%s': %s", o->path, strerror(o->err));
  else if (o->err)
    st = cb_error_set(err, CB_EINTERNAL, "cannot write to standard output: %s", stdout_why(o->err));
  cb_output_abort(o);
  return st;
}

cb_status cb_output_commit(cb_output *o, cb_error *err) {
  if (!o->tmp) return commit_stream(o, err);
  if (!o->err && fflush(o->f) != 0) o->err = errno;
  if (!o->err && fsync(fileno(o->f)) != 0 && errno != EINVAL) o->err = errno;
  if (!o->err) o->err = set_mode(o);
  if (fclose(o->f) != 0 && !o->err) o->err = errno;
  o->f = NULL;
  if (!o->err && rename(o->tmp, o->path) != 0) o->err = errno;
  if (o->err) {
    cb_status st = cb_error_set(err, CB_EINTERNAL, "cannot write '%s': %s", o->path, strerror(o->err));
    cb_output_abort(o);
    return st;
  }
  sig_armed = 0;
  free(o->tmp);
  free(o->path);
  free(o);
  return CB_OK;
}

void cb_output_abort(cb_output *o) {
  if (!o) return;
  if (o->f && o->f != stdout) fclose(o->f);
  if (o->tmp) unlink(o->tmp);
  sig_armed = 0;
  free(o->tmp);
  free(o->path);
  free(o);
}

cb_status cb_output_fail(cb_output *o, cb_status st, cb_error *err) {
  if (o && o->err) {
    *err = (cb_error){0};
    if (o->path)
      st = cb_error_set(err, CB_EINTERNAL, "cannot write '%s': %s", o->path, strerror(o->err));
    else
      st = cb_error_set(err, CB_EINTERNAL, "cannot write to standard output: %s", stdout_why(o->err));
  }
  cb_output_abort(o);
  return st;
}
