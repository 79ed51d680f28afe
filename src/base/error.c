#include "error.h"

#include <stdarg.h>
#include <stdio.h>

#include "text.h"

cb_status cb_error_set(cb_error *err, cb_status status, const char *fmt, ...) {
  if (!err) return status;
  if (err->status != CB_OK) return err->status;
  err->status = status;
  char raw[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  /* messages echo names and values from the input: no control bytes reach the terminal */
  cb_escape(err->msg, sizeof err->msg, raw);
  return status;
}

cb_status cb_error_oom(cb_error *err) { return cb_error_set(err, CB_EINTERNAL, "out of memory"); }
