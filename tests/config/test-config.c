/* tests/config/test-config.c: the configuration library against its own option table.
 *
 * - every default parses, and formats back to text that parses to the same value;
 * - every file key round-trips: set to its example (which must differ from the default), written with
 *   kf_config_write(), read back into a fresh config: every option formats the same;
 * - each kind of bad line is an error naming file and line and the expected form; unknown keys warn;
 * - rotate, hostile input, what the log shows of bad lines.
 * The command line and single options are in test-config-options.c (split for size). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/config.h"
#include "kmscon-felis/log.h"
#include "../kf-capture.h"

static int failures;

#include "config-test.h"

static void test_defaults(void)
{
	struct kf_config a, b;
	char buf[1024], buf2[1024];
	CHECK(kf_config_init(&a) == 0, "init");
	CHECK(a.backend == KF_BACKEND_DRM && a.size.w == 80 && a.size.h == 24, "backend defaults");
	CHECK(!strcmp(a.login_argv[0], "/bin/login") && !strcmp(a.login_argv[1], "-p") && !a.login_argv[2],
	      "login default");
	CHECK(!a.login_custom, "login default is not custom");
	CHECK(!strcmp(a.term, "xterm-256color") && a.reset_env && !a.oneshot && a.sb_size == 10000,
	      "session defaults");
	CHECK(a.write_queue_size == 4u << 20, "write queue default %zu", a.write_queue_size);
	CHECK(a.vt == 0 && a.switchvt && a.activate_vt && !a.seat, "seat defaults");
	CHECK(a.xkb_repeat_delay == 250 && a.xkb_repeat_rate == 50 && a.mouse && a.backspace_delete,
	      "input defaults");
	CHECK(!a.xkb_layout && !a.xkb_keymap, "xkb unset");
	CHECK(a.grab_page_up.n == 1 && a.grab_page_up.keys[0].mods == KF_MOD_SHIFT &&
		      a.grab_page_up.keys[0].keysym == 0xff55 /* XKB_KEY_Prior */,
	      "grab-page-up default");
	CHECK(a.grab_zoom_in.n == 2, "grab-zoom-in has two alternatives");
	CHECK(a.mode.w == 0 && a.mode.h == 0 && a.dpms_timeout == 600, "display defaults");
	CHECK(!strcmp(a.font_name, "monospace") && a.font_size == 16 &&
		      a.font_engine == KF_FONT_ENGINE_FONTCONFIG && !a.font_file,
	      "font defaults");
	CHECK(a.palette == KF_PALETTE_DEFAULT && a.palette_custom[KF_COLOR_BLUE].b == 238 &&
		      a.palette_custom[KF_COLOR_LIGHT_BLUE].r == 92,
	      "palette defaults");
	/* Every default formats to text that reads back to the same value. */
	CHECK(kf_config_init(&b) == 0, "init b");
	for (size_t i = 0; i < kf_config_option_count(); i++) {
		if (!kf_config_option_is_key(i))
			continue;
		const char *name = kf_config_option_name(i);
		kf_config_format(&a, i, buf, sizeof(buf));
		CHECK(kf_config_set(&b, name, kf_config_option_is_bool(i) ? buf : buf) == 0, "set %s=%s",
		      name, buf);
		kf_config_format(&b, i, buf2, sizeof(buf2));
		CHECK(!strcmp(buf, buf2), "%s: default '%s' reads back as '%s'", name, buf, buf2);
	}
	kf_config_finish(&a);
	kf_config_finish(&b);
	kf_config_finish(&b); /* twice is fine */
}

