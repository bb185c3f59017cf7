/* input/keymap-load.c: where the keymap comes from (input-internal.h input_load_keymap), first match wins: the
 * configured names or keymap file (kmscon's --xkb-* options), XKB_DEFAULT_* (read by xkbcommon itself when no
 * name is given), /etc/default/keyboard (Debian's XKBMODEL/XKBLAYOUT/XKBVARIANT/XKBOPTIONS), /etc/vconsole.conf
 * (systemd's, same variable names), then xkbcommon's built-in default ("us"). At start a keymap that does not
 * compile falls back to "us" with a warning naming what failed, so a typo in a layout never leaves the console
 * without a keyboard; on a reload (strict) it is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/input-internal.h"

/* Lines longer than this in /etc/default/keyboard are not variable assignments we care about. */
#define ETC_LINE_MAX 512

/* The names in use, whole: each points to the configuration's string (not cut: a list of options of 300 bytes
 * lost its last ones past 255) or to the value read from a file, kept in store (a value is at most a line). */
struct names {
	const char *model, *layout, *variant, *options; /* never NULL */
	char store[4][ETC_LINE_MAX];
};

static bool set(const char *s)
{
	return s && *s;
}

/* Parses one "KEY=value" line of a shell-style file (optionally quoted, "#" comments). */
static void parse_assignment(char *line, struct names *n)
{
	static const char *const keys[4] = {"XKBMODEL", "XKBLAYOUT", "XKBVARIANT", "XKBOPTIONS"};
	const char **field[4] = {&n->model, &n->layout, &n->variant, &n->options};
	char *p = line, *eq, *v, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "export ", 7))
		p += 7;
	eq = strchr(p, '=');
	if (!eq || *p == '#')
		return;
	*eq = 0;
	v = eq + 1;
	end = v + strcspn(v, "\r\n");
	*end = 0;
	/* A quoted value ends at its closing quote, whatever follows (blanks, a comment), as a shell reads it. */
	char *close = (*v == '"' || *v == '\'') ? strchr(v + 1, *v) : NULL;
	if (close) {
		v++;
		*close = 0;
	} else {
		v[strcspn(v, " \t#")] = 0;
	}
	for (size_t i = 0; i < 4; i++) {
		if (!strcmp(p, keys[i])) {
			snprintf(n->store[i], sizeof(n->store[i]), "%s", v); /* v is part of a line: it fits */
			*field[i] = n->store[i];
		}
	}
}

/* No names: xkbcommon's defaults (XKB_DEFAULT_*, then "us"). */
static void clear_names(struct names *n)
{
	n->model = n->layout = n->variant = n->options = "";
}

/* A FIFO nobody writes made fopen wait for a writer for ever, and the console never took keys. */
FILE *input_open_file(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK); /* no effect on a regular file's reads */
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = err;
		return NULL;
	}
	FILE *f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

/* Why input_open_file failed, in words. */
const char *input_open_error(int err)
{
	return err == EINVAL ? "not a file (a FIFO, a device or a socket)" : strerror(err);
}

/* Reads the XKB* variables of a shell-style file. Returns true when it set a layout. */
static bool read_etc_file(const char *path, struct names *n)
{
	char line[ETC_LINE_MAX];
	bool truncated = false;
	FILE *f = input_open_file(path);

	if (!f)
		return false;
	clear_names(n);
	while (fgets(line, sizeof(line), f)) {
		bool whole = strchr(line, '\n') != NULL;
		/* The tail of an over-long line is not a new assignment. */
		if (!truncated)
			parse_assignment(line, n);
		truncated = !whole;
	}
	fclose(f);
	if (set(n->layout))
		input_log(6, "keymap from %s: layout '%s'", path, n->layout);
	return set(n->layout);
}

static struct xkb_keymap *compile_names(struct xkb_context *ctx, const struct names *n)
{
	struct xkb_rule_names rn = {
		.model = set(n->model) ? n->model : NULL,
		.layout = set(n->layout) ? n->layout : NULL,
		.variant = set(n->variant) ? n->variant : NULL,
		.options = set(n->options) ? n->options : NULL,
	};
	return xkb_keymap_new_from_names(ctx, &rn, XKB_KEYMAP_COMPILE_NO_FLAGS);
}

/* What a keymap that does not compile leads to, for the warning: at start the console falls back to "us"; on a
 * reload (strict) the keymap in use stays, which the caller says. */
static const char *then(bool strict)
{
	return strict ? "" : "; using the 'us' layout";
}

static void id_of_stat(const struct stat *st, struct input_file_id *id)
{
	*id = (struct input_file_id){.valid = true, .dev = st->st_dev, .ino = st->st_ino, .size = st->st_size,
				     .mtim = st->st_mtim, .ctim = st->st_ctim};
}

bool input_file_id_of(const char *path, struct input_file_id *id)
{
	struct stat st;

	*id = (struct input_file_id){0};
	if (stat(path, &st) < 0)
		return false;
	id_of_stat(&st, id);
	return true;
}

bool input_file_id_same(const struct input_file_id *a, const struct input_file_id *b)
{
	return a->valid && b->valid && a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtim.tv_sec == b->mtim.tv_sec && a->mtim.tv_nsec == b->mtim.tv_nsec &&
	       a->ctim.tv_sec == b->ctim.tv_sec && a->ctim.tv_nsec == b->ctim.tv_nsec;
}

