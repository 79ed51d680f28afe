#include "template.h"

#include <errno.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/bom.h"
#include "base/text.h"

#include "base/datadir.h"
#include "page/page.h"
#include "page/sizes.h"

void cb_template_default(cb_template *t) {
  memset(t, 0, sizeof *t);
  snprintf(t->name, sizeof t->name, "one-page");
  t->layout = CB_LAYOUT_SHEET;
  t->margin_mm = CB_MARGIN_MM;
  t->sections =
      CB_SECTION_COVER | CB_SECTION_MAPS | CB_SECTION_KEY | CB_SECTION_EXTRAS | CB_SECTION_PLAYER_MAP;
  t->pad_to = 1;
}

static cb_status fail_at(const char *file, const config_setting_t *s, cb_error *err, const char *msg,
                         const char *detail) {
  return cb_error_set(err, CB_EINPUT, "%s:%u: %s%s", file, s ? config_setting_source_line(s) : 0, msg,
                      detail ? detail : "");
}

cb_status cb_template_check_room(const cb_template *t, double page_w, double page_h, cb_error *err) {
  double w = page_w / CB_PT_PER_MM - 2 * t->margin_mm, h = page_h / CB_PT_PER_MM - 2 * t->margin_mm;
  if (w >= CB_MIN_ROOM_MM - 1e-9 && h >= CB_MIN_ROOM_MM - 1e-9) return CB_OK;
  return cb_error_set(err, CB_EINPUT,
                      "%smargins of %g mm on a %.4g x %.4g mm page leave %.4g x %.4g mm for the "
                      "contents; they need at least %d x %d mm",
                      t->margin_at, t->margin_mm, page_w / CB_PT_PER_MM, page_h / CB_PT_PER_MM, w, h,
                      CB_MIN_ROOM_MM, CB_MIN_ROOM_MM);
}

static const struct {
  const char *name;
  unsigned bit;
} sections[] = {{"cover", CB_SECTION_COVER},       {"maps", CB_SECTION_MAPS},
                {"key", CB_SECTION_KEY},           {"extras", CB_SECTION_EXTRAS},
                {"appendix", CB_SECTION_APPENDIX}, {"player-map", CB_SECTION_PLAYER_MAP}};

static cb_status read_page(const char *file, config_setting_t *page, cb_template *t, cb_error *err) {
  for (int i = 0; i < config_setting_length(page); i++) {
    config_setting_t *s = config_setting_get_elem(page, (unsigned)i);
    const char *key = config_setting_name(s);
    if (strcmp(key, "size") == 0) {
      const char *v = config_setting_get_string(s);
      if (!cb_page_size_named(v, &t->page_w, &t->page_h))
        return fail_at(file, s, err, "page.size must be \"a4\", \"letter\", \"a5\" or \"half-letter\"", NULL);
    } else if (strcmp(key, "width_mm") == 0 || strcmp(key, "height_mm") == 0) {
      double v =
          config_setting_type(s) == CONFIG_TYPE_INT ? config_setting_get_int(s) : config_setting_get_float(s);
      if ((config_setting_type(s) != CONFIG_TYPE_INT && config_setting_type(s) != CONFIG_TYPE_FLOAT) ||
          v < 90 || v > 1200)
        return fail_at(file, s, err, key, " must be a number of millimetres from 90 to 1200");
      *(key[0] == 'w' ? &t->page_w : &t->page_h) = v * CB_PT_PER_MM;
    } else if (strcmp(key, "landscape") == 0) {
      if (config_setting_type(s) != CONFIG_TYPE_BOOL)
        return fail_at(file, s, err, "page.landscape must be true or false", NULL);
      t->landscape = config_setting_get_bool(s);
    } else if (strcmp(key, "margin_mm") == 0) {
      double v =
          config_setting_type(s) == CONFIG_TYPE_INT ? config_setting_get_int(s) : config_setting_get_float(s);
      if ((config_setting_type(s) != CONFIG_TYPE_INT && config_setting_type(s) != CONFIG_TYPE_FLOAT) ||
          v < 3.2 || v > 40)
        return fail_at(file, s, err, "page.margin_mm must be from 3.2 (1/8 in) to 40", NULL);
      t->margin_mm = v;
      snprintf(t->margin_at, sizeof t->margin_at, "%.300s:%u: ", file, config_setting_source_line(s));
    } else {
      return fail_at(file, s, err, "unknown page setting ", key);
    }
  }
  if ((t->page_w > 0) != (t->page_h > 0))
    return fail_at(file, page, err, "page needs both width_mm and height_mm", NULL);
  return t->page_w > 0 ? cb_template_check_room(t, t->page_w, t->page_h, err) : CB_OK;
}

