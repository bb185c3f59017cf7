/* tests/config/test-config-options.c: the command line and single options of the configuration library
 * (apart from test-config.c, which tests the file parser, for its size).
 *
 * - the command line: both value forms, no- prefix, short options, --login --, and it wins over the file;
 * - activate-vt, kmscon's keys (kept or ignored with a warning), use-original-mode, the DRM keys, issue. */
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

static int argv_parse(struct kf_config *c, const char *const *args)
{
	int argc = 0;
	while (args[argc])
		argc++;
	return kf_config_parse_argv(c, argc, (char **)args);
}

static void test_argv(void)
{
	struct kf_config c;
	kf_config_init(&c);
	const char *a1[] = {"kf",	  "--font-size", "20",	"--font-name=Foo Bar", "--no-mouse",
			    "-t",	  "linux",	 "--vt", "tty3",	       "--backend=headless",
			    "--size", "100x30",	 "-v",	"--login",	       "--",
			    "/bin/sh", "-c",	     "--not-an-option", NULL};
	CHECK(argv_parse(&c, a1) == 0, "argv parses");
	CHECK(c.font_size == 20 && !strcmp(c.font_name, "Foo Bar") && !c.mouse, "values");
	CHECK(!strcmp(c.term, "linux") && c.vt == 3 && c.backend == KF_BACKEND_HEADLESS, "values 2");
	CHECK(c.size.w == 100 && c.size.h == 30 && c.verbose, "values 3");
	CHECK(c.login_custom && !strcmp(c.login_argv[0], "/bin/sh") &&
		      !strcmp(c.login_argv[2], "--not-an-option") && !c.login_argv[3],
	      "everything after -- is the child's argv");
	kf_config_finish(&c);

	/* Short options group as with getopt (kmscon's parser): the letter that takes a value ends the group. */
	kf_config_init(&c);
	const char *a3[] = {"kf", "-vVh", "-tlinux", "-vc", "/etc/kf", "-vl", "--", "/bin/sh", NULL};
	CHECK(argv_parse(&c, a3) == 0, "grouped short options parse");
	CHECK(c.verbose && c.version && c.help && !strcmp(c.term, "linux") && !strcmp(c.configdir, "/etc/kf"),
	      "grouped short options apply");
	CHECK(c.login_custom && !strcmp(c.login_argv[0], "/bin/sh"), "-vl -- PROGRAM");
	kf_config_finish(&c);

	static const struct {
		const char *args[6];
		const char *expect;
	} errs[] = {
		{{"kf", "--font-size", NULL}, "--font-size needs a value"},
		{{"kf", "--font-size=big", NULL}, "--font-size: invalid value 'big'"},
		{{"kf", "--frobnicate", NULL}, "unknown option '--frobnicate'"},
		{{"kf", "--login", NULL}, "--login needs the program after '--'"},
		{{"kf", "--", NULL}, "nothing after '--'"},
		{{"kf", "stray", NULL}, "unexpected argument 'stray'"},
		{{"kf", "-x", NULL}, "unknown option '-x'"},
		{{"kf", "-vx", NULL}, "unknown option '-x' in '-vx'"},
		{{"kf", "-vt", NULL}, "-t needs a value"},
		{{"kf", "--no-font-size", NULL}, "--font-size takes a value, it has no --no- form"},
		{{"kf", "--no-mouse=on", NULL}, "command line: --no-mouse takes no value"},
		{{"kf", "--login", "--", "", "-p", NULL}, "empty program name"},
		/* --help and --version are actions, not settings: --help=off and --no-version ran the console
		 * (exit status of the program, a login on the screen) where a typo in a script meant --help. */
		{{"kf", "--help=off", NULL}, "command line: --help takes no value (expected --help)"},
		{{"kf", "--help=yes", NULL}, "command line: --help takes no value (expected --help)"},
		{{"kf", "--version=0", NULL}, "command line: --version takes no value (expected --version)"},
		{{"kf", "--no-help", NULL}, "unknown option '--no-help'"},
		{{"kf", "--no-version", NULL}, "unknown option '--no-version'"},
	};
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		kf_config_init(&c);
		capture_begin();
		int ret = argv_parse(&c, errs[i].args);
		const char *log = capture_end();
		CHECK(ret == -EINVAL, "%s: error", errs[i].expect);
		CHECK(strstr(log, errs[i].expect) != NULL, "log has '%s': %s", errs[i].expect, log);
		kf_config_finish(&c);
	}
	/* A kmscon option on the command line warns as "command line:", like every other message. */
	kf_config_init(&c);
	capture_begin();
	const char *a2[] = {"kf", "--hwaccel", NULL};
	CHECK(argv_parse(&c, a2) == 0, "--hwaccel is accepted");
	const char *log = capture_end();
	CHECK(strstr(log, "command line: kmscon option 'hwaccel'") != NULL, "--hwaccel warns: %s", log);
	kf_config_finish(&c);
}