static void test_round_trip(void)
{
	struct kf_config a, b, d;
	char buf[4096], buf2[4096], dbuf[4096];
	kf_config_init(&a);
	kf_config_init(&d);
	size_t keys = 0;
	for (size_t i = 0; i < kf_config_option_count(); i++) {
		if (!kf_config_option_is_key(i))
			continue;
		keys++;
		const char *name = kf_config_option_name(i);
		const char *ex = kf_config_option_example(i);
		if (kf_config_option_is_bool(i)) {
			/* Flip it: the opposite of the default. */
			kf_config_format(&d, i, dbuf, sizeof(dbuf));
			ex = strcmp(dbuf, "on") ? "on" : "off";
		}
		CHECK(ex != NULL, "%s has an example value", name);
		if (!ex)
			continue;
		CHECK(kf_config_set(&a, name, ex) == 0, "%s=%s is accepted", name, ex);
		kf_config_format(&a, i, buf, sizeof(buf));
		kf_config_format(&d, i, dbuf, sizeof(dbuf));
		CHECK(strcmp(buf, dbuf) != 0, "%s: example '%s' differs from the default", name, ex);
	}
	CHECK(keys >= 60, "the table has every key (%zu)", keys);
	/* The headless backend with a dump file, a custom palette: a whole non-default configuration. */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	kf_config_write(&a, f);
	fclose(f);
	kf_config_init(&b);
	CHECK(kf_config_parse_text(&b, "roundtrip.conf", text, len) == 0, "written config reads back:\n%s",
	      text);
	for (size_t i = 0; i < kf_config_option_count(); i++) {
		kf_config_format(&a, i, buf, sizeof(buf));
		kf_config_format(&b, i, buf2, sizeof(buf2));
		CHECK(!strcmp(buf, buf2), "%s: '%s' round-trips as '%s'", kf_config_option_name(i), buf, buf2);
	}
	CHECK(b.login_custom && !strcmp(b.login_argv[0], "/usr/bin/app") &&
		      !strcmp(b.login_argv[2], "two words") && !b.login_argv[3],
	      "login argv with quoting round-trips");
	free(text);
	kf_config_finish(&a);
	kf_config_finish(&b);
	kf_config_finish(&d);
}

/* Values whose edges hold the blanks the parser trims around a value, or a login argument holding a tab:
 * written back quoted, so that they read back whole (fuzz-config found both). A tab or a CR in any other value
 * is a control character, refused (tests/config/config-controls.py): they were kept as given. */
static void test_round_trip_blanks(void)
{
	static const char text[] = "font-name=\"  Font \"\nfont-file=\" /f \"\n"
				   "login=/bin/echo y 'x\t'\n";
	struct kf_config a, b;
	char buf[256], buf2[256];
	kf_config_init(&a);
	kf_config_init(&b);
	CHECK(kf_config_parse_text(&a, "blanks.conf", text, sizeof(text) - 1) == 0, "blanks.conf parses");
	CHECK(a.font_name && !strcmp(a.font_name, "  Font "), "font-name keeps its quoted blanks");
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	kf_config_write(&a, f);
	fclose(f);
	CHECK(kf_config_parse_text(&b, "rewritten.conf", out, len) == 0, "written config reads back:\n%s", out);
	for (size_t i = 0; i < kf_config_option_count(); i++) {
		kf_config_format(&a, i, buf, sizeof(buf));
		kf_config_format(&b, i, buf2, sizeof(buf2));
		CHECK(!strcmp(buf, buf2), "%s: '%s' round-trips as '%s'", kf_config_option_name(i), buf, buf2);
	}
	CHECK(b.login_argv && b.login_argv[2] && !strcmp(b.login_argv[2], "x\t"), "login's tab round-trips");
	free(out);
	kf_config_finish(&a);
	kf_config_finish(&b);
}