/* "cards, letters and doors": the keys a tables group may use. */
static const char *key_list(const char *const *keys, char *buf, size_t cap) {
  size_t n = 0;
  while (keys && keys[n])
    n++;
  return cb_text_join(buf, cap, keys, n, "", "", " and ");
}

/* tables = { KEY = "name or path"; ... }: each KEY one of the procedures'
 * table options (`keys`). */
static cb_status read_tables(const char *file, config_setting_t *s, const char *const *keys, cb_template *t,
                             cb_error *err) {
  char msg[400];
  if (!config_setting_is_group(s)) {
    snprintf(msg, sizeof msg, "tables must be a group: tables = { %s = \"...\"; };",
             keys && keys[0] ? keys[0] : "letters");
    return fail_at(file, s, err, msg, NULL);
  }
  for (int k = 0; k < config_setting_length(s); k++) {
    config_setting_t *e = config_setting_get_elem(s, (unsigned)k);
    const char *which = config_setting_name(e), *v = config_setting_get_string(e);
    bool known = false;
    for (int i = 0; keys && keys[i]; i++)
      known |= strcmp(keys[i], which) == 0;
    if (!known || strlen(which) >= sizeof t->tables[0].key) {
      char names[300];
      snprintf(msg, sizeof msg, "tables may name %s; not ", key_list(keys, names, sizeof names));
      return fail_at(file, e, err, msg, which);
    }
    if (!v || !*v || strlen(v) >= sizeof t->tables[0].value)
      return fail_at(file, e, err, "a table must be a name or a path", NULL);
    if (t->ntables == CB_TEMPLATE_MAX_TABLES) return fail_at(file, e, err, "too many tables", NULL);
    snprintf(t->tables[t->ntables].key, sizeof t->tables[0].key, "%s", which);
    snprintf(t->tables[t->ntables++].value, sizeof t->tables[0].value, "%s", v);
  }
  return CB_OK;
}

static cb_status read_root(const char *file, config_t *cfg, const char *const *keys, cb_template *t,
                           cb_error *err) {
  config_setting_t *root = config_root_setting(cfg);
  for (int i = 0; i < config_setting_length(root); i++) {
    config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
    const char *key = config_setting_name(s);
    cb_status st = CB_OK;
    if (strcmp(key, "layout") == 0) {
      const char *v = config_setting_get_string(s);
      if (v && strcmp(v, "sheet") == 0)
        t->layout = CB_LAYOUT_SHEET;
      else if (v && strcmp(v, "booklet") == 0)
        t->layout = CB_LAYOUT_BOOKLET;
      else if (v && strcmp(v, "zine8") == 0)
        t->layout = CB_LAYOUT_ZINE8;
      else
        st = fail_at(file, s, err, "layout must be \"sheet\", \"booklet\" or \"zine8\"", NULL);
    } else if (strcmp(key, "style") == 0) {
      const char *v = config_setting_get_string(s);
      if (v && strcmp(v, "ink") == 0)
        t->colour = false;
      else if (v && (strcmp(v, "colour") == 0 || strcmp(v, "color") == 0))
        t->colour = true;
      else
        st = fail_at(file, s, err, "style must be \"ink\" or \"colour\"", NULL);
    } else if (strcmp(key, "page") == 0) {
      if (!config_setting_is_group(s))
        st = fail_at(file, s, err, "page must be a group: page = { size = \"a4\"; };", NULL);
      else
        st = read_page(file, s, t, err);
    } else if (strcmp(key, "sections") == 0) {
      if (!config_setting_is_array(s) && !config_setting_is_list(s))
        return fail_at(file, s, err, "sections must be a list of names, e.g. [\"cover\", \"maps\", \"key\"]",
                       NULL);
      t->sections = 0;
      for (int k = 0; k < config_setting_length(s); k++) {
        const char *v = config_setting_get_string_elem(s, k);
        unsigned bit = 0;
        for (size_t j = 0; v && j < sizeof sections / sizeof *sections; j++)
          if (strcmp(v, sections[j].name) == 0) bit = sections[j].bit;
        if (!bit)
          return fail_at(file, s, err,
                         "sections may name cover, maps, key, extras, appendix and player-map; not ",
                         v ? v : "that");
        t->sections |= bit;
      }
      if (!t->sections)
        return fail_at(file, s, err,
                       "sections must name at least one of cover, maps, key, extras, appendix and "
                       "player-map",
                       NULL);
    } else if (strcmp(key, "tables") == 0) {
      st = read_tables(file, s, keys, t, err);
    } else if (strcmp(key, "pad_to") == 0) {
      int v = config_setting_get_int(s);
      if (config_setting_type(s) != CONFIG_TYPE_INT || (v != 1 && v != 2 && v != 4))
        st = fail_at(file, s, err, "pad_to must be 1, 2 or 4", NULL);
      else
        t->pad_to = v;
    } else if (strcmp(key, "name") == 0) {
      const char *v = config_setting_get_string(s);
      if (!v || strlen(v) >= sizeof t->name)
        st = fail_at(file, s, err, "name must be a short string", NULL);
      else
        snprintf(t->name, sizeof t->name, "%s", v);
    } else {
      st = fail_at(file, s, err, "unknown setting ", key);
    }
    if (st != CB_OK) return st;
  }
  return CB_OK;
}

