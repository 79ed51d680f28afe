/* Errors as values: a status code and a message naming the problem. */
#ifndef CB_ERROR_H
#define CB_ERROR_H

typedef enum {
  CB_OK = 0,
  CB_EINTERNAL = 1, /* our fault or the system's: out of memory, a library failed */
  CB_EINPUT = 2     /* the user's input is wrong: an option, a file, a path */
} cb_status;

typedef struct cb_error {
  cb_status status;
  char msg[512];
} cb_error;

/* Records the first error only (later calls keep the first message) and
 * returns its status, so callers can write `return cb_error_set(...)`. */
cb_status cb_error_set(cb_error *err, cb_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* cb_error_set(err, CB_EINTERNAL, "out of memory"): the one wording of a failed allocation. */
cb_status cb_error_oom(cb_error *err);

#endif
