/* input/compose-load.c: the text of an xkb-compose-file with its `include` lines put in place, bounded.
 *
 * xkbcommon (1.5) opens an included file itself, with fopen(3) and no bound: a compose file of one line could
 * pull in a file of any size (a 24 MiB one was compiled whole, the keyboard waiting), or a FIFO nobody writes
 * (the open waited for ever, the console with no keys). So the files are read here, each through
 * input_open_file (regular files only), and their text put where their include line was; xkbcommon gets the
 * whole as a buffer. The bound counts every file as often as it is read, the top one with the rest. An include
 * of %L (the locale's own table, the one used without a compose file) is left to xkbcommon. The user's compose
 * file ($XCOMPOSEFILE, ~/.XCompose...), which xkbcommon's xkb_compose_table_new_from_locale would open the same
 * way, is found here (input_compose_user_file) and read likewise; the locale's table is then asked for as an
 * include of %L alone (input_compose_of_locale). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xkbcommon/xkbcommon-keysyms.h>

#include "input/input-internal.h"

/* xkbcommon's MAX_INCLUDE_DEPTH: a file at this depth may not include (the top file is at 0). */
#define INCLUDE_DEPTH_MAX 5
#define INCLUDE_PATH_MAX 4096
/* Files read for one compose file: each include of an empty file costs an open and a line. */
#define INCLUDE_FILES_MAX 1024

struct text {
	char *buf;
	size_t len, cap;
	size_t read, max; /* the bytes of the files read, and their bound */
	unsigned files;
	const char *top; /* for messages */
};

/* The text grows by the files read (bounded by max) and a newline per file. */
static bool append(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		while (cap < t->len + n + 1)
			cap *= 2;
		char *b = realloc(t->buf, cap);
		if (!b) {
			input_log(4, "compose file %s: out of memory", t->top);
			return false;
		}
		t->buf = b;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = 0;
	return true;
}

static bool space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The path of line's include statement (the first token of the line is the word include), expanded as
 * xkbcommon does (%%, %H, %S). Returns 1 with path, 0 for no include we read (not one, malformed: xkbcommon
 * says why, or %L), -1 with a message logged. */
