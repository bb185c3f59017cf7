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

struct names {
	char model[128], layout[128], variant[128], options[256];
};

static bool set(const char *s)
{
	return s && *s;
}

static void copy_name(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src ? src : "");
}

/* Parses one "KEY=value" line of a shell-style file (optionally quoted, "#" comments). */
static void parse_assignment(char *line, struct names *n)
{
	static const struct {
		const char *key;
		size_t off, cap;
	} keys[] = {
		{"XKBMODEL", offsetof(struct names, model), sizeof(((struct names *)0)->model)},
		{"XKBLAYOUT", offsetof(struct names, layout), sizeof(((struct names *)0)->layout)},
		{"XKBVARIANT", offsetof(struct names, variant), sizeof(((struct names *)0)->variant)},
		{"XKBOPTIONS", offsetof(struct names, options), sizeof(((struct names *)0)->options)},
	};
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
	if ((*v == '"' || *v == '\'') && end > v + 1 && end[-1] == *v) {
		v++;
		end[-1] = 0;
	} else {
		v[strcspn(v, " \t#")] = 0;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!strcmp(p, keys[i].key))
			copy_name((char *)n + keys[i].off, keys[i].cap, v);
	}
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
	memset(n, 0, sizeof(*n));
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

/* Compiles the keymap file at path (first in a bounded child) and names it in name (256 bytes). Returns it, or
 * NULL with *err set (-EINVAL, -ETIMEDOUT, -ENOMEM, or open's -errno) and the reason logged. */
static struct xkb_keymap *compile_file(struct xkb_context *ctx, const char *path, char *name, bool strict,
				       int *err)
{
	struct xkb_keymap *km;
	FILE *f = input_open_file(path);
	int r;

	if (!f) {
		*err = -errno;
		input_log(4, "cannot open keymap file %s: %s%s", path, input_open_error(errno), then(strict));
		return NULL;
	}
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

static void describe(char *name, const struct names *n)
{
	const char *layout = set(n->layout) ? n->layout : getenv("XKB_DEFAULT_LAYOUT");

	snprintf(name, 256, "%.120s%s%.120s%s", set(layout) ? layout : "us",
		 set(n->variant) ? "(" : "", set(n->variant) ? n->variant : "", set(n->variant) ? ")" : "");
}

struct xkb_keymap *input_load_keymap(struct xkb_context *ctx, const struct input_config *cfg, char *name,
				     bool strict, int *err)
{
	struct names n = {0};
	struct xkb_keymap *km = NULL;
	const char *kb = cfg->etc_default_keyboard ? cfg->etc_default_keyboard : "/etc/default/keyboard";
	const char *vc = cfg->etc_vconsole ? cfg->etc_vconsole : "/etc/vconsole.conf";
	bool from_env = !cfg->no_environment &&
			(set(getenv("XKB_DEFAULT_LAYOUT")) || set(getenv("XKB_DEFAULT_MODEL")) ||
			 set(getenv("XKB_DEFAULT_VARIANT")) || set(getenv("XKB_DEFAULT_OPTIONS")));

	if (set(cfg->keymap_file)) {
		km = compile_file(ctx, cfg->keymap_file, name, strict, err);
		if (km || strict)
			return km;
		copy_name(n.layout, sizeof(n.layout), "us");
	} else if (set(cfg->model) || set(cfg->layout) || set(cfg->variant) || set(cfg->options)) {
		copy_name(n.model, sizeof(n.model), cfg->model);
		copy_name(n.layout, sizeof(n.layout), cfg->layout);
		copy_name(n.variant, sizeof(n.variant), cfg->variant);
		copy_name(n.options, sizeof(n.options), cfg->options);
	} else if (!from_env && !read_etc_file(kb, &n) && !read_etc_file(vc, &n)) {
		memset(&n, 0, sizeof(n));
	}
	if (!km) {
		km = compile_names(ctx, &n);
		describe(name, &n);
	}
	if (!km) {
		*err = -EINVAL;
		input_log(4, "keymap model='%s' layout='%s' variant='%s' options='%s' does not compile%s", n.model,
			  n.layout, n.variant, n.options, then(strict));
		if (strict)
			return NULL;
		memset(&n, 0, sizeof(n));
		copy_name(n.layout, sizeof(n.layout), "us");
		km = compile_names(ctx, &n);
		describe(name, &n);
	}
	return km;
}