/* The line of the first @include libconfig would open (one starting a line
 * outside a comment or a string, as its scanner reads them), 0 when none. */
static int include_line(const char *text) {
  enum { CODE, BLOCK, STRING } in = CODE;
  int line = 1;
  bool start = true; /* only blanks so far on this line */
  for (const char *c = text; *c; c++) {
    if (*c == '\n') {
      line++, start = true;
      continue;
    }
    if (in == BLOCK) {
      if (c[0] == '*' && c[1] == '/') in = CODE, c++;
    } else if (in == STRING) {
      if (*c == '\\' && c[1] && c[1] != '\n')
        c++;
      else if (*c == '"')
        in = CODE;
    } else if (start && strncmp(c, "@include", 8) == 0) {
      return line;
    } else if (*c == '#' || (c[0] == '/' && c[1] == '/')) {
      c += strcspn(c, "\n") - 1; /* to the end of the line */
    } else if (c[0] == '/' && c[1] == '*') {
      in = BLOCK, c++;
    } else if (*c == '"') {
      in = STRING;
    }
    start = start && (*c == ' ' || *c == '\t');
  }
  return 0;
}

cb_status cb_template_load(const char *name, const char *const *table_keys, cb_template *t, cb_error *err) {
  cb_template_default(t);
  char path[4096];
  size_t n = strlen(name);
  const char *dir = cb_datadir();
  if (!n || n > 1000) return cb_error_set(err, CB_EINPUT, "--template: give a template name or file");
  if (strchr(name, '/') || (n > 4 && strcmp(name + n - 4, ".cfg") == 0) || !dir)
    snprintf(path, sizeof path, "%s", name);
  else
    snprintf(path, sizeof path, "%s/templates/%s.cfg", dir, name);
  /* read it ourselves: libconfig's scanner exits the process when a read
   * fails (a directory, say), and a template is small */
  struct stat sb;
  if (stat(path, &sb) != 0)
    return cb_error_set(err, CB_EINPUT, "--template %s: %s: %s", name, path, strerror(errno));
  if (!S_ISREG(sb.st_mode))
    return cb_error_set(err, CB_EINPUT, "--template %s: %s is not a file", name, path);
  if (sb.st_size > 1 << 20)
    return cb_error_set(err, CB_EINPUT, "--template %s: %s is larger than 1 MiB", name, path);
  FILE *f = fopen(path, "rb");
  if (!f) return cb_error_set(err, CB_EINPUT, "--template %s: %s: %s", name, path, strerror(errno));
  char *text = cb_malloc((size_t)sb.st_size + 1);
  size_t got = text ? fread(text, 1, (size_t)sb.st_size, f) : 0;
  int bad = !text || ferror(f);
  fclose(f);
  if (bad) {
    free(text);
    return cb_error_set(err, text ? CB_EINPUT : CB_EINTERNAL, "--template %s: cannot read %s", name, path);
  }
  text[got] = '\0';
  int lineno;
  if (strlen(text) != got) {
    free(text);
    return cb_error_set(err, CB_EINPUT, "%s: holds a NUL byte: not a text file", path);
  }
  if (cb_starts_with_bom(text, got)) {
    free(text);
    return cb_error_set(err, CB_EINPUT, "%s:1: %s", path, CB_BOM_MSG);
  }
  /* libconfig 1.5 opens an @include itself, from the current directory, with
   * none of the checks above (a directory ends the process, a FIFO hangs) */
  if ((lineno = include_line(text)) > 0) {
    free(text);
    return cb_error_set(err, CB_EINPUT, "%s:%d: @include is not supported: put the settings in this file",
                        path, lineno);
  }
  config_t cfg;
  config_init(&cfg);
  cb_status st = CB_OK;
  if (!config_read_string(&cfg, text))
    st = cb_error_set(err, CB_EINPUT, "%s:%d: %s", path, config_error_line(&cfg), config_error_text(&cfg));
  free(text);
  if (st == CB_OK) {
    const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    snprintf(t->name, sizeof t->name, "%.*s", (int)(strcspn(base, ".")), base);
    st = read_root(path, &cfg, table_keys, t, err);
  }
  config_destroy(&cfg);
  return st;
}
