/* kmscon-felis/config-value.c: parsing and formatting one option value (see config-internal.h).
 *
 * Every parser is strict: the whole text must be consumed, numbers are decimal and range-checked, so a typo never
 * silently becomes a default. Formatting produces text the same parser reads back to an equal value
 * (tests/config/ checks this for every option). */
#include "kmscon-felis/config-internal.h"
#include "kmscon-felis/log.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xkbcommon/xkbcommon.h>

#define FIELD(cfg, o, T) ((T *)(void *)((char *)(cfg) + (o)->offset))
#define CFIELD(cfg, o, T) ((const T *)(const void *)((const char *)(cfg) + (o)->offset))

/* The login command may be long; anything beyond this is not a login command line but an accident. */
#define LOGIN_MAX_ARGS 256
/* its digits, for the error that names it */
#define LOGIN_MAX_TEXT(n) #n
#define LOGIN_MAX_WORDS(n) LOGIN_MAX_TEXT(n)

static int fail(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Strict decimal: digits only (no sign, no spaces, no hex), no overflow. */
static bool parse_ull(const char *s, const char **end, unsigned long long *out)
{
	unsigned long long v = 0;
	const char *p = s;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');
		if (v > (ULLONG_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*end = p;
	*out = v;
	return true;
}

static int parse_bool(const char *text, bool *out)
{
	static const char *const on[] = {"on", "yes", "true", "1"};
	static const char *const off[] = {"off", "no", "false", "0"};
	if (!text) {
		*out = true;
		return 0;
	}
	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		if (!strcasecmp(text, on[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(text, off[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_bytes(const char *text, unsigned long long *out)
{
	const char *end;
	unsigned long long v;
	if (!parse_ull(text, &end, &v))
		return -EINVAL;
	unsigned int shift = 0;
	switch (*end) {
	case 'K':
	case 'k':
		shift = 10;
		break;
	case 'M':
	case 'm':
		shift = 20;
		break;
	case 'G':
	case 'g':
		shift = 30;
		break;
	case '\0':
		break;
	default:
		return -EINVAL;
	}
	if (shift && end[1] != '\0')
		return -EINVAL;
	if (v > (ULLONG_MAX >> shift))
		return -EINVAL;
	*out = v << shift;
	return 0;
}

/* max: the largest side (the grid's limit for a size in cells, a sanity bound for a display mode). */
static int parse_dims(const char *text, unsigned long long max, struct kf_size *out)
{
	const char *p;
	unsigned long long w, h;
	if (!parse_ull(text, &p, &w) || *p != 'x' || !parse_ull(p + 1, &p, &h) || *p)
		return -EINVAL;
	if (w > max || h > max)
		return -EINVAL;
	out->w = (unsigned int)w;
	out->h = (unsigned int)h;
	return 0;
}

/* A blank inside a value (around a colour's commas, a shortcut's parts): a tab as well as a space, as around
 * the key and '=' (a file lined up with tabs was an error). */
static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

static int parse_rgb(const char *text, struct kf_rgb *out)
{
	unsigned long long c[3];
	const char *p = text;
	for (int i = 0; i < 3; i++) {
		while (blank(*p))
			p++;
		if (!parse_ull(p, &p, &c[i]) || c[i] > 255)
			return -EINVAL;
		while (blank(*p))
			p++;
		if (i < 2 && *p++ != ',')
			return -EINVAL;
	}
	if (*p)
		return -EINVAL;
	*out = (struct kf_rgb){(uint8_t)c[0], (uint8_t)c[1], (uint8_t)c[2]};
	return 0;
}

static const struct {
	const char *name;
	uint32_t bit;
} mod_names[] = {
	{"Shift", KF_MOD_SHIFT}, {"Lock", KF_MOD_LOCK}, {"Ctrl", KF_MOD_CTRL},
	{"Control", KF_MOD_CTRL}, {"Alt", KF_MOD_ALT},	{"Logo", KF_MOD_LOGO},
	{"Super", KF_MOD_LOGO},
};

/* One alternative "<Mod>...<Mod>keysym" of [s, e). */
static int parse_one_grab(const char *s, const char *e, uint32_t *mods, uint32_t *sym)
{
	char name[64];
	*mods = 0;
	while (s < e && blank(*s))
		s++;
	while (s < e && *s == '<') {
		const char *c = memchr(s, '>', (size_t)(e - s));
		if (!c)
			return -EINVAL;
		size_t n = (size_t)(c - s - 1), i;
		for (i = 0; i < sizeof(mod_names) / sizeof(mod_names[0]); i++)
			if (strlen(mod_names[i].name) == n && !strncasecmp(s + 1, mod_names[i].name, n))
				break;
		if (i == sizeof(mod_names) / sizeof(mod_names[0]))
			return -EINVAL;
		*mods |= mod_names[i].bit;
		s = c + 1;
		while (s < e && blank(*s))
			s++;
	}
	while (e > s && blank(e[-1]))
		e--;
	if (s == e || (size_t)(e - s) >= sizeof(name))
		return -EINVAL;
	memcpy(name, s, (size_t)(e - s));
	name[e - s] = '\0';
	xkb_keysym_t k = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS);
	if (k == XKB_KEY_NoSymbol)
		k = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE);
	if (k == XKB_KEY_NoSymbol)
		return -EINVAL;
	*sym = k;
	return 0;
}

static int parse_grab(const char *text, struct kf_grab *out)
{
	struct kf_grab g = {0};
	const char *s = text;
	while (blank(*s))
		s++;
	if (*s == '\0') {
		*out = g;
		return 0;
	}
	for (;;) {
		const char *e = strchr(s, ',');
		if (!e)
			e = s + strlen(s);
		if (g.n == KF_GRAB_MAX)
			return -EINVAL;
		if (parse_one_grab(s, e, &g.keys[g.n].mods, &g.keys[g.n].keysym) < 0)
			return -EINVAL;
		g.n++;
		if (*e == '\0')
			break;
		s = e + 1;
	}
	*out = g;
	return 0;
}

static int parse_vt(const char *text, int *out)
{
	const char *p = text, *end;
	unsigned long long v;
	if (!strcmp(text, "auto")) {
		*out = 0;
		return 0;
	}
	if (!strncmp(p, "/dev/", 5))
		p += 5;
	if (!strncmp(p, "tty", 3))
		p += 3;
	/* 0 is refused in every spelling: the kernel has no VT 0 (tty0 is whichever VT is in front, which kmscon
	 * opened for "0"), and "auto" already says "the VT the seat gives us". */
	if (!parse_ull(p, &end, &v) || *end || v == 0 || v > 63)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static void free_argv(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

/* Splits a command line like a shell without expansions: blanks separate words; '...' keeps everything
 * literal; "..." and bare words honour backslash escapes. Returns a NULL-terminated heap array. */
static int split_words(const char *s, char ***out)
{
	size_t len = strlen(s), n = 0;
	char **argv = calloc(LOGIN_MAX_ARGS + 1, sizeof(*argv));
	char *word = malloc(len + 1);
	int ret = -ENOMEM;
	if (!argv || !word)
		goto err;
	ret = -EINVAL;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		size_t w = 0;
		char quote = 0;
		for (; *s && (quote || (*s != ' ' && *s != '\t')); s++) {
			if (quote == '\'' && *s != '\'') {
				word[w++] = *s;
			} else if (*s == quote) {
				quote = 0;
			} else if (!quote && (*s == '\'' || *s == '"')) {
				quote = *s;
			} else if (*s == '\\' && s[1]) {
				word[w++] = *++s;
			} else {
				word[w++] = *s;
			}
		}
		if (quote || n == LOGIN_MAX_ARGS)
			goto err;
		word[w] = '\0';
		argv[n] = strdup(word);
		if (!argv[n++]) {
			ret = -ENOMEM;
			goto err;
		}
	}
	/* An empty program name ('' or "") can only fail to start, again at every respawn. */
	if (n == 0 || !argv[0][0])
		goto err;
	free(word);
	*out = argv;
	return 0;
err:
	free(word);
	free_argv(argv);
	return ret;
}

/* s's first len bytes, escaped as the logger escapes (kf_log_escape), into buf of size bytes. */
static void quote(char *buf, size_t size, const char *s, size_t len)
{
	char tmp[KF_QUOTE_MAX + 1];
	if (len > KF_QUOTE_MAX)
		len = KF_QUOTE_MAX;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	kf_log_escape(buf, size, tmp);
}

/* Whether text may be o's value (OPT_STRING, OPT_LOGIN): a configuration line is text, and a control character
 * in it is an accident (a pasted escape sequence, a CR from another system) that would reach a TERM, a font
 * lookup, a path or the console through an error message. So is a character that shows as nothing or reorders
 * the text (kf_log_invisible: zero-width, bidi controls, a byte order mark): "DejaVu<U+200B> Sans Mono" reads as
 * DejaVu Sans Mono in an editor, and fontconfig, asked for another name, fell back without a word. Names are
 * printable ASCII without blanks or '/' (a TERM with a '/' names a terminfo file elsewhere); a font name is
 * UTF-8, as fontconfig reads it; a path or a command line may hold any other byte (file names need not be
 * UTF-8); login's words are separated by tabs as by spaces. Returns 0, or -EINVAL with the byte (the code point
 * of an invisible character), its offset and the expected form in why. */
static int check_text(const struct opt *o, const char *text, char *why, size_t size)
{
	char form[256], quoted[KF_QUOTE_MAX * 4 + 8], bad[16];
	const unsigned char *s = (const unsigned char *)text;
	const char *what = NULL;
	uint32_t cp = 0;
	size_t i = 0, n = 1, len = strlen(text);
	for (; s[i]; i += n) {
		unsigned char c = s[i];
		size_t u = c >= 0x80 ? kf_log_utf8_char(s + i, len - i) : 0; /* 0: no UTF-8 (or C1) */
		n = u ? u : 1;
		if (c == 0xc2 && s[i + 1] >= 0x80 && s[i + 1] < 0xa0) {
			n = 2;
			what = "a C1 control character";
		} else if ((c < 0x20 && !(c == '\t' && o->type == OPT_LOGIN)) || c == 0x7f) {
			what = "a control character";
		} else if ((o->flags & OPTF_TEXT_NAME) && (c == ' ' || c == '\t')) {
			what = "a blank";
		} else if ((o->flags & OPTF_TEXT_NAME) && c == '/') {
			what = "a slash";
		} else if ((o->flags & OPTF_TEXT_NAME) && c >= 0x80) {
			n = 1;
			what = "not ASCII";
		} else if ((o->flags & OPTF_TEXT_UTF8) && c >= 0x80 && !u) {
			what = "not UTF-8";
		} else if (u && (cp = kf_log_invisible(s + i, u))) {
			what = "a character that shows as nothing or reorders the text (zero-width, a bidi control)";
		}
		if (what)
			break;
	}
	if (!what)
		return 0;
	if (cp)
		snprintf(bad, sizeof(bad), "U+%04X", (unsigned)cp);
	else if (s[i] >= 0x20 && s[i] < 0x7f)
		snprintf(bad, sizeof(bad), "'%c'", s[i]);
	else
		snprintf(bad, sizeof(bad), n == 2 ? "\\x%02x\\x%02x" : "\\x%02x", s[i], s[i + 1]);
	quote(quoted, sizeof(quoted), text, (size_t)kf_quote_len(text, len));
	return fail(why, size, "invalid value '%s%s': %s at byte %zu is %s (expected %s)", quoted,
		    kf_quote_more(len), bad, i + 1, what, kf_opt_form(o, form, sizeof(form)));
}

static int set_string(char **field, const char *text)
{
	char *s = NULL;
	if (text && *text) {
		s = strdup(text);
		if (!s)
			return -ENOMEM;
	}
	free(*field);
	*field = s;
	return 0;
}

/* A value's quoting in a file line: here, next to split_words(), whose shell quotes kf_opt_cut_comment() has
 * to follow exactly (config.h, config-internal.h). */
bool kf_opt_unquote(char *s)
{
	char *w = s;
	for (char *r = s + 1; *r; r++) {
		if (*r == '\\' && r[1])
			r++;
		else if (*r == '"') {
			*w = '\0';
			return r[1] == '\0';
		}
		*w++ = *r;
	}
	return false;
}

void kf_opt_cut_comment(char *s, const char *value, bool shell)
{
	char quote = 0;
	bool blank = true; /* the previous character is an unquoted blank, or the line starts here */
	for (char *p = s; *p; p++) {
		char c = *p;
		bool in_value = value && p >= value;
		if (quote) {
			if (c == '\\' && quote == '"' && p[1])
				p++;
			else if (c == quote)
				quote = 0;
		} else if (c == '#' && blank) {
			*p = '\0';
			return;
		} else if (in_value && ((c == '"' && (shell || p == value)) || (c == '\'' && shell))) {
			quote = c;
		} else if (in_value && shell && c == '\\' && p[1]) {
			p++;
		}
		blank = !quote && (c == ' ' || c == '\t');
	}
}

/* The canonical (first) name of the value the choice alias names. */
static const char *choice_name(const struct opt *o, const char *alias)
{
	for (const struct opt_choice *a = o->choices; a->name; a++)
		if (!strcmp(a->name, alias))
			for (const struct opt_choice *c = o->choices; c->name; c++)
				if (c->value == a->value)
					return c->name;
	return alias;
}

const char *kf_opt_form(const struct opt *o, char *buf, size_t size)
{
	switch (o->type) {
	case OPT_BOOL:
		if (o->flags & OPTF_AUTO)
			return "KEY, no-KEY or KEY=auto|on|off|yes|no|true|false|1|0";
		return "KEY, no-KEY or KEY=on|off|yes|no|true|false|1|0";
	case OPT_UINT:
		snprintf(buf, size, "an integer from %llu to %llu", o->min, o->max);
		return buf;
	case OPT_BYTES:
		snprintf(buf, size, "a size in bytes from %llu to %llu, with an optional K, M or G suffix",
			 o->min, o->max);
		return buf;
	case OPT_STRING:
		if (o->flags & OPTF_TEXT_NAME)
			return "a name: printable ASCII without blanks or '/'";
		if (o->flags & OPTF_TEXT_UTF8)
			return "UTF-8 text without control, zero-width or bidi control characters";
		return "a path or text without control, zero-width or bidi control characters";
	case OPT_CHOICE: {
		if (o->flags & OPTF_BOOL_FORMS) {
			/* "audible, visual or none (KEY ...)": the canonical names, without the on/off aliases */
			size_t n = 0, k = 0, count = 0;
			for (const struct opt_choice *c = o->choices; c->name; c++)
				count += strcmp(c->name, "on") && strcmp(c->name, "off");
			buf[0] = '\0';
			for (const struct opt_choice *c = o->choices; c->name && n < size; c++) {
				if (!strcmp(c->name, "on") || !strcmp(c->name, "off"))
					continue;
				k++;
				n += (size_t)snprintf(buf + n, size - n, "%s%s", k == 1 ? "" : k == count ? " or " : ", ",
						      c->name);
			}
			if (n < size)
				snprintf(buf + n, size - n, "; KEY or KEY=on|yes|true|1: %s, no-KEY or "
					 "KEY=off|no|false|0: %s", choice_name(o, "on"), choice_name(o, "off"));
			return buf;
		}
		size_t n = (size_t)snprintf(buf, size, "one of:");
		for (const struct opt_choice *c = o->choices; c->name && n < size; c++)
			n += (size_t)snprintf(buf + n, size - n, "%s %s", c == o->choices ? "" : ",",
					      c->name);
		return buf;
	}
	case OPT_DIMS:
		if (o->flags & OPTF_ZERO_OK)
			snprintf(buf, size, "WIDTHxHEIGHT in decimal, e.g. 1920x1080, each up to %llu (0x0: default)",
				 o->max);
		else
			snprintf(buf, size, "COLSxROWS in decimal, e.g. 80x24, each from 1 to %llu", o->max);
		return buf;
	case OPT_RGB:
		return "R,G,B with each component from 0 to 255, e.g. 205,0,0";
	case OPT_GRAB:
		return "<Mod>...<Mod>keysym[,...] with Mod one of Shift, Lock, Ctrl, Alt, Logo and an xkb "
		       "keysym name, e.g. <Shift>Prior (empty: disabled)";
	case OPT_VT:
		return "auto, N, ttyN or /dev/ttyN with N from 1 to 63";
	case OPT_LOGIN:
		return "a command line: PROGRAM [ARGS...], at most " LOGIN_MAX_WORDS(LOGIN_MAX_ARGS)
		       " words (quotes and backslashes as in a shell)";
	case OPT_SECTION:
		break;
	}
	return "";
}

static int parse_choice(const struct opt *o, struct kf_config *cfg, const char *text)
{
	bool b;
	/* kmscon's boolean forms: a bare key, no-key (text "off") and the boolean words name the on/off choices */
	if ((o->flags & OPTF_BOOL_FORMS) && parse_bool(text, &b) == 0)
		text = b ? "on" : "off";
	/* names in any case, as the boolean words are: bell=ON worked and bell=Visual did not */
	for (const struct opt_choice *c = o->choices; c->name; c++) {
		if (!strcasecmp(c->name, text)) {
			*FIELD(cfg, o, int) = c->value;
			return 0;
		}
	}
	return -EINVAL;
}

int kf_opt_parse(const struct opt *o, struct kf_config *cfg, const char *text, char *why, size_t why_size)
{
	char form[256];
	unsigned long long v;
	const char *end;
	int ret = -EINVAL;

	if (o->type != OPT_BOOL && !(o->flags & OPTF_BOOL_FORMS) && !text)
		return fail(why, why_size, "needs a value (expected %s=%s)", o->name,
			    kf_opt_form(o, form, sizeof(form)));
	switch (o->type) {
	case OPT_BOOL:
		if (o->flags & OPTF_AUTO) {
			bool b;
			if (text && !strcasecmp(text, "auto")) {
				*FIELD(cfg, o, enum kf_tristate) = KF_AUTO;
				ret = 0;
			} else if ((ret = parse_bool(text, &b)) == 0) {
				*FIELD(cfg, o, enum kf_tristate) = b ? KF_ON : KF_OFF;
			}
			break;
		}
		ret = parse_bool(text, FIELD(cfg, o, bool));
		break;
	case OPT_UINT:
		if (parse_ull(text, &end, &v) && !*end && v >= o->min && v <= o->max) {
			*FIELD(cfg, o, unsigned int) = (unsigned int)v;
			ret = 0;
		}
		break;
	case OPT_BYTES:
		if (parse_bytes(text, &v) == 0 && v >= o->min && v <= o->max) {
			*FIELD(cfg, o, size_t) = (size_t)v;
			ret = 0;
		}
		break;
	case OPT_STRING:
		if (check_text(o, text, why, why_size) < 0)
			return -EINVAL;
		return set_string(FIELD(cfg, o, char *), text);
	case OPT_CHOICE:
		ret = parse_choice(o, cfg, text);
		break;
	case OPT_DIMS: {
		struct kf_size d;
		if (parse_dims(text, o->max, &d) == 0 &&
		    ((d.w && d.h) || (!d.w && !d.h && (o->flags & OPTF_ZERO_OK)))) {
			*FIELD(cfg, o, struct kf_size) = d;
			ret = 0;
		}
		break;
	}
	case OPT_RGB:
		ret = parse_rgb(text, FIELD(cfg, o, struct kf_rgb));
		break;
	case OPT_GRAB:
		ret = parse_grab(text, FIELD(cfg, o, struct kf_grab));
		break;
	case OPT_VT:
		ret = parse_vt(text, FIELD(cfg, o, int));
		break;
	case OPT_LOGIN: {
		char **argv;
		if (check_text(o, text, why, why_size) < 0)
			return -EINVAL;
		ret = split_words(text, &argv);
		if (ret == 0) {
			free_argv(cfg->login_argv);
			cfg->login_argv = argv;
			cfg->login_custom = true;
		}
		if (ret == -ENOMEM)
			return ret;
		break;
	}
	case OPT_SECTION:
		break;
	}
	if (ret < 0) {
		const char *t = text ? text : "";
		char quoted[KF_QUOTE_MAX * 4 + 8];
		quote(quoted, sizeof(quoted), t, (size_t)kf_quote_len(t, strlen(t)));
		return fail(why, why_size, "invalid value '%s%s' (expected %s)", quoted, kf_quote_more(strlen(t)),
			    kf_opt_form(o, form, sizeof(form)));
	}
	return 0;
}

/* Appends s to buf at *n like snprintf would, tracking the needed length. */
static void put(char *buf, size_t size, size_t *n, const char *s)
{
	size_t len = strlen(s);
	if (*n < size) {
		size_t room = size - *n - 1;
		memcpy(buf + *n, s, len < room ? len : room);
		buf[*n + (len < room ? len : room)] = '\0';
	}
	*n += len;
}

static bool needs_quotes(const char *s)
{
	return !*s || strpbrk(s, " \t\r\"'\\#") != NULL;
}

static void put_quoted(char *buf, size_t size, size_t *n, const char *s)
{
	if (!needs_quotes(s)) {
		put(buf, size, n, s);
		return;
	}
	put(buf, size, n, "\"");
	for (; *s; s++) {
		char c[3] = {'\\', *s, '\0'};
		put(buf, size, n, (*s == '"' || *s == '\\') ? c : c + 1);
	}
	put(buf, size, n, "\"");
}

static void format_grab(const struct kf_grab *g, char *buf, size_t size, size_t *n)
{
	static const char *const mods[] = {"<Shift>", "<Lock>", "<Ctrl>", "<Alt>", "<Logo>"};
	for (unsigned int i = 0; i < g->n; i++) {
		char name[64];
		if (i)
			put(buf, size, n, ",");
		for (unsigned int b = 0; b < 5; b++)
			if (g->keys[i].mods & (1u << b))
				put(buf, size, n, mods[b]);
		if (xkb_keysym_get_name(g->keys[i].keysym, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "0x%08x", g->keys[i].keysym);
		put(buf, size, n, name);
	}
}

int kf_opt_format(const struct opt *o, const struct kf_config *cfg, char *buf, size_t size)
{
	size_t n = 0;
	char tmp[64];
	if (size)
		buf[0] = '\0';
	switch (o->type) {
	case OPT_BOOL:
		if (o->flags & OPTF_AUTO) {
			enum kf_tristate t = *CFIELD(cfg, o, enum kf_tristate);
			put(buf, size, &n, t == KF_AUTO ? "auto" : t == KF_ON ? "on" : "off");
			break;
		}
		put(buf, size, &n, *CFIELD(cfg, o, bool) ? "on" : "off");
		break;
	case OPT_UINT:
		snprintf(tmp, sizeof(tmp), "%u", *CFIELD(cfg, o, unsigned int));
		put(buf, size, &n, tmp);
		break;
	case OPT_BYTES:
		snprintf(tmp, sizeof(tmp), "%zu", *CFIELD(cfg, o, size_t));
		put(buf, size, &n, tmp);
		break;
	case OPT_STRING: {
		const char *s = *CFIELD(cfg, o, char *);
		if (s)
			put(buf, size, &n, s);
		break;
	}
	case OPT_CHOICE:
		for (const struct opt_choice *c = o->choices; c->name; c++) {
			if (c->value == *CFIELD(cfg, o, int)) {
				put(buf, size, &n, c->name);
				break;
			}
		}
		break;
	case OPT_DIMS: {
		const struct kf_size *d = CFIELD(cfg, o, struct kf_size);
		snprintf(tmp, sizeof(tmp), "%ux%u", d->w, d->h);
		put(buf, size, &n, tmp);
		break;
	}
	case OPT_RGB: {
		const struct kf_rgb *c = CFIELD(cfg, o, struct kf_rgb);
		snprintf(tmp, sizeof(tmp), "%u,%u,%u", c->r, c->g, c->b);
		put(buf, size, &n, tmp);
		break;
	}
	case OPT_GRAB:
		format_grab(CFIELD(cfg, o, struct kf_grab), buf, size, &n);
		break;
	case OPT_VT: {
		int vt = *CFIELD(cfg, o, int);
		snprintf(tmp, sizeof(tmp), vt ? "%d" : "auto", vt);
		put(buf, size, &n, tmp);
		break;
	}
	case OPT_LOGIN:
		for (char **a = cfg->login_argv; a && *a; a++) {
			if (a != cfg->login_argv)
				put(buf, size, &n, " ");
			put_quoted(buf, size, &n, *a);
		}
		break;
	case OPT_SECTION:
		break;
	}
	return n > INT_MAX ? INT_MAX : (int)n;
}

void kf_opt_free(const struct opt *o, struct kf_config *cfg)
{
	if (o->type == OPT_STRING) {
		free(*FIELD(cfg, o, char *));
		*FIELD(cfg, o, char *) = NULL;
	} else if (o->type == OPT_LOGIN) {
		free_argv(cfg->login_argv);
		cfg->login_argv = NULL;
		cfg->login_custom = false;
	}
}