static void test_bad_lines(void)
{
	bad("font-size=abc", 1, "expected an integer from 4 to 400");
	bad("# comment\nfont-size=0\n", 2, "expected an integer from 4 to 400");
	bad("\n\nfont-size=16px", 3, "font-size: invalid value '16px'");
	bad("font-size", 1, "needs a value (expected font-size=");
	bad("mouse=maybe", 1, "expected KEY, no-KEY or KEY=on|off");
	bad("no-mouse=yes", 1, "takes no value");
	/* no-KEY for a key that takes a value was "unknown key, ignored", a warning: the start went on with the key
	 * as it was (no-login ran /bin/login), where --no-login is an error */
	bad("term=linux\nno-login\n", 2, "login takes a value");
	bad("no-sb-size\n", 1, "sb-size takes a value");
	bad("  no-issue-path  \n", 1, "(expected issue-path=a path");
	bad("no-font-size\n", 1, "no-font-size");
	bad("no-grab-paste\n", 1, "(expected grab-paste=<Mod>");
	bad("=3", 1, "malformed line");
	bad("font size=3", 1, "malformed line '");
	bad("Font-Size=3", 1, "expected key=value");
	bad("font-name=\"unterminated", 1, "unterminated");
	bad("backend=fbdev", 1, "expected one of: drm, headless");
	bad("palette=rainbow", 1, "solarized-white");
	bad("palette-red=256,0,0", 1, "expected R,G,B");
	bad("palette-red=1,2", 1, "expected R,G,B");
	bad("mode=1920", 1, "WIDTHxHEIGHT");
	bad("size=0x24", 1, "COLSxROWS");
	/* The grid holds at most 4096 x 4096 cells: a larger headless size was clamped without a word. */
	bad("size=5000x24", 1, "each from 1 to 4096");
	bad("size=80x4097", 1, "each from 1 to 4096");
	bad("vt=tty99", 1, "ttyN");
	/* VT 0 is no VT (the kernel's tty0 is whichever one is in front): "auto" is the word for "any". */
	bad("vt=0", 1, "N from 1 to 63");
	/* and 64 is past the kernel's last VT (MAX_NR_CONSOLES 63), in every spelling */
	bad("vt=64", 1, "N from 1 to 63");
	bad("vt=/dev/tty64", 1, "N from 1 to 63");
	bad("grab-page-up=<Hyper>Prior", 1, "<Mod>...<Mod>keysym");
	bad("grab-page-up=<Shift>NoSuchKeysym", 1, "xkb keysym");
	bad("grab-page-up=<Shift", 1, "<Mod>");
	bad("login=", 1, "PROGRAM [ARGS...]");
	bad("login=/bin/sh \"-c", 1, "PROGRAM [ARGS...]");
	/* An empty program name can only fail to start, over and over. */
	bad("login=\"\" -p", 1, "PROGRAM [ARGS...]");
	bad("login=''", 1, "PROGRAM [ARGS...]");
	/* The word limit (the program and 255 arguments) is taken at its bound, and one word more names it: the
	 * error only said "expected a command line", which the line was. */
	{
		char line[16 + 257 * 2];
		int n = snprintf(line, sizeof(line), "login=/bin/echo");
		for (int i = 1; i < 256; i++)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " x");
		struct kf_config c;
		kf_config_init(&c);
		CHECK(kf_config_parse_text(&c, "test.conf", line, (size_t)n) == 0 && c.login_argv[255] &&
			      !c.login_argv[256], "256 words taken");
		kf_config_finish(&c);
		snprintf(line + n, sizeof(line) - (size_t)n, " x");
		bad(line, 1, "at most 256 words");
	}
	bad("write-queue-size=1T", 1, "optional K, M or G suffix");
	/* found unreached by tools/coverage: G above the bound, a colour with text after it, a key combination
	 * with no keysym, more than KF_GRAB_MAX (4) combinations */
	bad("write-queue-size=2G", 1, "from 4096 to 1073741824");
	bad("palette-red=1,2,3x", 1, "expected R,G,B");
	bad("grab-page-up=<Shift>", 1, "<Mod>...<Mod>keysym");
	bad("grab-page-up=a,b,c,d,e", 1, "<Mod>...<Mod>keysym");
	bad("sb-size=99999999999999999999999", 1, "integer from 0 to 1000000");
	/* found unreached by tools/coverage (session 54): a count whose suffix takes it past 2^64, which would
	 * wrap (17179869185G is 2^64 + 1 GiB: 1 GiB, in range, had the shift not been checked); a keysym name too
	 * long for any keysym */
	bad("write-queue-size=17179869185G", 1, "from 4096 to 1073741824");
	bad("write-queue-size=18014398509481985K", 1, "from 4096 to 1073741824");
	bad("grab-page-up=<Shift>Priorxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 1,
	    "<Mod>...<Mod>keysym");
	/* mode=0x0 is the preferred mode (the man page); half of it zero is no mode, nor is a side past the
	 * sanity bound */
	bad("mode=1920x0", 1, "WIDTHxHEIGHT");
	bad("mode=0x1080", 1, "WIDTHxHEIGHT");
	bad("mode=100001x1080", 1, "WIDTHxHEIGHT");
	{
		struct kf_config c;
		kf_config_init(&c);
		const char *m = "mode=1024x768\nmode=0x0\n";
		CHECK(kf_config_parse_text(&c, "test.conf", m, strlen(m)) == 0 && c.mode.w == 0 && c.mode.h == 0,
		      "mode=0x0 taken: %ux%u", c.mode.w, c.mode.h);
		kf_config_finish(&c);
	}
	bad_n("mouse\nx\0y\n", 8, 2, "NUL");
	/* Every error is reported, not only the first. */
	struct kf_config c;
	kf_config_init(&c);
	capture_begin();
	const char *two = "font-size=1\nmouse\nfont-size=2\n";
	kf_config_parse_text(&c, "two.conf", two, strlen(two));
	const char *log = capture_end();
	CHECK(strstr(log, "two.conf:1:") && strstr(log, "two.conf:3:"), "both bad lines reported: %s", log);
	kf_config_finish(&c);
}

