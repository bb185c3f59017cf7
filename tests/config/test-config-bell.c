/* tests/config/test-config-bell.c: the bell key (kmscon-felis/config.c), apart from test-config.c for its size.
 *
 * bell=audible|visual|none, audible by default as the kernel's console beeps; kmscon's bell was a boolean, so
 * its forms carry over: "bell", bell=true/on/yes/1 and --bell are audible, "no-bell", bell=false/off/no/0 and
 * --no-bell none. Anything else is an error naming the expected form (exit 78, tests/config/config-cli.sh). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/config.h"
#include "kmscon-felis/log.h"
#include "../kf-capture.h"
#include "../kf-check.h"

static int failures;

static size_t option_index(const char *name)
{
	for (size_t i = 0; i < kf_config_option_count(); i++)
		if (!strcmp(kf_config_option_name(i), name))
			return i;
	return (size_t)-1;
}

static void test_default(void)
{
	struct kf_config c;
	char buf[64];
	size_t i = option_index("bell");

	CHECK(kf_config_init(&c) == 0, "init");
	CHECK(c.bell == KF_BELL_AUDIBLE, "the default is audible, as the kernel's console: %d", (int)c.bell);
	CHECK(i != (size_t)-1 && kf_config_option_is_key(i), "bell is a file key");
	if (i != (size_t)-1) {
		kf_config_format(&c, i, buf, sizeof(buf));
		CHECK(!strcmp(buf, "audible"), "the default formats as '%s'", buf);
	}
	kf_config_finish(&c);
}

/* Every form in a file, from a config whose bell is another value: no warning (it was "kmscon option 'bell' has
 * no effect"), the value set, and written back under its canonical name. */
static void test_file_forms(void)
{
	static const struct {
		const char *line;
		enum kf_bell_mode want;
		const char *canon;
	} good[] = {
	    {"bell=audible", KF_BELL_AUDIBLE, "audible"}, {"bell=visual", KF_BELL_VISUAL, "visual"},
	    {"bell=none", KF_BELL_NONE, "none"},	  {"bell", KF_BELL_AUDIBLE, "audible"},
	    {"no-bell", KF_BELL_NONE, "none"},		  {"bell=true", KF_BELL_AUDIBLE, "audible"},
	    {"bell=false", KF_BELL_NONE, "none"},	  {"bell=on", KF_BELL_AUDIBLE, "audible"},
	    {"bell=off", KF_BELL_NONE, "none"},		  {"bell=yes", KF_BELL_AUDIBLE, "audible"},
	    {"bell=no", KF_BELL_NONE, "none"},		  {"bell=1", KF_BELL_AUDIBLE, "audible"},
	    {"bell=0", KF_BELL_NONE, "none"},		  {"  bell = visual  # flash", KF_BELL_VISUAL, "visual"},
	    /* a choice's name in any case, as the boolean words are (bell=ON worked, bell=Visual did not) */
	    {"bell=Visual", KF_BELL_VISUAL, "visual"},	  {"bell=AUDIBLE", KF_BELL_AUDIBLE, "audible"},
	    {"bell=None", KF_BELL_NONE, "none"},
	};
	size_t idx = option_index("bell");
	char buf[64];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct kf_config c;
		kf_config_init(&c);
		/* start from a value the line must change */
		c.bell = good[i].want == KF_BELL_VISUAL ? KF_BELL_NONE : KF_BELL_VISUAL;
		capture_begin();
		int ret = kf_config_parse_text(&c, "t.conf", good[i].line, strlen(good[i].line));
		const char *log = capture_end();
		CHECK(ret == 0 && c.bell == good[i].want && !*log, "'%s': ret %d bell %d log '%s'", good[i].line, ret,
		      (int)c.bell, log);
		if (idx != (size_t)-1) {
			kf_config_format(&c, idx, buf, sizeof(buf));
			CHECK(!strcmp(buf, good[i].canon), "'%s' formats as '%s'", good[i].line, buf);
		}
		kf_config_finish(&c);
	}
}

static void bad(const char *text, const char *says)
{
	struct kf_config c;
	kf_config_init(&c);
	capture_begin();
	int ret = kf_config_parse_text(&c, "bad.conf", text, strlen(text));
	const char *log = capture_end();
	CHECK(ret == -EINVAL && strstr(log, "bad.conf:1:") && strstr(log, says), "'%s': ret %d log '%s'", text, ret,
	      log);
	CHECK(c.bell == KF_BELL_AUDIBLE, "'%s' left bell at %d", text, (int)c.bell);
	kf_config_finish(&c);
}

static void test_file_bad(void)
{
	bad("bell=loud", "bell: invalid value 'loud' (expected audible, visual or none");
	bad("bell=", "bell: invalid value ''");
	bad("no-bell=visual", "takes no value");
	bad("no-bell=off", "takes no value");
}

