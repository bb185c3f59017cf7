/* kmscon-felis/session-paste.h: the bytes a paste sends to the child (kf_session_paste): its controls (C0 and
 * C1) made spaces and invalid UTF-8 U+FFFD, then bracketed-paste marks around it or its line ends made carriage
 * returns. Not a public module: session.c's, split out to keep that file's size; the queue's bound and the refusals
 * stay in session.c. */
#ifndef KF_SESSION_PASTE_H
#define KF_SESSION_PASTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The two bracketed-paste marks, ESC [ 2 0 0 ~ and ESC [ 2 0 1 ~, in bytes. */
#define KF_PASTE_MARKS_LEN 12u

/* Builds what a paste of data (len bytes; not owned) sends: see kf_session_paste in session.h. tty_fd is the PTY
 * master, whose line discipline's special characters are read now (tcgetattr) and sent as spaces too. On success
 * *out is a malloc'd buffer the caller owns and frees, *out_len its length (at most 3 * len + KF_PASTE_MARKS_LEN:
 * a byte of no UTF-8 character becomes U+FFFD). Returns 0 or -ENOMEM (nothing allocated). */
int kf_paste_build(int tty_fd, bool bracketed, const void *data, size_t len, uint8_t **out, size_t *out_len);

#endif
