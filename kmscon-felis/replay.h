/* kmscon-felis/replay.h: what kmscon-felis-replay's files share (replay.c: command line, text and JSON
 * output; vtproto.c: the vtproto/1 line protocol). Private to the tool. */
#ifndef KF_REPLAY_H
#define KF_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "grid/grid.h"

struct kf_render;

/* After a read of fd failed with errno: whether to read again (EINTR; EAGAIN once fd is readable, waited for).
 * errno is left for the error message otherwise. */
bool kf_replay_wait_input(int fd);
/* Writes cp as UTF-8 (invalid code points as U+FFFD). */
void kf_replay_put_utf8(FILE *f, uint32_t cp);
/* Writes s (UTF-8, NUL-terminated; not owned) as a JSON string with quotes. */
void kf_replay_json_string(FILE *f, const char *s);
/* Writes one cell as the vtproto/1 array [text, width, attrs, fg, bg] (see VTPROTO.md and the man page).
 * g and c are not owned. */
void kf_replay_json_cell(FILE *f, const struct grid *g, const struct grid_cell *c);
/* Writes one JSON array of n cells. */
void kf_replay_json_cells(FILE *f, const struct grid *g, const struct grid_cell *c, int n);

/* --png (replay-png.c, issue 4): the final screen rendered to a PNG of exactly cols*cell_w x rows*cell_h. */
struct kf_replay_png {
	const char *path;      /* NULL: no PNG */
	const char *font_name; /* NULL: "monospace" */
	const char *font_file; /* for the psf engine */
	int font_size;         /* pixels, 0 = 16 */
	int engine;            /* enum kf_render_engine */
	const char *palette;   /* NULL: "default" */
	struct kf_render *render; /* kf_replay_png_open's, NULL before */
};
/* Parses fontconfig|freetype|psf|builtin into *engine; -EINVAL otherwise. */
int kf_replay_parse_engine(const char *s, int *engine);
/* The option errors the renderer would only find after the stream was read: an unknown --palette, psf without
 * --font-file. Returns NULL, or the complaint written into why (caller-owned). */
const char *kf_replay_png_check(const struct kf_replay_png *p, char *why, size_t size);
/* Sets up p->render (fonts, palette) before the stream is read, so that a font that cannot be loaded, or an
 * image of cols x rows cells too large to hold (2), is said before anything is printed. Returns the exit status
 * (errors on stderr). */
int kf_replay_png_open(struct kf_replay_png *p, int cols, int rows);
/* Renders g (not owned) with p->render into p->path. Returns the exit status (errors on stderr). */
int kf_replay_write_png(const struct grid *g, const struct kf_replay_png *p);
/* Frees p->render (NULL is fine). */
void kf_replay_png_close(struct kf_replay_png *p);

/* Speaks vtproto/1 on in/out until end of input (neither stream is owned or closed). Returns 0, or 1 when
 * the terminal could not be created. */
int kf_vtproto_run(FILE *in, FILE *out, int cols, int rows, size_t scrollback);

#endif