static void test_good_lines(void)
{
	struct kf_config c;
	kf_config_init(&c);
	const char *text = "# kmscon-style file\n"
			   "  font-size = 20   # trailing comment\n"
			   "font-name=DejaVu Sans Mono\n"
			   "no-mouse\n"
			   "switchvt=off\n"
			   "font-file=\"/f/a # not a comment\"\n"
			   "palette-red = 1, 2 ,3\r\n"
			   "vt=/dev/tty5\n"
			   "login=/bin/sh -c 'echo hi; exec cat'\n"
			   "grab-zoom-in=<Ctrl>Plus , <control>KP_Add\n"
			   "write-queue-size=64K\n"
			   "hwaccel\n"
			   "frobnicate=7\n"
			   "verbose=yes";
	capture_begin();
	int ret = kf_config_parse_text(&c, "good.conf", text, strlen(text));
	const char *log = capture_end();
	CHECK(ret == 0, "good file parses: %s", log);
	CHECK(c.font_size == 20 && !strcmp(c.font_name, "DejaVu Sans Mono"), "font");
	CHECK(!c.mouse && !c.switchvt && c.verbose, "booleans");
	CHECK(!strcmp(c.font_file, "/f/a # not a comment"), "quoted value keeps '#': %s", c.font_file);
	CHECK(c.palette_custom[KF_COLOR_RED].r == 1 && c.palette_custom[KF_COLOR_RED].b == 3, "rgb");
	CHECK(c.vt == 5, "vt %d", c.vt);
	CHECK(!strcmp(c.login_argv[0], "/bin/sh") && !strcmp(c.login_argv[2], "echo hi; exec cat") &&
		      !c.login_argv[3],
	      "login split");
	CHECK(c.grab_zoom_in.n == 2 && c.grab_zoom_in.keys[0].keysym == 0x2b &&
		      c.grab_zoom_in.keys[1].mods == KF_MOD_CTRL,
	      "grab list");
	CHECK(c.write_queue_size == 65536, "K suffix");
	CHECK(strstr(log, "good.conf:13: unknown key 'frobnicate'") != NULL, "unknown key warns with line: %s",
	      log);
	CHECK(strstr(log, "good.conf:12:") && strstr(log, "hwaccel"), "kmscon key warns: %s", log);
	/* the G suffix and the largest size the man page allows (1G); blanks inside a key combination; four
	 * combinations, KF_GRAB_MAX; a command-line-only option in a file warns and is ignored (the man page:
	 * "but help, version and configdir (ignored here with a warning)") */
	const char *more = "write-queue-size=1g\ngrab-page-up=  <Ctrl> <Alt> Prior\ngrab-page-down=a,b,c,d\n"
			   "configdir=/nonexistent\n";
	capture_begin();
	ret = kf_config_parse_text(&c, "more.conf", more, strlen(more));
	log = capture_end();
	CHECK(ret == 0 && c.write_queue_size == 1u << 30, "G suffix: %d %zu", ret, c.write_queue_size);
	CHECK(c.grab_page_up.n == 1 && c.grab_page_up.keys[0].mods == (KF_MOD_CTRL | KF_MOD_ALT) &&
		      c.grab_page_up.keys[0].keysym == 0xff55,
	      "blanks in a combination: n %u mods %x", c.grab_page_up.n, c.grab_page_up.keys[0].mods);
	CHECK(c.grab_page_down.n == 4, "four combinations: %u", c.grab_page_down.n);
	CHECK(strstr(log, "more.conf:4: 'configdir' is a command-line option, ignored in a file"), "configdir: %s",
	      log);
	/* A tab is a blank as a space is (kmscon-felis.conf(5): "blanks around the commas are allowed"): a colour
	 * or a shortcut lined up with tabs was an error, exit status 78 (2 then). */
	const char *tabs = "palette-green=1,\t2\t, 3\ngrab-paste=<Ctrl>\t<Alt>\tInsert\t,\t<Shift>Insert\n";
	capture_begin();
	ret = kf_config_parse_text(&c, "tabs.conf", tabs, strlen(tabs));
	log = capture_end();
	CHECK(ret == 0 && c.palette_custom[KF_COLOR_GREEN].g == 2 && c.palette_custom[KF_COLOR_GREEN].b == 3,
	      "tabs around a colour's commas: %d %s", ret, log);
	CHECK(ret == 0 && c.grab_paste.n == 2 && c.grab_paste.keys[0].mods == (KF_MOD_CTRL | KF_MOD_ALT) &&
		      c.grab_paste.keys[1].mods == KF_MOD_SHIFT,
	      "tabs in a shortcut: n %u", c.grab_paste.n);
	kf_config_finish(&c);
}