/* A command-line argument of kilobytes that is no option (a pasted blob, a script's runaway variable) is quoted
 * as a file line is, cut at 80 bytes with "...": it was quoted whole, the log line was cut at its limit and the
 * message's end, what to do ("see --help"), was lost. */
static void test_long_argument(void)
{
	static char blob[3002];
	static const struct {
		const char *prefix, *expect;
	} cases[] = {
		{"--", "...' (see --help)"},
		{"-x", "...' (see --help)"},
		{"", "...' (a program to run goes after --login --)"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kf_config c;
		size_t n = strlen(cases[i].prefix);
		memcpy(blob, cases[i].prefix, n);
		memset(blob + n, 'a', sizeof(blob) - 1 - n);
		blob[sizeof(blob) - 1] = '\0';
		const char *args[] = {"kf", blob, NULL};
		kf_config_init(&c);
		capture_begin();
		int ret = argv_parse(&c, args);
		const char *log = capture_end();
		CHECK(ret == -EINVAL, "'%s...': error", cases[i].prefix);
		CHECK(strstr(log, cases[i].expect) && strlen(log) < 400, "'%s' + 3000 bytes: %zu bytes logged, want "
		      "< 400 ending in \"%s\": ...%s", cases[i].prefix, strlen(log), cases[i].expect,
		      log + (strlen(log) > 60 ? strlen(log) - 60 : 0));
		kf_config_finish(&c);
	}
}

/* Activating the VT at start is its own choice (the unit passes --no-activate-vt, as getty never switches VTs),
 * separate from letting Ctrl+Alt+Fn switch (--no-switchvt, the kiosk lock). */
static void test_activate_vt(void)
{
	static const struct {
		const char *args[4];
		bool activate, keys;
	} cases[] = {
		{{"kf", "--vt=2", NULL}, true, true},
		{{"kf", "--vt=2", "--no-activate-vt", NULL}, false, true},
		{{"kf", "--vt=2", "--no-switchvt", NULL}, true, false},
		{{"kf", "--no-activate-vt", "--no-switchvt", NULL}, false, false},
		{{"kf", "--no-activate-vt", "--activate-vt", NULL}, true, true},
	};
	struct kf_config c;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kf_config_init(&c);
		CHECK(argv_parse(&c, cases[i].args) == 0, "activate-vt case %zu parses", i);
		CHECK(c.activate_vt == cases[i].activate && c.switchvt == cases[i].keys,
		      "case %zu: activate-vt %d switchvt %d", i, c.activate_vt, c.switchvt);
		kf_config_finish(&c);
	}
	kf_config_init(&c);
	const char *text = "activate-vt=off\n";
	CHECK(kf_config_parse_text(&c, "f.conf", text, strlen(text)) == 0 && !c.activate_vt && c.switchvt,
	      "activate-vt=off in a file");
	kf_config_finish(&c);
	kf_config_init(&c);
	capture_begin();
	const char *bad[] = {"kf", "--no-activate-vt=on", NULL};
	int ret = argv_parse(&c, bad);
	const char *log = capture_end();
	CHECK(ret == -EINVAL && strstr(log, "--no-activate-vt takes no value"), "--no-activate-vt=on: %s", log);
	kf_config_finish(&c);
}

