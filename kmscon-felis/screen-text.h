/* kmscon-felis/screen-text.h: the screen as plain text, the one format shared by kmscon-felis-replay
 * --format=text and the headless backend's --dump-screen, so that tests can compare the two byte for byte.
 */
#ifndef KF_SCREEN_TEXT_H
#define KF_SCREEN_TEXT_H

#include <stdio.h>

struct grid;

/* Writes exactly rows lines: each row's characters (a wide character once, a cluster whole, an empty cell
 * as a space), trailing blanks trimmed, each line ended by '\n'. g is only read. Returns 0 or -errno. */
int kf_screen_text(const struct grid *g, FILE *out);

/* Whether a file at path can be written later (--dump-screen, kmscon-felis-replay --png), said before the work
 * that leads to it: it is opened for writing, or created and removed again when it does not exist (at a symbolic link
 * to nothing yet: the file the link names); its contents are left alone. A FIFO is taken as it is (opening it would disturb its reader). Returns 0 or -errno. */
int kf_screen_text_path_check(const char *path);

#endif