/* A '#' is a comment only outside the quotes the value's parser reads: login's are a shell's ('...', "..." and
 * backslashes), other keys' a leading "..." (a quote inside an unquoted value is a plain character). */
static void test_comments(void)
{
	static const struct {
		const char *line, *key, *expect;
	} cases[] = {
		{"login=/bin/sh -c 'echo # hi' # comment", "login", "echo # hi"},
		{"login=/bin/sh -c \"echo \\\" # hi\" # comment", "login", "echo \" # hi"},
		{"login=/bin/sh -c echo\\ #hi", "login", "echo #hi"},
		{"login=/bin/sh -c x # it's a comment", "login", "x"},
		{"font-name=\"C:\\\\\" # trailing backslash", "font-name", "C:\\"},
		{"font-name=My \"Font # comment", "font-name", "My \"Font"},
		{"font-name=it's # comment", "font-name", "it's"},
		{"font-name=a#b # comment", "font-name", "a#b"},
		{"mouse # comment", "mouse", NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kf_config c;
		kf_config_init(&c);
		c.mouse = false;
		capture_begin();
		int ret = kf_config_parse_text(&c, "comment.conf", cases[i].line, strlen(cases[i].line));
		const char *log = capture_end();
		CHECK(ret == 0, "'%s' parses: %s", cases[i].line, log);
		const char *got = "";
		if (!strcmp(cases[i].key, "login"))
			got = c.login_argv && c.login_argv[0] && c.login_argv[1] && c.login_argv[2] ? c.login_argv[2]
												: "(none)";
		else if (!strcmp(cases[i].key, "font-name"))
			got = c.font_name ? c.font_name : "(unset)";
		if (cases[i].expect)
			CHECK(!strcmp(got, cases[i].expect), "'%s' gives '%s', not '%s'", cases[i].line, got,
			      cases[i].expect);
		else
			CHECK(c.mouse, "'%s' turns mouse on", cases[i].line);
		kf_config_finish(&c);
	}
}

/* Hostile input: lines mutated from valid ones and random bytes never crash, leak (ASan) or hang. */
static void test_garbage(void)
{
	static const char *const seeds[] = {
		"font-size=16", "grab-zoom-in=<Ctrl>plus,<Ctrl>equal", "login=/bin/sh -c 'a \\\" b'",
		"palette-red=1,2,3", "xkb-layout=\"de\"", "vt=/dev/tty3", "mode=1920x1080", "no-mouse",
		"write-queue-size=4M",
	};
	unsigned int seed = 12345;
	char line[256];
	struct kf_config c;
	kf_config_init(&c);
	capture_begin();
	for (int i = 0; i < 20000; i++) {
		seed = seed * 1103515245u + 12345u;
		const char *base = seeds[(seed >> 8) % (sizeof(seeds) / sizeof(seeds[0]))];
		size_t n = strlen(base);
		memcpy(line, base, n);
		for (int k = 0; k < 3; k++) {
			seed = seed * 1103515245u + 12345u;
			size_t pos = (seed >> 4) % (n + 1);
			seed = seed * 1103515245u + 12345u;
			char ch = (char)(seed >> 16);
			if (pos < n)
				line[pos] = ch;
			else if (n < sizeof(line) - 1)
				line[n++] = ch;
		}
		kf_config_parse_text(&c, "garbage.conf", line, n);
	}
	capture_end();
	kf_config_finish(&c);
}

/* Whether s is UTF-8 without C1 controls (U+0080-U+009F, which some terminals act on as ESC + a letter). */
static bool clean_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t len = s[i] < 0x80 ? 1 : (s[i] & 0xe0) == 0xc0 ? 2 : (s[i] & 0xf0) == 0xe0 ? 3 :
			     (s[i] & 0xf8) == 0xf0 ? 4 : 0;
		if (!len || i + len > n || (s[i] == 0xc2 && s[i + 1] < 0xa0) || s[i] == 0xc0 || s[i] == 0xc1)
			return false;
		for (size_t k = 1; k < len; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
		i += len;
	}
	return true;
}