static void test_argv(void)
{
	static const struct {
		const char *args[3];
		enum kf_bell_mode want;
	} good[] = {
	    {{"--bell=visual"}, KF_BELL_VISUAL},
	    {{"--bell", "visual"}, KF_BELL_VISUAL},
	    {{"--bell=none"}, KF_BELL_NONE},
	    {{"--bell", "none"}, KF_BELL_NONE},
	    {{"--bell"}, KF_BELL_AUDIBLE},
	    {{"--no-bell"}, KF_BELL_NONE},
	    {{"--bell=false"}, KF_BELL_NONE},
	    {{"--bell=true"}, KF_BELL_AUDIBLE},
	    /* a bare --bell followed by another option takes no value from it */
	    {{"--bell", "--verbose"}, KF_BELL_AUDIBLE},
	    {{"--no-bell", "--bell=audible"}, KF_BELL_AUDIBLE},
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct kf_config c;
		char *argv[4] = {"kf"};
		int argc = 1;
		for (int k = 0; k < 3 && good[i].args[k]; k++)
			argv[argc++] = (char *)good[i].args[k];
		argv[argc] = NULL;
		kf_config_init(&c);
		c.bell = good[i].want == KF_BELL_VISUAL ? KF_BELL_NONE : KF_BELL_VISUAL;
		capture_begin();
		int ret = kf_config_parse_argv(&c, argc, argv);
		const char *log = capture_end();
		CHECK(ret == 0 && c.bell == good[i].want, "%s %s: ret %d bell %d log '%s'", argv[1],
		      argc > 2 ? argv[2] : "", ret, (int)c.bell, log);
		kf_config_finish(&c);
		kf_log_set_level(KF_LOG_NOTICE);
	}
	static const char *const bad_args[][3] = {
	    {"--bell=loud"},
	    {"--bell", "loud"},
	    {"--no-bell=none"},
	};
	static const char *const says[] = {"--bell: invalid value 'loud' (expected audible, visual or none",
					   "--bell: invalid value 'loud'", "takes no value"};
	for (size_t i = 0; i < sizeof(bad_args) / sizeof(bad_args[0]); i++) {
		struct kf_config c;
		char *argv[4] = {"kf", (char *)bad_args[i][0], (char *)bad_args[i][1], NULL};
		int argc = bad_args[i][1] ? 3 : 2;
		kf_config_init(&c);
		capture_begin();
		int ret = kf_config_parse_argv(&c, argc, argv);
		const char *log = capture_end();
		CHECK(ret == -EINVAL && strstr(log, says[i]), "%s: ret %d log '%s'", argv[1], ret, log);
		kf_config_finish(&c);
	}
}

/* The command line wins over the file; a kmscon.conf's "bell" applies (it warned "has no effect"). */
static void test_precedence(void)
{
	char dir[] = "/tmp/kf-config-bell-XXXXXX", path[128];
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/kmscon-felis.conf", dir);
	static const struct {
		const char *file, *arg;
		enum kf_bell_mode want;
	} cases[] = {
	    {"bell=visual\n", "--no-bell", KF_BELL_NONE},
	    {"no-bell\n", "--bell", KF_BELL_AUDIBLE},
	    {"bell=none\n", "--verbose", KF_BELL_NONE},
	    {"bell\n", "--bell=visual", KF_BELL_VISUAL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kf_config c;
		FILE *f = fopen(path, "w");
		fputs(cases[i].file, f);
		fclose(f);
		const char *args[] = {"kf", "-c", dir, cases[i].arg, NULL};
		capture_begin();
		int ret = kf_config_parse(&c, 4, (char **)args);
		const char *log = capture_end();
		CHECK(ret == 0 && c.bell == cases[i].want && !strstr(log, "no effect"), "%s+%s: ret %d bell %d log '%s'",
		      cases[i].file, cases[i].arg, ret, (int)c.bell, log);
		kf_config_finish(&c);
		kf_log_set_level(KF_LOG_NOTICE);
	}
	unlink(path);
	rmdir(dir);
}

/* --help lists it with its values and default. */
static void test_help(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	kf_config_print_help(f, "kf");
	fclose(f);
	const char *line = text ? strstr(text, "--[no-]bell[=MODE]") : NULL;
	CHECK(line != NULL, "--help lacks --[no-]bell[=MODE]:\n%s", text ? text : "");
	if (line) {
		const char *end = strstr(line + 1, "\n      --"); /* the next option's line */
		CHECK(strstr(line, "audible") && strstr(line, "visual") && strstr(line, "[audible]") &&
			      (!end || strstr(line, "[audible]") < end),
		      "--help's bell lines: %.300s", line);
	}
	free(text);
}

int main(void)
{
	kf_log_init();
	test_default();
	test_file_forms();
	test_file_bad();
	test_argv();
	test_precedence();
	test_help();
	if (failures)
		printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
