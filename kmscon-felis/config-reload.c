/* kmscon-felis/config-reload.c: the configuration read again while the program runs (SIGHUP; config.h).
 *
 * The new configuration is parsed whole into a struct of its own, exactly as at start (defaults, the file, the
 * same command line); only when that succeeds is it compared with the one in force, key by key through the
 * option table. A key the program cannot change live keeps its old value, moved back field by field (not
 * parsed again), so that every pointer the running program holds into the old struct (the login's argv and
 * TERM in the session, the seat name...) stays valid once the caller replaces the old struct with the new.
 */
#define LOG_TAG "config"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kmscon-felis/config-internal.h"
#include "kmscon-felis/config.h"
#include "kmscon-felis/log.h"

/* What the program applies live (reload.c kf_reload_on_timer): everything else needs a restart. A name ending in '-' is a
 * prefix (the palette's colours, the shortcuts). */
static const char *const live_keys[] = {
	"verbose", "debug", "silent",  /* kf_config_parse() sets the level */
	"palette", "palette-",         /* renderer and grid colours */
	"bell",                        /* the bell is made again */
	"font-name", "font-size", "font-engine", "font-file", /* the renderer's font (display only) */
	"dpms-timeout",                /* the display's blanking timer */
	"mouse", "natural-scrolling", "grab-", /* read per event through the config */
	"backspace-delete",            /* the session's, for the next login (kf_session_set_backspace) */
	"xkb-model", "xkb-layout", "xkb-variant", "xkb-options", "xkb-keymap", /* compiled first, then swapped */
	"xkb-repeat-delay", "xkb-repeat-rate",
};

bool kf_config_key_is_live(const char *name)
{
	for (size_t i = 0; i < sizeof(live_keys) / sizeof(live_keys[0]); i++) {
		size_t n = strlen(live_keys[i]);
		if (live_keys[i][n - 1] == '-' ? !strncmp(name, live_keys[i], n) : !strcmp(name, live_keys[i]))
			return true;
	}
	return false;
}

/* Live keys only a display has something to apply to (reload.c reload_font, the output's blanking): headless
 * they take their new value but are not reported as applied. */
static bool display_only(const char *name)
{
	return !strncmp(name, "font-", 5) || !strcmp(name, "dpms-timeout");
}

/* Live keys a login is given as it starts, the one that runs keeping its own (reload.c): Backspace's byte goes with
 * the tty's erase character, which only the next login can be given. Without a next login (--oneshot; headless,
 * where the program ends with its login) they take their new value but are not reported as applied. */
static bool next_login_only(const char *name)
{
	return !strcmp(name, "backspace-delete");
}

/* The bytes of o's field in struct kf_config; 0 for options without one (login, handled by the caller). */
static size_t field_size(const struct opt *o)
{
	switch (o->type) {
	case OPT_BOOL:
		return (o->flags & OPTF_AUTO) ? sizeof(enum kf_tristate) : sizeof(bool);
	case OPT_UINT:
		return sizeof(unsigned int);
	case OPT_BYTES:
		return sizeof(size_t);
	case OPT_STRING:
		return sizeof(char *);
	case OPT_CHOICE:
	case OPT_VT:
		return sizeof(int);
	case OPT_DIMS:
		return sizeof(struct kf_size);
	case OPT_RGB:
		return sizeof(struct kf_rgb);
	case OPT_GRAB:
		return sizeof(struct kf_grab);
	case OPT_SECTION:
	case OPT_LOGIN:
		break;
	}
	return 0;
}

static void swap_bytes(void *a, void *b, size_t n)
{
	unsigned char tmp[sizeof(struct kf_grab)];
	while (n) {
		size_t k = n < sizeof(tmp) ? n : sizeof(tmp);
		memcpy(tmp, a, k);
		memcpy(a, b, k);
		memcpy(b, tmp, k);
		a = (unsigned char *)a + k;
		b = (unsigned char *)b + k;
		n -= k;
	}
}

/* Gives next cur's value of option o (and cur next's, freed with cur). */
static void keep_old(const struct opt *o, struct kf_config *cur, struct kf_config *next)
{
	if (o->type == OPT_LOGIN) {
		swap_bytes(&cur->login_argv, &next->login_argv, sizeof(cur->login_argv));
		swap_bytes(&cur->login_custom, &next->login_custom, sizeof(cur->login_custom));
		return;
	}
	swap_bytes((char *)cur + o->offset, (char *)next + o->offset, field_size(o));
}

/* Whether option o has the same value in a and b, compared as text (kf_opt_format) however long it is: a
 * font-file path that differed past a fixed buffer compared equal and was not applied. Out of memory it counts
 * as changed (a live key is applied again, a restart-only one named in the notice: nothing is lost). */
