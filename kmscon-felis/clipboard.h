/* kmscon-felis/clipboard.h: the clipboard every kmscon-felis instance of a user shares (copy on tty2, paste
 * on tty3).
 *
 * Stored as one file, <dir>/clipboard, where dir is $KMSCON_FELIS_CLIPBOARD_DIR, else
 * $XDG_RUNTIME_DIR/kmscon-felis, else /run/kmscon-felis-<uid> (a tmpfs: nothing survives a reboot). The
 * directory is created 0700 and must be a real directory owned by us with no group/other access; the file
 * is written 0600 to a temporary name and renamed, so a reader never sees half a copy; it is never followed
 * through a symlink. Content beyond KF_CLIPBOARD_MAX is cut at a UTF-8 character boundary.
 */
#ifndef KF_CLIPBOARD_H
#define KF_CLIPBOARD_H

#include <stddef.h>

/* 64 KiB short of the default write queue (write-queue-size, 4 MiB): the largest clipboard then pastes whole
 * into it, bracketed-paste marks and some keys still queued included (at 4 MiB it could never fit with the
 * marks). */
#define KF_CLIPBOARD_MAX ((4u << 20) - (64u << 10))

/* Replaces the clipboard with data (not owned; len bytes). Returns 0 or -errno (logged once). */
int kf_clipboard_set(const void *data, size_t len);
/* The clipboard's content: *data is malloc'ed and owned by the caller (free()), NUL-terminated for
 * convenience; *len excludes the NUL. An empty or absent clipboard gives 0 with *len = 0. Returns 0 or
 * -errno. */
int kf_clipboard_get(char **data, size_t *len);

#endif