static void test_precedence(void)
{
	char dir[] = "/tmp/kf-config-XXXXXX", path[128];
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/kmscon-felis.conf", dir);
	FILE *f = fopen(path, "w");
	fputs("font-size=30\nterm=vt220\nno-mouse\n", f);
	fclose(f);
	const char *args[] = {"kf", "-c", dir, "--font-size=12", "--mouse", NULL};
	struct kf_config c;
	CHECK(kf_config_parse(&c, 5, (char **)args) == 0, "parse");
	CHECK(c.font_size == 12 && c.mouse, "the command line wins (%u)", c.font_size);
	CHECK(!strcmp(c.term, "vt220"), "the file applies");
	kf_config_finish(&c);

	/* The log level is one setting: one given on the command line replaces the file's, whichever it is. With
	 * verbose in the file, --silent still logged informational messages (the file's verbose outranked it). */
	static const struct {
		const char *file, *arg;
		enum kf_log_level want;
	} levels[] = {
		{"verbose", "--silent", KF_LOG_ERR},
		{"debug", "--verbose", KF_LOG_INFO},
		{"debug", "--no-debug", KF_LOG_NOTICE},
		{"silent", "-v", KF_LOG_INFO},
		{"silent", "--debug", KF_LOG_DEBUG},
		{"verbose", "--font-size=12", KF_LOG_INFO},
	};
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		f = fopen(path, "w");
		fprintf(f, "%s\n", levels[i].file);
		fclose(f);
		const char *la[] = {"kf", "-c", dir, levels[i].arg, NULL};
		CHECK(kf_config_parse(&c, 4, (char **)la) == 0, "parse");
		CHECK(kf_log_get_level() == levels[i].want, "%s in the file, %s: level %d, want %d", levels[i].file,
		      levels[i].arg, (int)kf_log_get_level(), (int)levels[i].want);
		kf_config_finish(&c);
	}
	kf_log_set_level(KF_LOG_NOTICE);

	/* A bad file stops start-up. */
	f = fopen(path, "w");
	fputs("font-size=30\nterm\n", f);
	fclose(f);
	capture_begin();
	int ret = kf_config_parse(&c, 5, (char **)args);
	const char *log = capture_end();
	CHECK(ret == -EINVAL && strstr(log, "kmscon-felis.conf:2: term: needs a value"), "bad file: %s", log);
	kf_config_finish(&c);

	/* psf without a file is caught after merging. */
	const char *psf[] = {"kf", "-c", dir, "--font-engine=psf", NULL};
	unlink(path);
	capture_begin();
	ret = kf_config_parse(&c, 4, (char **)psf);
	log = capture_end();
	CHECK(ret == -EINVAL && strstr(log, "font-file"), "psf needs a file: %s", log);
	kf_config_finish(&c);

	/* A huge file is refused rather than read. */
	f = fopen(path, "w");
	for (int i = 0; i < 70000; i++)
		fputs("# padding padding\n", f);
	fclose(f);
	capture_begin();
	ret = kf_config_parse(&c, 3, (char **)args);
	log = capture_end();
	CHECK(ret == -EINVAL && strstr(log, "more than the 1048576"), "huge file refused: %s", log);
	kf_config_finish(&c);
	unlink(path);
	rmdir(dir);
}

/* kmscon's own example configuration (kmscon.conf(5)) loads: what we support applies, the rest warns. */
static void test_kmscon_conf(void)
{
	const char *text = "### General Options ###\nverbose\n\n### Seat Options ###\nvt=1\nswitchvt\n\n"
			   "### Session Options ###\nsession-max=6\nsession-control\n\n"
			   "### Terminal Options ###\nterm=linux\n\n### Input Options ###\nxkb-model=pc102\n"
			   "xkb-layout=de\nxkb-repeat-delay=200\nxkb-repeat-rate=65\nmouse\ndpms-timeout=0\n\n"
			   "### Video Options ###\ndrm\nhwaccel\ngpus=all\nrender-engine=gltex\nrotate=normal\n\n"
			   "### Font Options ###\nfont-engine=pango\nfont-size=18\nfont-name=Ubuntu Mono\n"
			   "palette=solarized-white\n";
	struct kf_config c;
	kf_config_init(&c);
	capture_begin();
	int ret = kf_config_parse_text(&c, "kmscon.conf", text, strlen(text));
	const char *log = capture_end();
	CHECK(ret == 0, "kmscon.conf loads: %s", log);
	CHECK(c.vt == 1 && !strcmp(c.term, "linux") && !strcmp(c.xkb_layout, "de") && c.xkb_repeat_rate == 65,
	      "kmscon values apply");
	CHECK(c.font_engine == KF_FONT_ENGINE_FONTCONFIG && c.font_size == 18 &&
		      c.palette == KF_PALETTE_SOLARIZED_WHITE && c.dpms_timeout == 0,
	      "font and palette apply");
	CHECK(strstr(log, "kmscon.conf:9:") && strstr(log, "session-max") && strstr(log, "hwaccel"),
	      "ignored kmscon keys warn: %s", log);
	kf_config_finish(&c);
}