static int include_path(const struct text *t, const char *line, const char *end, char *path, size_t cap,
			const char *file)
{
	const char *p = line;
	size_t n = 0;

	while (p < end && space(*p))
		p++;
	if ((size_t)(end - p) < 7 || memcmp(p, "include", 7))
		return 0;
	p += 7;
	if (p < end && (*p == '_' || (*p >= '0' && *p <= '9') || ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')))
		return 0;
	while (p < end && space(*p))
		p++;
	if (p >= end || *p++ != '"')
		return 0;
	for (; p < end && *p != '"'; p++) {
		const char *add = p, *env;
		size_t len = 1;
		if (*p == '%' && p + 1 < end) {
			switch (*++p) {
			case '%':
				add = p;
				break;
			case 'H':
				env = secure_getenv("HOME");
				if (!env)
					return 0; /* xkbcommon refuses it, and says so */
				add = env;
				len = strlen(add);
				break;
			case 'S':
				env = secure_getenv("XLOCALEDIR");
				add = env && *env ? env : "/usr/share/X11/locale";
				len = strlen(add);
				break;
			default: /* %L, or an error xkbcommon reports */
				return 0;
			}
		}
		if (n + len >= cap) {
			input_log(4, "compose file %s: an include path in %s is too long", t->top, file);
			return -1;
		}
		memcpy(path + n, add, len);
		n += len;
	}
	if (p >= end)
		return 0;
	path[n] = 0;
	return 1;
}

static bool add_file(struct text *t, const char *path, int depth)
{
	if (++t->files > INCLUDE_FILES_MAX) {
		input_log(4, "compose file %s: more than %d files included", t->top, INCLUDE_FILES_MAX);
		return false;
	}
	FILE *f = input_open_file(path);
	if (!f) {
		input_log(4, "compose file %s%s%s cannot be read: %s", t->top, depth ? ": " : "", depth ? path : "",
			  input_open_error(errno));
		return false;
	}
	struct stat st;
	size_t size = fstat(fileno(f), &st) == 0 ? (size_t)st.st_size : 0;
	if (size > t->max - t->read) {
		if (depth)
			input_log(4, "compose file %s: with %s (%zu bytes) past the %zu MiB read of it and what it "
				  "includes", t->top, path, size, t->max >> 20);
		else
			input_log(4, "compose file %s is %zu bytes, past the %zu MiB read", path, size, t->max >> 20);
		fclose(f);
		return false;
	}
	char *data = malloc(size + 1);
	/* One byte more than its size: a file that grew meanwhile is refused, not cut. */
	size_t got = data ? fread(data, 1, size + 1, f) : 0;
	fclose(f);
	if (got != size) {
		input_log(4, "compose file %s%s%s cannot be read (%s)", t->top, depth ? ": " : "", depth ? path : "",
			  data ? "its size changed" : "out of memory");
		free(data);
		return false;
	}
	t->read += size;
	bool ok = true;
	char inc[INCLUDE_PATH_MAX];
	for (size_t at = 0; ok && at < size;) {
		const char *nl = memchr(data + at, '\n', size - at);
		size_t end = nl ? (size_t)(nl - data) + 1 : size;
		int r = include_path(t, data + at, data + end, inc, sizeof(inc), path);
		if (r == 1 && depth >= INCLUDE_DEPTH_MAX) {
			input_log(4, "compose file %s: includes nested deeper than %d (an include loop?) at %s",
				  t->top, INCLUDE_DEPTH_MAX, path);
			ok = false;
		} else if (r == 1) {
			/* The included text on lines of its own, as xkbcommon parses an included file. */
			ok = add_file(t, inc, depth + 1);
		} else {
			ok = r == 0 && append(t, data + at, end - at);
		}
		at = end;
	}
	if (ok && (!size || data[size - 1] != '\n'))
		ok = append(t, "\n", 1);
	free(data);
	return ok;
}

struct xkb_compose_table *input_compose_from_file(struct xkb_context *ctx, const char *path, const char *locale,
						  size_t max)
{
	struct text t = {.max = max, .top = path};
	struct xkb_compose_table *table = NULL;

	if (add_file(&t, path, 0))
		table = xkb_compose_table_new_from_buffer(ctx, t.buf ? t.buf : "", t.len, locale,
							  XKB_COMPOSE_FORMAT_TEXT_V1, XKB_COMPOSE_COMPILE_NO_FLAGS);
	free(t.buf);
	return table;
}

/* dir (NULL: none) and name made a path in path, when it fits and something is there. */
static bool exists(char *path, size_t cap, const char *dir, const char *name)
{
	struct stat st;
	int n = dir ? snprintf(path, cap, "%s%s", dir, name) : -1;

	return n > 0 && (size_t)n < cap && stat(path, &st) == 0;
}

bool input_compose_user_file(char *path, size_t cap)
{
	const char *xdg = secure_getenv("XDG_CONFIG_HOME"), *home = secure_getenv("HOME");

	/* The order of xkbcommon (1.5)'s search; it takes the first that fopen(3) opens, which for a FIFO nobody
	 * writes means waiting for ever: here the first that exists, refused then if it is no regular file. */
	return exists(path, cap, secure_getenv("XCOMPOSEFILE"), "") ||
	       (xdg && xdg[0] == '/' ? exists(path, cap, xdg, "/XCompose")
				     : exists(path, cap, home, "/.config/XCompose")) ||
	       exists(path, cap, home, "/.XCompose");
}

/* Whether table has a sequence starting with a key every table of the locales starts some with. */
static bool has_sequences(struct xkb_compose_table *table)
{
	static const xkb_keysym_t starts[] = {XKB_KEY_Multi_key, XKB_KEY_dead_acute, XKB_KEY_dead_grave};
	struct xkb_compose_state *st = xkb_compose_state_new(table, XKB_COMPOSE_STATE_NO_FLAGS);
	bool some = false;

	for (size_t i = 0; st && !some && i < sizeof(starts) / sizeof(starts[0]); i++) {
		xkb_compose_state_reset(st);
		some = xkb_compose_state_feed(st, starts[i]) == XKB_COMPOSE_FEED_ACCEPTED &&
		       xkb_compose_state_get_status(st) == XKB_COMPOSE_COMPOSING;
	}
	xkb_compose_state_unref(st);
	return some;
}

struct xkb_compose_table *input_compose_of_locale(struct xkb_context *ctx, const char *locale)
{
	static const char text[] = "include \"%L\"\n";
	struct xkb_compose_table *t = xkb_compose_table_new_from_buffer(ctx, text, sizeof(text) - 1, locale,
									 XKB_COMPOSE_FORMAT_TEXT_V1,
									 XKB_COMPOSE_COMPILE_NO_FLAGS);

	/* xkbcommon (1.5) gives an empty table when %L names no file (it says so): none */
	if (t && !has_sequences(t)) {
		xkb_compose_table_unref(t);
		t = NULL;
	}
	return t;
}
