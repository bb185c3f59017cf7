/* tests/config/test-config-changed.c: a configuration file written while it is read (an editor saving in place,
 * `echo ... >>` during a reload). The file is a real file on disk; what this executable adds is the moment: its
 * read(2), which the configuration library calls (it overrides libc's for this process), changes the file right
 * after the first read of it returns, as a writer would between two reads. Before, the length fstat gave was
 * trusted: a file that grew was parsed up to that length (a value nobody wrote, "1,2,3" of "1,2,30", was
 * applied), one that shrank was "cannot read ...: short". Now either is an error that says the file changed,
 * and on a reload the configuration in force stays. */
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kmscon-felis/config.h"
#include "kmscon-felis/log.h"
#include "../kf-capture.h"
#include "../kf-check.h"

static int failures;
static char dir[] = "/tmp/kf-changed-XXXXXX";
static char path[64];

/* The change to make at the next read of the file (by inode): text appended, or the file cut to cut_to bytes
 * before the read (the writer's O_TRUNC and first write). */
static struct {
	const char *append;
	long cut_to; /* -1: no cut */
	ino_t ino;
	int done;
} change = {NULL, -1, 0, 0};

ssize_t read(int fd, void *buf, size_t n)
{
	struct stat st;
	bool target = (change.append || change.cut_to >= 0) && !change.done && fstat(fd, &st) == 0 &&
		      st.st_ino == change.ino;
	if (target && change.cut_to >= 0 && truncate(path, change.cut_to) < 0)
		return -1;
	ssize_t r = syscall(SYS_read, fd, buf, n);
	if (target && change.append) {
		int w = open(path, O_WRONLY | O_APPEND);
		if (w < 0 || write(w, change.append, strlen(change.append)) < 0)
			exit(1);
		close(w);
	}
	if (target)
		change.done = 1;
	return r;
}

static void write_conf(const char *text)
{
	FILE *f = fopen(path, "w");
	struct stat st;
	if (!f || fputs(text, f) == EOF || fclose(f) != 0 || stat(path, &st) < 0) {
		printf("cannot write %s\n", path);
		exit(1);
	}
	change.ino = st.st_ino;
	change.done = 0;
	change.append = NULL;
	change.cut_to = -1;
}

static void test_start(void)
{
	struct kf_config c;
	/* grows: "sb-size=2" becomes "sb-size=24\n" while read */
	write_conf("sb-size=2");
	change.append = "4\n";
	kf_config_init(&c);
	capture_begin();
	int r = kf_config_parse_file(&c, path);
	const char *log = capture_end();
	CHECK(change.done, "the file was changed during the read");
	CHECK(r == -EINVAL, "a file that grew while read is an error (ret %d, sb-size %u)", r, c.sb_size);
	CHECK(strstr(log, path) && strstr(log, "changed while it was read"), "the error names the file: %s", log);
	kf_config_finish(&c);

	/* shrinks: cut to 5 bytes before the read */
	write_conf("sb-size=20\nfont-size=24\n");
	change.cut_to = 5;
	kf_config_init(&c);
	capture_begin();
	r = kf_config_parse_file(&c, path);
	log = capture_end();
	CHECK(change.done, "the file was cut during the read");
	CHECK(r == -EINVAL, "a file that shrank while read is an error (ret %d)", r);
	CHECK(strstr(log, path) && strstr(log, "changed while it was read"), "the error names the file: %s", log);
	kf_config_finish(&c);

	/* unchanged: read as before */
	write_conf("sb-size=24\n");
	kf_config_init(&c);
	CHECK(kf_config_parse_file(&c, path) == 0 && c.sb_size == 24, "an unchanged file reads (%u)", c.sb_size);
	kf_config_finish(&c);
}

static void test_reload(void)
{
	char *argv[] = {"kmscon-felis", "--configdir", dir, NULL};
	struct kf_config cur, next;
	char applied[256];
	write_conf("palette=custom\npalette-red=10,20,30\n");
	CHECK(kf_config_parse(&cur, 3, argv) == 0, "start");
	write_conf("palette=custom\npalette-red=1,2,3");
	change.append = "0\n";
	capture_begin();
	int r = kf_config_reload(&cur, &next, 3, argv, applied, sizeof(applied));
	const char *log = capture_end();
	CHECK(change.done, "the file was changed during the reload's read");
	CHECK(r == -EINVAL, "a reload of a file that grew while read fails (ret %d, applied '%s')", r,
	      r == 0 ? applied : "");
	CHECK(strstr(log, "changed while it was read"), "the reload says so: %s", log);
	if (r == 0) {
		CHECK(false, "applied palette-red %u,%u,%u, a value nobody wrote", next.palette_custom[KF_COLOR_RED].r,
		      next.palette_custom[KF_COLOR_RED].g, next.palette_custom[KF_COLOR_RED].b);
		kf_config_finish(&next);
	}
	CHECK(cur.palette_custom[KF_COLOR_RED].r == 10 && cur.palette_custom[KF_COLOR_RED].b == 30,
	      "the configuration in force stays");
	kf_config_finish(&cur);
}

int main(void)
{
	kf_log_init();
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/kmscon-felis.conf", dir);
	test_start();
	test_reload();
	unlink(path);
	rmdir(dir);
	printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
