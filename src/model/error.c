#include "error.h"

#include <stdarg.h>
#include <stdio.h>

cb_status cb_error_set(cb_error *err, cb_status status, const char *fmt, ...) {
  if (!err) return status;
  if (err->status != CB_OK) return err->status;
  err->status = status;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  return status;
}