static bool same_value(const struct opt *o, const struct kf_config *a, const struct kf_config *b)
{
	char x[256], y[256];
	int nx = kf_opt_format(o, a, x, sizeof(x)), ny = kf_opt_format(o, b, y, sizeof(y));
	if (nx != ny)
		return false;
	if ((size_t)nx < sizeof(x))
		return !strcmp(x, y);
	char *lx = malloc((size_t)nx + 1), *ly = malloc((size_t)ny + 1);
	bool same = false;
	if (lx && ly) {
		kf_opt_format(o, a, lx, (size_t)nx + 1);
		kf_opt_format(o, b, ly, (size_t)ny + 1);
		same = !strcmp(lx, ly);
	}
	free(lx);
	free(ly);
	return same;
}

/* Whether a reload gives option o its new value. */
static bool live(const struct opt *o)
{
	return kf_config_key_is_live(o->name) && !(o->flags & OPTF_CLI_ONLY);
}

/* Appends ", name" (or "name" first) to buf, "..." once it is full. */
static void add_name(char *buf, size_t size, const char *name)
{
	size_t len = strlen(buf);
	if (len + 4 >= size)
		return;
	int n = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name);
	if (n < 0 || (size_t)n >= size - len)
		strcpy(buf + size - 4, "...");
}

int kf_config_reload(struct kf_config *cur, struct kf_config *next, int argc, char **argv, char *applied,
		     size_t size)
{
	char restart[512] = "";
	char nothing[128] = ""; /* the display's keys, changed while headless */
	char no_login[64] = ""; /* the next login's keys, changed with no next login */
	/* (before the loop: it moves the new backend into cur with the other restart-only keys; oneshot too) */
	bool headless = cur->backend == KF_BACKEND_HEADLESS, respawn = !headless && !cur->oneshot;
	/* kf_config_parse() sets the command line's level before it reads the file: a file that then fails must
	 * not leave the level changed (verbose in the file, none on the command line). */
	enum kf_log_level level = kf_log_get_level();
	applied[0] = '\0';
	int ret = kf_config_parse_again(next, argc, argv);
	if (ret != 0) {
		kf_log_set_level(level);
		kf_config_finish(next);
		return ret < 0 ? ret : -EINVAL;
	}
	for (size_t i = 0; i < kf_opts_len; i++) {
		const struct opt *o = &kf_opts[i];
		if (!kf_opt_is_option(o))
			continue;
		bool changed = !same_value(o, cur, next);
		/* Unchanged keys move too: the running program may hold pointers into cur (see the top). */
		if (!live(o)) {
			keep_old(o, cur, next);
			if (changed)
				add_name(restart, sizeof(restart), o->name);
		} else if (changed) {
			if (headless && display_only(o->name))
				add_name(nothing, sizeof(nothing), o->name);
			else if (!respawn && next_login_only(o->name))
				add_name(no_login, sizeof(no_login), o->name);
			else
				add_name(applied, size, o->name);
		}
	}
	/* Every key the file set is back at its default: what an admin must be told, not a debug line (once: the
	 * next reload without a file has nothing new to say). */
	if (cur->file_read && !next->file_read)
		log_warn("reload: %s/kmscon-felis.conf is gone: the defaults and the command line apply",
			 next->configdir);
	/* The same for a file emptied: valid, but perhaps a writer caught between its truncation and its first
	 * write (kmscon-felis.conf(5)). */
	else if (cur->file_read && !cur->file_empty && next->file_read && next->file_empty)
		log_warn("reload: %s/kmscon-felis.conf is empty: the defaults and the command line apply",
			 next->configdir);
	if (nothing[0])
		log_notice("reload: %s: nothing to apply them to without a display (headless)", nothing);
	if (no_login[0])
		log_notice("reload: %s: applies from the next login, and none follows this one (%s): the running one keeps "
			   "its Backspace and erase character", no_login, headless ? "headless" : "--oneshot");
	if (restart[0])
		log_notice("reload: %s changed but needs a restart (the old value stays in force)", restart);
	return 0;
}

void kf_config_reload_swap(struct kf_config *cur, struct kf_config *next)
{
	for (size_t i = 0; i < kf_opts_len; i++) {
		const struct opt *o = &kf_opts[i];
		if (kf_opt_is_option(o) && !live(o))
			keep_old(o, cur, next);
	}
}

void kf_config_reload_cancel(struct kf_config *cur, struct kf_config *next)
{
	kf_config_reload_swap(cur, next); /* the same swap again: each side gets its own value back */
	kf_config_finish(next);
	kf_config_apply_log_level(cur);
}