/* Whether the text of f has the word "include" anywhere (a comment too: then the file is only not remembered);
 * f is read to its end and rewound. */
static bool has_include(FILE *f)
{
	static const char word[] = "include";
	const size_t tail = sizeof(word) - 2; /* what may hold the start of a word cut by the end of a read */
	char buf[65536];
	size_t keep = 0, n;
	bool found = false;

	while (!found && (n = fread(buf + keep, 1, sizeof(buf) - keep - 1, f)) > 0) {
		size_t len = keep + n;
		buf[len] = 0;
		/* a NUL in the text ends strstr's search: the rest is searched from after it */
		for (char *p = buf; p < buf + len && !found; p += strlen(p) + 1)
			found = strstr(p, word) != NULL;
		keep = len < tail ? len : tail;
		memmove(buf, buf + len - keep, keep);
	}
	rewind(f);
	return found;
}

/* Compiles the keymap file at path (first in a bounded child) and names it in name (256 bytes). Returns it, or
 * NULL with *err set (-EINVAL, -ETIMEDOUT, -ENOMEM, or open's -errno) and the reason logged. *file: as
 * input_load_keymap's. */
static struct xkb_keymap *compile_file(struct xkb_context *ctx, const char *path, char *name, bool strict,
				       int *err, struct input_file_id *file)
{
	struct xkb_keymap *km;
	FILE *f = input_open_file(path);
	struct stat st;
	int r;

	if (!f) {
		*err = -errno;
		input_log(4, "cannot open keymap file %s: %s%s", path, input_open_error(errno), then(strict));
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && !has_include(f))
		id_of_stat(&st, file);
	r = input_try_keymap_file(ctx, path);
	if (r < 0) {
		*err = r;
		input_log(4, "keymap file %s %s%s", path,
			  r == -EINVAL	  ? "does not compile (in at most " INPUT_STR(INPUT_KEYMAP_TRY_MEM_MB) " MiB)"
			  : r == -ETIMEDOUT ? "does not compile in " INPUT_STR(INPUT_KEYMAP_TRY_MS) " ms"
					    : "does not compile in " INPUT_STR(INPUT_KEYMAP_TRY_MEM_MB)
					      " MiB (or crashed xkbcommon)", then(strict));
		fclose(f);
		return NULL;
	}
	km = xkb_keymap_new_from_file(ctx, f, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS);
	fclose(f);
	*err = -EINVAL;
	if (!km)
		input_log(4, "keymap file %s does not compile%s", path, then(strict));
	else
		snprintf(name, 256, "file:%.240s", path);
	return km;
}

void input_keymap_env_read(const struct input_config *cfg, struct input_keymap_env *env)
{
	const char *layout = cfg->no_environment ? NULL : getenv("XKB_DEFAULT_LAYOUT");

	*env = (struct input_keymap_env){0};
	if (cfg->no_environment)
		return;
	env->names = set(layout) || set(getenv("XKB_DEFAULT_MODEL")) || set(getenv("XKB_DEFAULT_VARIANT")) ||
		     set(getenv("XKB_DEFAULT_OPTIONS"));
	snprintf(env->layout, sizeof(env->layout), "%s", layout ? layout : "");
}

/* name: the layout xkbcommon compiles n with (the environment's when n has none: the context of
 * input_keymap_context reads it unless cfg->no_environment, when env has none either; else its default "us"). */
static void describe(char *name, const struct names *n, const struct input_keymap_env *env)
{
	const char *layout = set(n->layout) ? n->layout : env->layout;

	snprintf(name, 256, "%.120s%s%.120s%s", set(layout) ? layout : "us",
		 set(n->variant) ? "(" : "", set(n->variant) ? n->variant : "", set(n->variant) ? ")" : "");
}

struct xkb_keymap *input_load_keymap(struct xkb_context *ctx, const struct input_config *cfg,
				     const struct input_keymap_env *env, char *name, bool strict, int *err,
				     struct input_file_id *file)
{
	struct names n;
	struct xkb_keymap *km = NULL;
	const char *kb = cfg->etc_default_keyboard ? cfg->etc_default_keyboard : "/etc/default/keyboard";
	const char *vc = cfg->etc_vconsole ? cfg->etc_vconsole : "/etc/vconsole.conf";
	bool from_env = env->names;

	clear_names(&n);
	*file = (struct input_file_id){0};
	if (set(cfg->keymap_file)) {
		km = compile_file(ctx, cfg->keymap_file, name, strict, err, file);
		if (km || strict)
			return km;
		n.layout = "us";
	} else if (set(cfg->model) || set(cfg->layout) || set(cfg->variant) || set(cfg->options)) {
		n.model = cfg->model ? cfg->model : "";
		n.layout = cfg->layout ? cfg->layout : "";
		n.variant = cfg->variant ? cfg->variant : "";
		n.options = cfg->options ? cfg->options : "";
	} else if (!from_env && !read_etc_file(kb, &n) && !read_etc_file(vc, &n)) {
		clear_names(&n);
	}
	if (!km) {
		km = compile_names(ctx, &n);
		describe(name, &n, env);
	}
	if (!km) {
		*err = -EINVAL;
		input_log(4, "keymap model='%s' layout='%s' variant='%s' options='%s' does not compile%s", n.model,
			  n.layout, n.variant, n.options, then(strict));
		if (strict)
			return NULL;
		clear_names(&n);
		n.layout = "us";
		km = compile_names(ctx, &n);
		describe(name, &n, env);
	}
	return km;
}
