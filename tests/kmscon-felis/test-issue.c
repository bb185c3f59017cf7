/* tests/kmscon-felis/test-issue.c: the /etc/issue banner (kmscon-felis/issue.c, issue-expand.c) on files in
 * a temporary tree: each escape of agetty(8) "ISSUE ESCAPES", the search order of "ISSUE FILES" (/etc's pair
 * hides /run's and /usr/lib's, /run's hides /usr/lib's), issue.d's order and filter, the cap, a FIFO that must
 * not block, a procfs file (size 0), a broken or empty escape argument, os-release with and without its files.
 * What agetty itself prints for the same files is tests/kmscon-felis/issue-diff.sh's. */
#include "kmscon-felis/issue.h"

#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <utmpx.h>

#include "tests/kf-capture.h"
#include "tests/kf-check.h"

static int failures;
static char root[256];

static void put_file(const char *rel, const char *text)
{
	char path[512], cmd[700];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		abort();
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static void clean(void)
{
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", root, root);
	if (system(cmd) != 0)
		abort();
}

/* The text of the default search (path NULL) or of a list, with \l "tty7" and a fixed clock. */
static char *build_path(const char *path, size_t max, size_t *len)
{
	struct kf_issue_opts o = {.path = path, .root = root, .tty = "tty7", .tty_fd = -1, .now = 86400 * 365,
				  .max = max};
	char *out = NULL;
	size_t n = 0;
	CHECK(kf_issue_build(&o, &out, &n) == 0, "build");
	if (len)
		*len = n;
	return out ? out : strdup("");
}

/* /etc/issue holding text, expanded. */
static char *expand(const char *text)
{
	put_file("/etc/issue", text);
	return build_path(NULL, 0, NULL);
}

static void expect(const char *text, const char *want)
{
	char *got = expand(text);
	CHECK(!strcmp(got, want), "'%s' gives '%s', want '%s'", text, got, want);
	free(got);
}

static void test_plain_escapes(void)
{
	struct utsname u;
	char want[2048];
	clean();
	uname(&u);
	expect("plain text\n", "plain text\n");
	expect("a\\\\b", "a\\b");
	snprintf(want, sizeof(want), "%s|%s|%s|%s|%s", u.sysname, u.nodename, u.release, u.version, u.machine);
	expect("\\s|\\n|\\r|\\v|\\m", want);
	expect("on \\l.", "on tty7.");
	/* 1971-01-01 00:00:00 UTC, a Friday; agetty's format, two blanks before the year */
	expect("\\d \\t", "Fri Jan  1  1971 00:00:00");
	/* an escape agetty does not know is its letter; a backslash at the very end is dropped (agetty: 0xff) */
	expect("\\q\\Z\\", "qZ");
	expect("x\\b", "x"); /* no terminal to ask for a speed */
	expect("\\e[1m", "\033[1m");
	expect("\\e{red}R\\e{reset}", "\033[31mR\033[0m");
	expect("\\e{lightgray}\\e{white}\\e{darkgray}", "\033[37m\033[1;37m\033[1;30m");
	expect("[\\e{nosuchcolour}]", "[]");
	/* the name's buffer holds 31 bytes: a longer name is cut and then unknown */
	expect("\\e{redredredredredredredredredredredred}.", ".");
	char *o = expand("\\o");
	CHECK(*o, "\\o gives the NIS domain or unknown_domain");
	free(o);
	/* \u and \U: the USER_PROCESS entries of utmp, as agetty counts them */
	int n = 0;
	struct utmpx *ut;
	setutxent();
	while ((ut = getutxent()))
		n += ut->ut_type == USER_PROCESS;
	endutxent();
	snprintf(want, sizeof(want), "%d |%d user%s", n, n, n == 1 ? "" : "s");
	expect("\\u|\\U", want);
}

/* \d and \t in the zone in force at each build, as agetty (a new process at each login) shows them: the program
 * runs for months, and a zone changed meanwhile (timedatectl set-timezone, a new TZ) must show at the next login.
 * glibc's localtime_r looks at the zone only the first time it runs (tzset does at each call). */
static void test_time_zone(void)
{
	clean();
	expect("\\d \\t", "Fri Jan  1  1971 00:00:00");
	setenv("TZ", "EST5", 1);
	expect("\\d \\t", "Thu Dec 31  1970 19:00:00");
	setenv("TZ", "UTC", 1);
	expect("\\t", "00:00:00");
}

static double cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static void test_addresses(void)
{
	struct ifaddrs *a;
	bool v6 = false;
	clean();
	expect("[\\4{lo}]", "[127.0.0.1]");
	if (getifaddrs(&a) == 0) {
		for (struct ifaddrs *p = a; p; p = p->ifa_next)
			v6 |= p->ifa_addr && p->ifa_addr->sa_family == AF_INET6 && !strcmp(p->ifa_name, "lo");
		freeifaddrs(a);
	}
	if (v6)
		expect("[\\6{lo}]", "[::1]");
	expect("[\\4{no-such-if0}][\\6{no-such-if0}]", "[][]");
	char *s = expand("\\4");
	CHECK(strchr(s, '.') || !*s, "\\4 is an IPv4 address: '%s'", s);
	free(s);
}

/* \4{IF} and \u fill the 64 KiB text: the interfaces' addresses and utmp are read once per banner, not once per
 * escape (13000 getifaddrs netlink dumps cost 0.34 s of CPU of the main loop). */
static void test_address_cost(void)
{
	char *issue = malloc(KF_ISSUE_MAX + 1), *got;
	size_t n = 0;
	clean();
	while (n + 6 <= KF_ISSUE_MAX)
		n += (size_t)sprintf(issue + n, "\\4{x}");
	while (n + 2 <= KF_ISSUE_MAX)
		n += (size_t)sprintf(issue + n, "\\u");
	double t = cpu_seconds();
	got = expand(issue);
	t = cpu_seconds() - t;
	CHECK(!strchr(got, '.'), "10922 \\4{x} (no such interface) gave an address: '%.40s'", got);
	CHECK(t < 0.1, "10922 \\4{x} took %.2f s of CPU (want under 0.1 s)", t);
	free(got);
	for (n = 0; n + 2 <= KF_ISSUE_MAX; n += 2)
		memcpy(issue + n, "\\u", 2);
	issue[n] = '\0';
	t = cpu_seconds();
	got = expand(issue);
	t = cpu_seconds() - t;
	CHECK(t < 0.1, "32768 \\u took %.2f s of CPU (want under 0.1 s)", t);
	free(got);
	free(issue);
}

static void test_os_release(void)
{
	struct utsname u;
	uname(&u);
	clean();
	/* no os-release at all: \S is the system name, \S{X} nothing */
	char *got = expand("[\\S][\\S{ID}]"), want[512];
	snprintf(want, sizeof(want), "[%s][]", u.sysname);
	CHECK(!strcmp(got, want), "no os-release: '%s', want '%s'", got, want);
	free(got);
	/* /usr/lib's when /etc has none */
	put_file("/usr/lib/os-release", "PRETTY_NAME=\"Lib OS\"\nID=lib\n");
	expect("[\\S][\\S{ID}]", "[Lib OS][lib]");
	put_file("/etc/os-release",
		 "# comment\nPRETTY_NAME=\"Test OS 1 (x)\"\n; ID=commented\nID=testos\nID_LIKE=debian\n"
		 "NAME='single'\nANSI_COLOR=\"0;31\"\n  VERSION_ID = \"7\"  \nID=second\n");
	expect("[\\S][\\S{ID}][\\S{ID_LIKE}][\\S{NAME}][\\S{VERSION_ID}][\\S{NOPE}]",
	       "[Test OS 1 (x)][second][debian]['single'][7][]");
	expect("\\S{ANSI_COLOR}x", "\033[0;31mx");
	/* broken arguments: an empty name gives nothing (agetty 2.38 loops for ever); an unterminated one takes
	 * the rest of its file and acts as \S; a huge name is cut to 63 bytes and matches nothing */
	expect("a\\S{}b", "ab");
	expect("a\\S{ID and the rest\nof the file", "aTest OS 1 (x)");
	char huge[2100] = "\\S{";
	memset(huge + 3, 'A', 2000);
	strcpy(huge + 2003, "}end");
	expect(huge, "end");
	/* a FIFO as /etc's os-release does not block (agetty's open waits for a writer): /usr/lib's is read */
	char path[512];
	snprintf(path, sizeof(path), "%s/etc/os-release", root);
	unlink(path);
	CHECK(mkfifo(path, 0600) == 0, "mkfifo");
	alarm(10);
	got = expand("[\\S{ID}]");
	alarm(0);
	CHECK(!strcmp(got, "[lib]"), "os-release FIFO: '%s'", got);
	free(got);
}

/* The default search's text is want; what: the case, with a %s for the text. */
static void expect_default(const char *want, const char *what)
{
	char *got = build_path(NULL, 0, NULL);
	CHECK(!strcmp(got, want), what, got);
	free(got);
}

static void test_search_order(void)
{
	clean();
	expect_default("", "no files at all: '%s'");
	/* /usr/lib's pair alone */
	put_file("/usr/lib/issue", "usr\n");
	put_file("/usr/lib/issue.d/a.issue", "usr-a\n");
	expect_default("usr\nusr-a\n", "/usr/lib only: '%s'");
	/* an issue.d in /run without its file still hides /usr/lib's, even empty (agetty: it could be opened) */
	char empty[512];
	put_file("/run/issue.d/placeholder", "");
	snprintf(empty, sizeof(empty), "%s/run/issue.d/placeholder", root);
	CHECK(unlink(empty) == 0, "unlink");
	expect_default("", "an empty /run/issue.d hides /usr/lib's: '%s'");
	put_file("/run/issue.d/r.issue", "run-r\n");
	expect_default("run-r\n", "/run/issue.d hides /usr/lib: '%s'");
	put_file("/run/issue", "run\n");
	expect_default("run\nrun-r\n", "/run's pair: '%s'");
	/* /etc/issue.d is read only with /etc/issue */
	put_file("/etc/issue.d/e.issue", "etc-e\n");
	expect_default("run\nrun-r\n", "/etc/issue.d without /etc/issue is ignored: '%s'");
	/* /etc/issue hides /run's and /usr/lib's pairs, even when empty */
	put_file("/etc/issue", "");
	expect_default("etc-e\n", "/etc's pair hides the rest: '%s'");
	/* issue.d: version-sort order, *.issue only, no hidden files, no directories */
	put_file("/etc/issue", "E\n");
	put_file("/etc/issue.d/10.issue", "ten\n");
	put_file("/etc/issue.d/9.issue", "nine\n");
	put_file("/etc/issue.d/b.txt", "txt\n");
	put_file("/etc/issue.d/.h.issue", "hidden\n");
	put_file("/etc/issue.d/.issue", "dot\n");
	put_file("/etc/issue.d/sub.issue/x", "sub\n");
	expect_default("E\nnine\nten\netc-e\n", "issue.d order and filter: '%s'");
}


/* A directory with more *.issue files than are read (1024): the first ones in version order, as agetty shows
 * them (it reads them all; the 64 KiB cap cuts its text too), not whichever readdir gave first. With more than
 * twice as many (found unreached by tools/coverage, session 54) the names kept are sorted and halved on the
 * way: the first 1024 still, whichever order readdir gives them in. */
static void test_many_files(int files)
{
	char path[600], *got, *want = malloc(1024 * 7 + 1), *w = want;
	clean();
	put_file("/etc/issue", "");
	put_file("/etc/issue.d/not-one.txt", ""); /* (the directory) */
	for (int i = 0; i < files; i++) {
		snprintf(path, sizeof(path), "%s/etc/issue.d/%d.issue", root, i);
		FILE *f = fopen(path, "w");
		if (!f)
			abort();
		fprintf(f, "%d,", i);
		fclose(f);
	}
	for (int i = 0; i < 1024; i++)
		w += sprintf(w, "%d,", i);
	got = build_path(NULL, 0, NULL);
	CHECK(!strcmp(got, want), "%d files in issue.d: '%.40s...%s', want '0,1,2,...,1022,1023,'", files, got,
	      strlen(got) > 40 ? got + strlen(got) - 20 : "");
	free(got);
	free(want);
}

/* issue-path= of a config file's size (1 MiB) naming one directory over and over: the build's work is bounded,
 * whether the text is full (nothing more can be shown) or the files are empty (each one read again). */
static void test_huge_list(void)
{
	char path[600], *got;
	size_t len, n = 0;
	clean();
	put_file("/d/0.txt", "");
	for (int i = 0; i < 300; i++) {
		snprintf(path, sizeof(path), "%s/d/%d.issue", root, i);
		FILE *f = fopen(path, "w");
		if (!f)
			abort();
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/d:", root);
	char *list = malloc((1u << 20) + 1);
	while (n + strlen(path) <= 1u << 20)
		n += (size_t)sprintf(list + n, "%s", path);
	double t = cpu_seconds();
	got = build_path(list, 0, &len);
	t = cpu_seconds() - t;
	CHECK(len == 0, "a 1 MiB list of an issue.d of empty files: %zu bytes", len);
	CHECK(t < 0.5, "a 1 MiB list of an issue.d of 300 empty files took %.2f s of CPU (want under 0.5 s)", t);
	free(got);
	/* the same once the text is full */
	put_file("/d/0.issue", "full");
	t = cpu_seconds();
	got = build_path(list, 4, &len);
	t = cpu_seconds() - t;
	CHECK(len == 4 && !strcmp(got, "full"), "full text: %zu bytes", len);
	CHECK(t < 0.5, "a 1 MiB list once the text is full took %.2f s of CPU (want under 0.5 s)", t);
	free(got);
	free(list);
}

static void test_custom_list(void)
{
	char list[2048], *got;
	clean();
	put_file("/etc/issue", "default\n");
	put_file("/a", "A\\l\n");
	put_file("/d/2.issue", "d2\n");
	put_file("/d/1.issue", "d1\n");
	/* empty entries and missing ones are skipped; the default files are not read */
	snprintf(list, sizeof(list), "%s/d::%s/missing:%s/a:", root, root, root);
	got = build_path(list, 0, NULL);
	CHECK(!strcmp(got, "d1\nd2\nAtty7\n"), "custom list: '%s'", got);
	free(got);
}

static void test_fifo_and_unreadable(void)
{
	char path[512], list[1200], *got;
	clean();
	put_file("/etc/issue.d/z.issue", "after\n");
	snprintf(path, sizeof(path), "%s/etc/issue", root);
	CHECK(mkfifo(path, 0600) == 0, "mkfifo");
	/* a link named *.issue to a FIFO in issue.d, and a FIFO in a list: skipped, nothing waits */
	char link[512];
	snprintf(link, sizeof(link), "%s/etc/issue.d/f.issue", root);
	CHECK(symlink(path, link) == 0, "symlink");
	alarm(10); /* a blocked open ends the test here */
	got = build_path(NULL, 0, NULL);
	CHECK(!strcmp(got, "after\n"), "a FIFO as /etc/issue: '%s'", got);
	free(got);
	snprintf(list, sizeof(list), "%s:%s/etc/issue.d/z.issue", path, root);
	got = build_path(list, 0, NULL);
	CHECK(!strcmp(got, "after\n"), "a FIFO in the list: '%s'", got);
	free(got);
	alarm(0);
	/* a device in the list */
	got = build_path("/dev/zero", 0, NULL);
	CHECK(!*got, "/dev/zero: %zu bytes", strlen(got));
	free(got);
}

/* A file whose size the kernel reports as 0 though it holds text (procfs, here /proc/sys/kernel/ostype, "Linux\n";
 * a link to one as /etc/issue) is read up to the bound, as agetty reads to the end: it gave no text at all. */
static void test_size_zero(void)
{
	char path[512], *got;
	size_t len;
	struct stat st;
	clean();
	if (stat("/proc/sys/kernel/ostype", &st) < 0 || st.st_size != 0) {
		printf("SKIP size 0: /proc/sys/kernel/ostype missing or not of size 0\n");
		return;
	}
	got = build_path("/proc/sys/kernel/ostype", 0, &len);
	CHECK(!strcmp(got, "Linux\n"), "/proc/sys/kernel/ostype in a list: '%s' (%zu bytes)", got, len);
	free(got);
	put_file("/etc/issue.d/z.issue", "after\n");
	snprintf(path, sizeof(path), "%s/etc/issue", root);
	CHECK(symlink("/proc/sys/kernel/ostype", path) == 0, "symlink");
	got = build_path(NULL, 0, &len);
	CHECK(!strcmp(got, "Linux\nafter\n"), "/etc/issue a link to a procfs file: '%s' (%zu bytes)", got, len);
	free(got);
	/* the bound holds as for any file: cut, and said */
	capture_begin();
	got = build_path("/proc/sys/kernel/ostype", 3, &len);
	const char *log = capture_end();
	CHECK(!strcmp(got, "Lin") && strstr(log, "the issue text is cut"), "cut at 3: '%s', log: %s", got, log);
	free(got);
}

static void unlink_issue_d(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/etc/issue.d/more.issue", root);
	unlink(path);
}

static void test_cap(void)
{
	size_t len;
	char *big = malloc(100000 + 1), *got;
	clean();
	memset(big, 'x', 100000);
	big[100000] = '\0';
	put_file("/etc/issue", big);
	put_file("/etc/issue.d/more.issue", "more\n");
	got = build_path(NULL, 0, &len);
	CHECK(len == KF_ISSUE_MAX && strlen(got) == KF_ISSUE_MAX, "cut at 64 KiB: %zu", len);
	free(got);
	/* a file alone longer than the text: cut, and said (a 100000-byte /etc/issue was cut at 64 KiB without a
	 * word: the notice came only when another file followed) */
	unlink_issue_d();
	capture_begin();
	got = build_path(NULL, 0, &len);
	const char *log = capture_end();
	CHECK(len == KF_ISSUE_MAX && strstr(log, "the issue text is cut"), "a lone 100000-byte file: %zu, log: %s",
	      len, log);
	free(got);
	/* a file whose first 64 KiB expand to less (escapes: "\\" is one backslash), the rest of it beyond what
	 * is read: the text ends there, said, not the file's first 64 KiB with the rest dropped and the next
	 * file's text after it */
	for (size_t i = 0; i < 100000; i++)
		big[i] = '\\';
	put_file("/etc/issue", big);
	put_file("/etc/issue.d/more.issue", "MORE\n");
	capture_begin();
	got = build_path(NULL, 0, &len);
	log = capture_end();
	CHECK(len == KF_ISSUE_MAX / 2 && !strstr(got, "MORE") && strstr(log, "the issue text is cut"),
	      "a file longer than what is read: %zu bytes, MORE %s, log: %s", len, strstr(got, "MORE") ? "shown" : "not shown",
	      log);
	free(got);
	/* escapes count after expansion: 10 bytes of "\s" expansions stop at 10 */
	put_file("/etc/issue", "\\l\\l\\l\\l\\l\\l");
	got = build_path(NULL, 10, &len);
	CHECK(len == 10 && !strcmp(got, "tty7tty7tt"), "cut at 10: '%s'", got);
	free(got);
	free(big);
}


/* The banner is built in the main loop: \S escapes filling the 64 KiB text, each looking in a 64 KiB
 * os-release, must not cost seconds (each escape scanned the whole file: 2.5 s of CPU for 32000 \S whose
 * PRETTY_NAME is empty, 5041 times on its lines). CPU time, not wall time: the machine may be busy. */
static void test_os_release_cost(void)
{
	size_t n = KF_ISSUE_MAX / 13, len;
	char *osr = malloc(n * 13 + 1), *issue = malloc(KF_ISSUE_MAX + 1), *got;
	clean();
	for (size_t i = 0; i < n; i++)
		memcpy(osr + 13 * i, "PRETTY_NAME=\n", 13);
	osr[n * 13] = '\0';
	put_file("/etc/os-release", osr);
	for (size_t i = 0; i < KF_ISSUE_MAX / 2; i++)
		memcpy(issue + 2 * i, "\\S", 2);
	issue[KF_ISSUE_MAX] = '\0';
	double t = cpu_seconds();
	got = expand(issue);
	t = cpu_seconds() - t;
	CHECK(!strcmp(got, ""), "32768 \\S with an empty PRETTY_NAME: %zu bytes", strlen(got));
	CHECK(t < 0.3, "32768 \\S on a 64 KiB os-release took %.2f s of CPU (want under 0.3 s)", t);
	free(got);
	/* as many different names, each missing: the same bound */
	for (size_t i = 0; i + 8 <= KF_ISSUE_MAX; i += 8)
		snprintf(issue + i, 9, "\\S{%04zx}", (i / 8) & 0xffff);
	t = cpu_seconds();
	put_file("/etc/issue", issue);
	got = build_path(NULL, 0, &len);
	t = cpu_seconds() - t;
	CHECK(len == 0, "8192 \\S{NAME} missing: %zu bytes", len);
	CHECK(t < 0.3, "8192 different \\S{NAME} on a 64 KiB os-release took %.2f s of CPU (want under 0.3 s)", t);
	free(got);
	free(osr);
	free(issue);
}

static void test_crlf(void)
{
	size_t n;
	char *s = kf_issue_crlf("a\nb\r\n\n", 6, &n);
	CHECK(n == 9 && !memcmp(s, "a\r\nb\r\r\n\r\n", 9), "crlf: %zu", n);
	free(s);
}

int main(void)
{
	/* \d and \t in UTC and the C locale's names (\d takes them from the environment's LC_TIME, as agetty) */
	setenv("TZ", "UTC", 1);
	setenv("LC_ALL", "C", 1);
	snprintf(root, sizeof(root), "%s/kf-issue-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		return 1;
	test_plain_escapes();
	test_time_zone();
	test_addresses();
	test_address_cost();
	test_os_release();
	test_search_order();
	test_many_files(1100);
	test_many_files(2100);
	test_huge_list();
	test_custom_list();
	test_fifo_and_unreadable();
	test_size_zero();
	test_cap();
	test_os_release_cost();
	test_crlf();
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		failures++;
	printf("%s\n", failures ? "FAILED" : "all issue checks passed");
	return failures ? 1 : 0;
}
