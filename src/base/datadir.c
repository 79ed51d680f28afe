#include "datadir.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CB_SOURCE_DATADIR
#define CB_SOURCE_DATADIR "."
#endif
#ifndef CB_INSTALL_DATADIR
#define CB_INSTALL_DATADIR "/usr/local/share/crawlbook"
#endif

static char found[PATH_MAX];

static int usable(const char *dir) {
  char probe[PATH_MAX];
  if (!dir || !*dir ||
      snprintf(probe, sizeof probe, "%s/fonts/Vollkorn-Regular.ttf", dir) >= (int)sizeof probe)
    return 0;
  if (access(probe, R_OK) != 0) return 0;
  snprintf(found, sizeof found, "%s", dir);
  return 1;
}

/* Looked for once per process: the answer depends only on the environment
 * and the files, and a batch's workers ask for it at once. */
static pthread_once_t looked = PTHREAD_ONCE_INIT;

static void look(void) {
  if (usable(getenv("CRAWLBOOK_DATADIR"))) return;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      strcpy(slash, "/../share/crawlbook");
      if (usable(exe)) return;
    }
  }
  if (!usable(CB_SOURCE_DATADIR)) usable(CB_INSTALL_DATADIR);
}

const char *cb_datadir(void) {
  pthread_once(&looked, look);
  return found[0] ? found : NULL;
}

/* fontconfig opens every file under the directory (and its subdirectories)
 * and libharu the fonts it loads: a FIFO or a device there blocks both. */
static cb_status check_dir(const char *dir, int depth, cb_error *err) {
  DIR *d = opendir(dir);
  if (!d) return cb_error_set(err, CB_EINPUT, "%s: %s", dir, strerror(errno));
  cb_status st = CB_OK;
  struct dirent *e;
  while (st == CB_OK && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char path[PATH_MAX];
    struct stat sb;
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
      st = cb_error_set(err, CB_EINPUT, "%s/%s: the path is too long", dir, e->d_name);
    else if (stat(path, &sb) != 0)
      st = cb_error_set(err, CB_EINPUT, "%s: %s", path, strerror(errno));
    else if (S_ISDIR(sb.st_mode) && depth < 4)
      st = check_dir(path, depth + 1, err);
    else if (!S_ISREG(sb.st_mode))
      st = cb_error_set(err, CB_EINPUT,
                        "%s: not a regular file (the fonts directory may hold only font files)", path);
  }
  closedir(d);
  return st;
}

cb_status cb_fonts_check(const char *fonts_dir, cb_error *err) { return check_dir(fonts_dir, 0, err); }