/* A bad line is quoted in its error, but as one line of text a terminal shows as it is: its control characters
 * and bytes that are no UTF-8 escaped (\xNN), and only its start when it is long, so that the line's number and
 * the expected form still end the message. A line with ESC ] 0 ; ... BEL, ESC [ 2 J and a CR went to the
 * terminal (and the journal) as it was: the admin's title was set, the screen cleared and the message
 * overwritten by what followed the CR; a byte that is no UTF-8 made journald store the message as a blob. */
static void test_log_lines_clean(void)
{
	char text[12000];
	struct kf_config c;
	int n = snprintf(text, sizeof(text), "bad \033]0;pwned\007\033[2J line\rfake ok\nfont-size=1\xff\xc2\x9b" "2m\n"
			 "sb-size=");
	memset(text + n, '9', 5000);
	n += 5000;
	n += snprintf(text + n, sizeof(text) - (size_t)n, "\nmalformed ");
	memset(text + n, 'x', 5000);
	n += 5000;
	text[n++] = '\n';
	kf_config_init(&c);
	capture_begin();
	int ret = kf_config_parse_text(&c, "esc.conf", text, (size_t)n);
	const char *log = capture_end();
	CHECK(ret == -EINVAL, "the bad lines are errors (ret %d)", ret);
	int lines = 0;
	for (const char *l = log; *l; lines++) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		bool ctl = false;
		for (size_t i = 0; i < len; i++)
			ctl |= (unsigned char)l[i] < 0x20 || l[i] == 0x7f;
		CHECK(!ctl && clean_utf8((const unsigned char *)l, len), "log line %d holds controls or no UTF-8: %.*s",
		      lines + 1, (int)len, l);
		CHECK(len <= 400, "log line %d has %zu bytes, more than 400", lines + 1, len);
		CHECK(memmem(l, len, "(expected", 9) != NULL, "log line %d lost its end: %.*s", lines + 1, (int)len, l);
		l += len + (end ? 1 : 0);
	}
	CHECK(lines == 4, "4 errors in 4 lines of log, not %d: %s", lines, log);
	CHECK(strstr(log, "esc.conf:1: malformed line 'bad \\x1b]0;pwned\\x07\\x1b[2J line\\x0dfake ok'"),
	      "line 1 quoted with its controls escaped: %s", log);
	CHECK(strstr(log, "esc.conf:2: font-size: invalid value '1\\xff\\xc2\\x9b2m'"),
	      "line 2 quoted with its bytes escaped: %s", log);
	kf_config_finish(&c);
}

