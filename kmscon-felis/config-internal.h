/* kmscon-felis/config-internal.h: the option table shared by config.c (table, file and command line) and
 * config-value.c (parsing and formatting one value). Not for other modules: use config.h. */
#ifndef KF_CONFIG_INTERNAL_H
#define KF_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "kmscon-felis/config.h"

/* An error quotes at most this many bytes of what it was given (a line, a value, a key), cut before a character
 * that does not fit, and "..." after: a line of a megabyte was quoted whole, to the log's limit, and the
 * message's end (the expected form) was lost. Used as "'%.*s%s'", kf_quote_len(s), s, kf_quote_more(s). */
#define KF_QUOTE_MAX 80
static inline int kf_quote_len(const char *s, size_t len)
{
	if (len <= KF_QUOTE_MAX)
		return (int)len;
	size_t n = KF_QUOTE_MAX;
	while (n > KF_QUOTE_MAX - 3 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return (int)n;
}
static inline const char *kf_quote_more(size_t len)
{
	return len > KF_QUOTE_MAX ? "..." : "";
}

enum opt_type {
	OPT_SECTION, /* not an option: starts a section of --help */
	OPT_BOOL, /* bool; "key", "no-key", key=on|off|yes|no|true|false|1|0 */
	OPT_UINT, /* unsigned int in [min, max] */
	OPT_BYTES, /* size_t in [min, max], with an optional K, M or G suffix (powers of 1024) */
	OPT_STRING, /* char *, heap-owned; the empty value means NULL (unset) */
	OPT_CHOICE, /* an enum (int-sized) from opt->choices (OPTF_BOOL_FORMS: boolean forms too) */
	OPT_DIMS, /* struct kf_size "WxH"; 0x0 only with OPTF_ZERO_OK */
	OPT_RGB, /* struct kf_rgb "R,G,B" */
	OPT_GRAB, /* struct kf_grab, kmscon's "<Mod>keysym[,...]" */
	OPT_VT, /* int: auto|N|ttyN|/dev/ttyN */
	OPT_LOGIN, /* login_argv + login_custom: "--login -- ARGV" or login=PROGRAM ARGS (split like a shell) */
};

enum opt_flags {
	OPTF_CLI_ONLY = 1u << 0, /* not a file key (help, version, configdir) */
	OPTF_ZERO_OK = 1u << 1, /* OPT_DIMS: 0x0 allowed */
	OPTF_IGNORED = 1u << 2, /* a kmscon option we accept and ignore with a warning */
	OPTF_LOG_LEVEL = 1u << 3, /* verbose, debug, silent: one setting, the command line's replaces the file's */
	OPTF_AUTO = 1u << 4, /* OPT_BOOL whose field is an enum kf_tristate: "auto" as well as on and off */
	/* OPT_CHOICE that was a boolean in kmscon (bell): "key", "no-key" and the boolean words are accepted too,
	 * as the choices named "on" and "off" (aliases after the canonical names, left out of the expected form);
	 * on the command line a bare --key takes the next argument only when it is no option. */
	OPTF_BOOL_FORMS = 1u << 5,
	/* What an OPT_STRING may hold (kf_opt_check_text). Without either: a path, any byte but a control
	 * character (a file name may be Latin-1, no UTF-8). */
	OPTF_TEXT_NAME = 1u << 6, /* a name (TERM, XKB names, a seat): printable ASCII, no blank, no '/' */
	OPTF_TEXT_UTF8 = 1u << 7, /* text (a font name): UTF-8 without control characters */
};

struct opt_choice {
	const char *name;
	int value;
};

struct opt {
	const char *name;
	char short_name;
	enum opt_type type;
	unsigned int flags;
	size_t offset;
	const char *def; /* default, as file text, parsed by the same code as user input */
	const char *arg; /* argument name in --help, e.g. "PX" */
	const char *help;
	const char *example; /* a valid non-default value, for the round-trip test */
	unsigned long long min, max;
	const struct opt_choice *choices; /* NULL-name-terminated; the first name of a value is canonical */
};

extern const struct opt kf_opts[];
extern const size_t kf_opts_len;

/* An option that takes "no-key" (and "key" without a value): a boolean, or a choice with its boolean forms.
 * Not --help and --version: they are actions, and --no-help ran the console. */
static inline bool kf_opt_negatable(const struct opt *o)
{
	return (o->type == OPT_BOOL && !(o->flags & OPTF_CLI_ONLY)) ||
	       (o->type == OPT_CHOICE && (o->flags & OPTF_BOOL_FORMS));
}

/* A line of kf_opts that is an option a user can set (not a section title, not a kmscon key we ignore). */
static inline bool kf_opt_is_option(const struct opt *o)
{
	return o->type != OPT_SECTION && !(o->flags & OPTF_IGNORED);
}

/* Parses text into the field of cfg described by o (the old value is freed). On error returns -EINVAL and
 * writes the expected form into why; -ENOMEM. text is NULL for a bare boolean key. */
int kf_opt_parse(const struct opt *o, struct kf_config *cfg, const char *text, char *why, size_t why_size);
/* Formats o's field of cfg as file text (see kf_config_format). */
int kf_opt_format(const struct opt *o, const struct kf_config *cfg, char *buf, size_t size);
/* kf_config_parse() for a reload (config-reload.c): the same but for what only a start says (no file in a
 * --configdir given by hand: a reload says a file gone, once). */
int kf_config_parse_again(struct kf_config *cfg, int argc, char **argv);
/* Sets the logger's level from cfg's verbose, debug and silent (kf_config_parse; a cancelled reload). */
void kf_config_apply_log_level(const struct kf_config *cfg);
/* Frees o's heap-owned field in cfg (strings, login argv). */
void kf_opt_free(const struct opt *o, struct kf_config *cfg);
/* Unquotes a "..." value in place (backslash escapes \" and \\); returns false if the quote is unterminated
 * or followed by anything. */
bool kf_opt_unquote(char *s);
/* Cuts the comment off the line s: a '#' at its start or after a blank, outside the quotes that the parser of
 * its value reads (value: where the value starts, after '=' and blanks; NULL without one). login's value
 * (shell true) is split into words like a shell's, so '...', "..." and backslashes quote anywhere in it; any
 * other value is quoted only as a whole, "...", so a quote inside an unquoted value is a plain character and
 * hides no comment. */
void kf_opt_cut_comment(char *s, const char *value, bool shell);
/* The expected form of o's value, for error messages and --help. */
const char *kf_opt_form(const struct opt *o, char *buf, size_t size);

#endif
