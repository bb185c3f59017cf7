/* kmscon-felis/config-help.c: the option table read back: the options one by one (for the tests' round trip
 * and the man page check), a configuration written as file text, and --help. The table itself and the parsers
 * are config.c. */
#include "kmscon-felis/config.h"

#include <stdio.h>
#include <string.h>

#include "kf-config.h"
#include "kmscon-felis/config-internal.h"

static const struct opt *nth(size_t i)
{
	for (size_t k = 0; k < kf_opts_len; k++)
		if (kf_opt_is_option(&kf_opts[k]) && i-- == 0)
			return &kf_opts[k];
	return NULL;
}

size_t kf_config_option_count(void)
{
	size_t n = 0;
	for (size_t k = 0; k < kf_opts_len; k++)
		n += kf_opt_is_option(&kf_opts[k]);
	return n;
}

const char *kf_config_option_name(size_t i)
{
	const struct opt *o = nth(i);
	return o ? o->name : NULL;
}

bool kf_config_option_is_key(size_t i)
{
	const struct opt *o = nth(i);
	return o && !(o->flags & OPTF_CLI_ONLY);
}

bool kf_config_option_is_bool(size_t i)
{
	const struct opt *o = nth(i);
	return o && o->type == OPT_BOOL;
}

const char *kf_config_option_example(size_t i)
{
	const struct opt *o = nth(i);
	return o ? o->example : NULL;
}

const char *kf_config_option_default(size_t i)
{
	const struct opt *o = nth(i);
	return o ? o->def : NULL;
}

int kf_config_format(const struct kf_config *cfg, size_t i, char *buf, size_t size)
{
	const struct opt *o = nth(i);
	if (!o) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	return kf_opt_format(o, cfg, buf, size);
}

void kf_config_write(const struct kf_config *cfg, FILE *out)
{
	char buf[4096];
	for (const struct opt *o = kf_opts; o < kf_opts + kf_opts_len; o++) {
		if (!kf_opt_is_option(o) || (o->flags & OPTF_CLI_ONLY))
			continue;
		kf_opt_format(o, cfg, buf, sizeof(buf));
		if (o->type == OPT_BOOL) {
			/* (from the formatted value: an OPTF_AUTO field is no bool, and "auto" has no bare form) */
			if (!strcmp(buf, "auto"))
				fprintf(out, "%s=auto\n", o->name);
			else
				fprintf(out, "%s%s\n", strcmp(buf, "on") ? "no-" : "", o->name);
		} else if (o->type != OPT_LOGIN && buf[0] &&
			   (strpbrk(buf, "\"#\\") || strchr(" \t\r", buf[0]) ||
			    strchr(" \t\r", buf[strlen(buf) - 1]))) {
			/* quoted where the parser would strip or misread it: the blanks it trims around a value
			 * (a tab or CR as well as a space), a comment mark, a quote or a backslash */
			fprintf(out, "%s=\"", o->name);
			for (const char *s = buf; *s; s++)
				fprintf(out, (*s == '"' || *s == '\\') ? "\\%c" : "%c", *s);
			fprintf(out, "\"\n");
		} else {
			fprintf(out, "%s=%s\n", o->name, buf);
		}
	}
}

/* Prints text from column col, wrapping at 80 columns with continuation lines indented to indent. */
static void print_wrapped(FILE *out, const char *text, int col, int indent)
{
	while (*text) {
		const char *sp = strchr(text, ' ');
		int wlen = sp ? (int)(sp - text) : (int)strlen(text);
		if (col > indent && col + 1 + wlen > 80) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", wlen, text);
		col += wlen;
		text += wlen;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

void kf_config_print_help(FILE *out, const char *argv0)
{
	enum { COL = 32 };
	fprintf(out,
		"Usage: %s [OPTIONS] [--login -- PROGRAM [ARGS...]]\n"
		"A console terminal for bare Linux (DRM/KMS, libseat, libinput).\n\n"
		"Every long option is also a key of %s/kmscon-felis/kmscon-felis.conf;\n"
		"the command line wins. Boolean options take a \"no-\" prefix to turn them off\n"
		"(--no-mouse). Defaults in [].\n",
		argv0, KF_SYSCONFDIR);
	for (const struct opt *o = kf_opts; o < kf_opts + kf_opts_len; o++) {
		char left[96], text[512];
		if (o->type == OPT_SECTION) {
			fprintf(out, "\n%s:\n", o->name);
			continue;
		}
		if (o->flags & OPTF_IGNORED)
			continue;
		if (o->short_name)
			snprintf(left, sizeof(left), "  -%c, ", o->short_name);
		else
			snprintf(left, sizeof(left), "      ");
		size_t n = strlen(left);
		if (o->type == OPT_LOGIN)
			snprintf(left + n, sizeof(left) - n, "--login -- PROGRAM [ARGS...]");
		else
			snprintf(left + n, sizeof(left) - n, "--%s%s%s%s%s", kf_opt_negatable(o) ? "[no-]" : "",
				 o->name, !o->arg ? "" : kf_opt_negatable(o) ? "[=" : "=", o->arg ? o->arg : "",
				 o->arg && kf_opt_negatable(o) ? "]" : "");
		int len = (int)strlen(left);
		fputs(left, out);
		if (len >= COL - 1) {
			fprintf(out, "\n%*s", COL, "");
		} else {
			fprintf(out, "%*s", COL - len, "");
		}
		const char *only = o->flags & OPTF_CLI_ONLY ? " (command line only)" : "";
		/* The range the parser takes, from the table itself: tests/service/man-check.py holds
		 * kmscon-felis.conf(5)'s "from MIN to MAX" to it. */
		char range[64] = "";
		if (o->type == OPT_UINT || o->type == OPT_BYTES)
			snprintf(range, sizeof(range), " (%llu to %llu)", o->min, o->max);
		else if (o->type == OPT_DIMS)
			snprintf(range, sizeof(range), " (each side 1 to %llu%s)", o->max,
				 (o->flags & OPTF_ZERO_OK) ? ", or 0x0" : "");
		if (!(o->flags & OPTF_CLI_ONLY) || o->type != OPT_BOOL)
			snprintf(text, sizeof(text), "%s%s%s [%s]", o->help, range, only,
				 o->def && *o->def ? o->def : "unset");
		else
			snprintf(text, sizeof(text), "%s%s", o->help, only);
		print_wrapped(out, text, COL, COL);
	}
}