/* Characters that show as nothing (a zero-width space, a byte order mark, bidi controls that reorder what follows)
 * are written as \uXXXX in a quoted line, and a byte order mark at the start of the file (editors on Windows write
 * one) is skipped as systemd's parser skips it. The error said "malformed line 'sb-size=100'", its line
 * looking right, and a value with a zero-width space "invalid value '12'". */
static void test_log_invisible(void)
{
	static const char bom[] = "\xef\xbb\xbf" "sb-size=100\n";
	static const char hidden[] = "font-size=\xe2\x80\x8b" "12\nmouse\xe2\x80\xae" "xyz\n\xef\xbb\xbfno-mouse\n";
	struct kf_config c;
	kf_config_init(&c);
	capture_begin();
	int ret = kf_config_parse_text(&c, "bom.conf", bom, sizeof(bom) - 1);
	const char *log = capture_end();
	CHECK(ret == 0 && c.sb_size == 100, "a byte order mark at the start is skipped (ret %d): %s", ret, log);
	capture_begin();
	ret = kf_config_parse_text(&c, "hidden.conf", hidden, sizeof(hidden) - 1);
	log = capture_end();
	CHECK(ret == -EINVAL, "hidden characters are errors (ret %d)", ret);
	CHECK(strstr(log, "hidden.conf:1: font-size: invalid value '\\u200b12'"), "zero-width space shown: %s", log);
	CHECK(strstr(log, "hidden.conf:2: malformed line 'mouse\\u202exyz'"), "bidi override shown: %s", log);
	CHECK(strstr(log, "hidden.conf:3: malformed line '\\ufeffno-mouse'"), "a mark past the start shown: %s", log);
	kf_config_finish(&c);
}

/* rotate= and --rotate: kmscon's names (normal, right, upside-down, left), "inverted" as xrandr and fbcon's
 * documentation say it; the rotation shortcuts with kmscon's defaults. No "has no effect" warning any more. */
