#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  if (!dir || !*dir || snprintf(probe, sizeof probe, "%s/fonts/Vollkorn-Regular.ttf", dir) >= (int)sizeof probe)
    return 0;
  if (access(probe, R_OK) != 0) return 0;
  snprintf(found, sizeof found, "%s", dir);
  return 1;
}

const char *cb_datadir(void) {
  if (found[0]) return found;
  if (usable(getenv("CRAWLBOOK_DATADIR"))) return found;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      strcpy(slash, "/../share/crawlbook");
      if (usable(exe)) return found;
    }
  }
  if (usable(CB_SOURCE_DATADIR) || usable(CB_INSTALL_DATADIR)) return found;
  return NULL;
}