/* "no-KEY" in a file for a key that takes a value is an error (test-config.c test_bad_lines); these stay warnings:
 * a kmscon boolean we ignore keeps its no- form (no-hwaccel warns as hwaccel does), the no- form of a command-line
 * option warns as the option does (it said "unknown key 'no-help'"), and an unknown key's is an unknown key. */
static void test_no_value_key(void)
{
	const char *ok[][2] = {
		{"no-hwaccel\n", "has no effect in kmscon-felis, ignored"},
		{"no-help\n", "'help' is a command-line option, ignored in a file"},
		{"no-check-config\n", "'check-config' is a command-line option"},
		{"no-frobnicate\n", "unknown key 'no-frobnicate'"},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct kf_config c;
		kf_config_init(&c);
		capture_begin();
		int ret = kf_config_parse_text(&c, "test.conf", ok[i][0], strlen(ok[i][0]));
		const char *log = capture_end();
		CHECK(ret == 0, "'%s' is no error: %s", ok[i][0], log);
		CHECK(strstr(log, "test.conf:1:") && strstr(log, ok[i][1]), "'%s' warns '%s': %s", ok[i][0], ok[i][1],
		      log);
		kf_config_finish(&c);
	}
	/* On the command line --no-sb-size was "unknown option '--no-sb-size'": an error, which now says why */
	const char *bad[][2] = {
		{"--no-sb-size", "--sb-size takes a value, it has no --no- form (expected --sb-size=an integer from"},
		{"--no-login", "--login takes a value, it has no --no- form (expected --login=a command line"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct kf_config c;
		kf_config_init(&c);
		const char *args[] = {"kmscon-felis", bad[i][0], NULL};
		capture_begin();
		int ret = argv_parse(&c, args);
		const char *log = capture_end();
		CHECK(ret < 0 && strstr(log, bad[i][1]), "'%s': %d, want an error saying '%s': %s", bad[i][0], ret,
		      bad[i][1], log);
		kf_config_finish(&c);
	}
}

/* use-original-mode: a bool as every other (it was a kmscon key accepted and ignored with a warning), off by
 * default (kmscon's default is on), the command line over the file; mode= wins over it, which start-up says. */
static void test_use_original_mode(void)
{
	char dir[] = "/tmp/kf-config-XXXXXX", path[128];
	struct kf_config c;
	const char *log;
	int ret;

	kf_config_init(&c);
	CHECK(!c.use_original_mode, "use-original-mode is off by default");
	static const struct {
		const char *text;
		bool want;
	} good[] = {
		{"use-original-mode", true},	  {"no-use-original-mode", false}, {"use-original-mode=on", true},
		{"use-original-mode=off", false}, {"use-original-mode=yes", true},
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		capture_begin();
		ret = kf_config_parse_text(&c, "t.conf", good[i].text, strlen(good[i].text));
		log = capture_end();
		CHECK(ret == 0 && c.use_original_mode == good[i].want && !*log, "%s: ret %d value %d log '%s'",
		      good[i].text, ret, (int)c.use_original_mode, log);
	}
	char *on[] = {"kf", "--use-original-mode", NULL}, *off[] = {"kf", "--no-use-original-mode", NULL};
	CHECK(kf_config_parse_argv(&c, 2, on) == 0 && c.use_original_mode, "--use-original-mode");
	CHECK(kf_config_parse_argv(&c, 2, off) == 0 && !c.use_original_mode, "--no-use-original-mode");
	kf_config_finish(&c);
	bad("use-original-mode=maybe", 1, "expected KEY, no-KEY");
	bad("no-use-original-mode=on", 1, "takes no value");

	/* The command line wins over the file, both ways; mode= with it is said to win (a notice, not an error). */
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/kmscon-felis.conf", dir);
	static const struct {
		const char *file, *arg;
		bool want;
		const char *says;
	} cases[] = {
		{"use-original-mode\n", "--no-use-original-mode", false, NULL},
		{"no-use-original-mode\n", "--use-original-mode", true, NULL},
		{"use-original-mode\n", "--verbose", true, NULL},
		{"use-original-mode\nmode=1024x768\n", "--verbose", true,
		 "use-original-mode has no effect with mode=1024x768"},
		{"mode=800x600\n", "--use-original-mode", true, "use-original-mode has no effect with mode=800x600"},
		{"use-original-mode\n", "--backend=headless", true, "use-original-mode only works with backend=drm"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(path, "w");
		fputs(cases[i].file, f);
		fclose(f);
		const char *args[] = {"kf", "-c", dir, cases[i].arg, NULL};
		capture_begin();
		ret = kf_config_parse(&c, 4, (char **)args);
		log = capture_end();
		CHECK(ret == 0 && c.use_original_mode == cases[i].want, "%s+%s: ret %d value %d", cases[i].file,
		      cases[i].arg, ret, (int)c.use_original_mode);
		CHECK(cases[i].says ? strstr(log, cases[i].says) != NULL : !strstr(log, "use-original-mode"),
		      "%s+%s: log '%s'", cases[i].file, cases[i].arg, log);
		kf_config_finish(&c);
	}
	kf_log_set_level(KF_LOG_NOTICE);
	unlink(path);
	rmdir(dir);
}

/* drm: kmscon's boolean (accepted and ignored before the framebuffer fallback), on by default; drm=off and
 * --no-drm select the framebuffer device only, without a warning; the command line wins over the file. */
static void test_drm(void)
{
	struct kf_config c;
	const char *log;
	int ret;

	kf_config_init(&c);
	CHECK(c.drm, "drm is on by default");
	static const struct {
		const char *text;
		bool want;
	} good[] = {{"drm=off", false}, {"drm", true}, {"no-drm", false}, {"drm=on", true}};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		capture_begin();
		ret = kf_config_parse_text(&c, "t.conf", good[i].text, strlen(good[i].text));
		log = capture_end();
		CHECK(ret == 0 && c.drm == good[i].want && !*log, "%s: ret %d value %d log '%s'", good[i].text, ret,
		      (int)c.drm, log);
	}
	char *off[] = {"kf", "--no-drm", NULL}, *on[] = {"kf", "--drm", NULL};
	CHECK(kf_config_parse_argv(&c, 2, off) == 0 && !c.drm, "--no-drm");
	CHECK(kf_config_parse_argv(&c, 2, on) == 0 && c.drm, "--drm");
	kf_config_finish(&c);
	bad("drm=maybe", 1, "expected KEY, no-KEY");
}

/* display-wait: 0 (wait for a display forever, issue 5) by default; seconds in the file and on the command line;
 * a value that is no number of seconds is refused. */
static void test_display_wait(void)
{
	struct kf_config c;
	const char *log;

	kf_config_init(&c);
	CHECK(c.display_wait == 0, "display-wait default %u", c.display_wait);
	capture_begin();
	int ret = kf_config_parse_text(&c, "t.conf", "display-wait=20", 15);
	log = capture_end();
	CHECK(ret == 0 && c.display_wait == 20 && !*log, "display-wait=20: ret %d value %u log '%s'", ret,
	      c.display_wait, log);
	char *argv[] = {"kf", "--display-wait=5", NULL};
	CHECK(kf_config_parse_argv(&c, 2, argv) == 0 && c.display_wait == 5, "--display-wait=5: %u", c.display_wait);
	kf_config_finish(&c);
	bad("display-wait=soon", 1, "expected an integer from 0 to");
	bad("display-wait=-1", 1, "display-wait: invalid value");
}

/* Integer options at the ends of their ranges: the bounds themselves are accepted, one past them refused, and
 * xkb-repeat-rate 0 (a repeat every 0 ms: a key held down would flood the program) is refused (session 55's
 * mutation audit: a maximum refused, and a minimum of 0 for the repeat rate, passed every test). */
static void test_int_bounds(void)
{
	static const struct {
		const char *key, *value;
		int ret;
	} cases[] = {
		{"sb-size", "1000000", 0},        {"sb-size", "1000001", -EINVAL}, {"font-size", "400", 0},
		{"font-size", "4", 0},            {"font-size", "401", -EINVAL},   {"xkb-repeat-rate", "1", 0},
		{"xkb-repeat-rate", "0", -EINVAL}, {"xkb-repeat-rate", "10000", 0}, {"xkb-repeat-delay", "0", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kf_config c;
		kf_config_init(&c);
		capture_begin();
		int ret = kf_config_set(&c, cases[i].key, cases[i].value);
		capture_end();
		CHECK(ret == cases[i].ret, "%s=%s: %d, expected %d", cases[i].key, cases[i].value, ret, cases[i].ret);
		kf_config_finish(&c);
	}
}

/* issue: auto by default, which shows the banner only in front of the default login (kmscon-felis standing in
 * for getty + login); on or off given explicitly wins either way; issue-path is unset (agetty's own search). */
static void test_issue(void)
{
	static const struct {
		const char *file, *arg;
		bool want;
	} cases[] = {
		{"", NULL, true},
		{"issue=false\n", NULL, false},
		{"no-issue\n", NULL, false},
		{"login=/bin/sh\n", NULL, false},
		{"login=/bin/sh\nissue=true\n", NULL, true},
		{"login=/bin/sh\nissue\n", NULL, true},
		{"login=/bin/sh\nissue=auto\n", NULL, false},
		{"issue=off\n", "--issue", true},
		{"", "--no-issue", false},
		{"issue=on\n", "--issue=auto", true},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kf_config c;
		kf_config_init(&c);
		CHECK(c.issue == KF_AUTO && !c.issue_path, "issue defaults: %d", (int)c.issue);
		CHECK(kf_config_parse_text(&c, "issue.conf", cases[i].file, strlen(cases[i].file)) == 0, "%s",
		      cases[i].file);
		if (cases[i].arg) {
			char *argv[] = {"kf", (char *)cases[i].arg, NULL};
			CHECK(kf_config_parse_argv(&c, 2, argv) == 0, "%s", cases[i].arg);
		}
		CHECK(kf_config_show_issue(&c) == cases[i].want, "'%s' + %s: banner %d, want %d", cases[i].file,
		      cases[i].arg ? cases[i].arg : "-", (int)kf_config_show_issue(&c), (int)cases[i].want);
		kf_config_finish(&c);
	}
	/* kmscon-felis(1) writes --issue=auto|on|off and says an option's value may follow as the next
	 * argument: "--issue off" was "unexpected argument 'off'". Alone, or before an option, it is on. */
	static const struct {
		const char *args[4];
		enum kf_tristate want;
	} sep[] = {
		{{"kf", "--issue", "off", NULL}, KF_OFF},
		{{"kf", "--issue", "auto", NULL}, KF_AUTO},
		{{"kf", "--issue", "yes", NULL}, KF_ON},
		{{"kf", "--issue", "--mouse", NULL}, KF_ON},
		{{"kf", "--issue", NULL}, KF_ON},
	};
	for (size_t i = 0; i < sizeof(sep) / sizeof(sep[0]); i++) {
		struct kf_config c;
		int argc = 0;
		while (sep[i].args[argc])
			argc++;
		kf_config_init(&c);
		c.issue = KF_AUTO;
		capture_begin();
		int r = kf_config_parse_argv(&c, argc, (char **)sep[i].args);
		const char *log = capture_end();
		CHECK(r == 0 && c.issue == sep[i].want, "--issue %s: ret %d, issue %d, want %d: %s",
		      sep[i].args[2] ? sep[i].args[2] : "(alone)", r, (int)c.issue, (int)sep[i].want, log);
		kf_config_finish(&c);
	}
	struct kf_config c;
	kf_config_init(&c);
	capture_begin();
	CHECK(kf_config_set(&c, "issue", "maybe") == -EINVAL, "issue=maybe is an error");
	const char *log = capture_end();
	CHECK(strstr(log, "expected KEY, no-KEY or KEY=auto|on|off"), "issue=maybe: %s", log);
	CHECK(kf_config_set(&c, "issue-path", "/etc/issue:/run/issue.d") == 0 &&
		      !strcmp(c.issue_path, "/etc/issue:/run/issue.d"),
	      "issue-path");
	kf_config_finish(&c);
}

int main(void)
{
	kf_log_init();
	test_argv();
	test_long_argument();
	test_activate_vt();
	test_precedence();
	test_kmscon_conf();
	test_no_value_key();
	test_use_original_mode();
	test_drm();
	test_display_wait();
	test_issue();
	test_int_bounds();
	if (failures)
		printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