static void test_rotate(void)
{
	static const struct {
		const char *text;
		enum kf_rotation want;
	} good[] = {
		{"rotate=normal", KF_ROTATE_NORMAL}, {"rotate=right", KF_ROTATE_RIGHT},
		{"rotate=inverted", KF_ROTATE_INVERTED}, {"rotate=upside-down", KF_ROTATE_INVERTED},
		{"rotate=left", KF_ROTATE_LEFT},
	};
	struct kf_config c;
	const char *log;
	char buf[64];

	kf_config_init(&c);
	CHECK(c.rotate == KF_ROTATE_NORMAL, "rotate default %d", (int)c.rotate);
	/* kmscon's defaults: <Logo>plus (and equal, where plus needs Shift) and <Logo>minus */
	CHECK(c.grab_rotate_cw.n == 2 && c.grab_rotate_cw.keys[0].mods == KF_MOD_LOGO &&
		      c.grab_rotate_cw.keys[0].keysym == 0x2b && c.grab_rotate_cw.keys[1].keysym == 0x3d,
	      "grab-rotate-cw default");
	CHECK(c.grab_rotate_ccw.n == 1 && c.grab_rotate_ccw.keys[0].mods == KF_MOD_LOGO &&
		      c.grab_rotate_ccw.keys[0].keysym == 0x2d,
	      "grab-rotate-ccw default");
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		capture_begin();
		int ret = kf_config_parse_text(&c, "t.conf", good[i].text, strlen(good[i].text));
		log = capture_end();
		CHECK(ret == 0 && c.rotate == good[i].want && !*log, "%s: ret %d rotate %d log '%s'", good[i].text,
		      ret, (int)c.rotate, log);
	}
	capture_begin();
	const char *grabs = "grab-rotate-cw=<Ctrl><Alt>r\ngrab-rotate-ccw=\n";
	int ret = kf_config_parse_text(&c, "t.conf", grabs, strlen(grabs));
	log = capture_end();
	CHECK(ret == 0 && !*log && c.grab_rotate_cw.n == 1 && c.grab_rotate_cw.keys[0].keysym == 0x72 &&
		      c.grab_rotate_ccw.n == 0,
	      "rotation grabs set: ret %d log '%s'", ret, log);
	kf_config_finish(&c);

	kf_config_init(&c);
	char *argv[] = {"kf", "--rotate", "left", NULL};
	CHECK(kf_config_parse_argv(&c, 3, argv) == 0 && c.rotate == KF_ROTATE_LEFT, "--rotate left");
	char *argv2[] = {"kf", "--rotate=upside-down", NULL};
	CHECK(kf_config_parse_argv(&c, 2, argv2) == 0 && c.rotate == KF_ROTATE_INVERTED, "--rotate=upside-down");
	/* written back under its first name, which reads back the same */
	for (size_t i = 0; i < kf_config_option_count(); i++)
		if (!strcmp(kf_config_option_name(i), "rotate"))
			kf_config_format(&c, i, buf, sizeof(buf));
	CHECK(!strcmp(buf, "inverted"), "rotate formats as '%s'", buf);
	char *argv3[] = {"kf", "--rotate=sideways", NULL};
	capture_begin();
	ret = kf_config_parse_argv(&c, 2, argv3);
	log = capture_end();
	CHECK(ret == -EINVAL && strstr(log, "--rotate: invalid value 'sideways'") &&
		      strstr(log, "expected one of: normal, right, inverted, left, upside-down"),
	      "bad --rotate: %d '%s'", ret, log);
	kf_config_finish(&c);
	bad("rotate=90", 1, "expected one of: normal, right, inverted, left, upside-down");
}

/* A file of bad lines (1 MiB of them is allowed: 262 000 lines of "x y") logged every one, at start and on each
 * reload (SIGHUP): 262 002 lines of log per reload. The first 20 are logged, then one line counts the rest; the
 * result is the same error. */
static void test_diagnostics_capped(void)
{
	struct kf_config c;
	size_t len = 0;
	char *text = malloc(1000 * 16);
	for (int i = 0; i < 1000; i++)
		len += (size_t)sprintf(text + len, i % 2 ? "x y\n" : "nosuchkey%d=1\n", i);
	kf_config_init(&c);
	capture_begin();
	int ret = kf_config_parse_text(&c, "test.conf", text, len);
	const char *log = capture_end();
	int lines = 0;
	for (const char *p = log; *p; p++)
		lines += *p == '\n';
	CHECK(ret == -EINVAL, "1000 bad lines: an error (ret %d)", ret);
	CHECK(lines == 21, "1000 bad lines: %d lines logged, want 20 and one that counts the rest", lines);
	CHECK(strstr(log, "test.conf:1:") && strstr(log, "test.conf:20:") && !strstr(log, "test.conf:21:"),
	      "the first 20 named");
	CHECK(strstr(log, "test.conf: 980 more errors and warnings not shown") != NULL, "the rest counted: %s",
	      log + (strlen(log) > 200 ? strlen(log) - 200 : 0));
	kf_config_finish(&c);
	/* the count starts again with the next file */
	kf_config_init(&c);
	capture_begin();
	ret = kf_config_parse_text(&c, "test2.conf", "x y\n", 4);
	log = capture_end();
	CHECK(ret == -EINVAL && strstr(log, "test2.conf:1:") && !strstr(log, "not shown"), "the next file: %s", log);
	kf_config_finish(&c);
	free(text);
}

int main(void)
{
	kf_log_init();
	test_defaults();
	test_round_trip();
	test_round_trip_blanks();
	test_bad_lines();
	test_good_lines();
	test_comments();
	test_rotate();
	test_garbage();
	test_log_lines_clean();
	test_log_invisible();
	test_diagnostics_capped();
	if (failures)
		printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
