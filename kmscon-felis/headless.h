/* kmscon-felis/headless.h: the display-less backend (--backend=headless).
 *
 * The session runs exactly as on the console (PTY, parser, grid, replies), with no display and no input
 * devices. Tests and benchmarks drive it; when it ends, the screen can be written in the text format of
 * kmscon-felis-replay (kf_headless_dump_file, kmscon-felis/screen-text.h).
 *
 * Testing aid: --input-fifo PATH. Bytes written to that FIFO take the keystroke path (kf_session_write), in
 * order, with back-pressure: while the write queue towards the child is nearly full the FIFO is not read, so
 * a writer may push any amount without the program's memory growing.
 */
#ifndef KF_HEADLESS_H
#define KF_HEADLESS_H

struct kf_loop;
struct kf_session;
struct grid;

struct kf_headless;

/* input_fifo may be NULL (no input at all). loop and session are not owned and must outlive the backend.
 * Returns 0 and *out, or -errno (logged). */
int kf_headless_create(struct kf_loop *loop, struct kf_session *session, const char *input_fifo,
		       struct kf_headless **out);
/* Accepts NULL. */
void kf_headless_destroy(struct kf_headless *h);

/* Whether the file at path can be written by kf_headless_dump_file, before the child runs
 * (kf_screen_text_path_check). Returns 0 or -errno (logged). */
int kf_headless_dump_check(const char *path);
/* Writes the screen (kf_screen_text: kmscon-felis-replay's text format) into the file at path (created or
 * truncated). A FIFO without a reader is waited for (logged); SIGTERM, SIGINT and SIGHUP, blocked for the loop,
 * are caught meanwhile and end the wait or a write the reader does not take (-EINTR). Returns 0 or -errno
 * (logged). */
int kf_headless_dump_file(const struct grid *g, const char *path);

#endif
