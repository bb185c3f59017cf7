/* tests/kmscon-felis/test-headless-eio.c: --input-fifo's bytes when the terminal refuses them for a while. A kernel
 * that refuses writes to a master whose slave is closed (older ones do, while login(1) closes its terminal around
 * vhangup() and opens it again) makes write(2) fail with EIO; this one does not, so write(2) is wrapped
 * (-Wl,--wrap=write) to fail on the PTY master a few times, as such a kernel would. Everything else is real: the
 * loop, the session, a child on a real PTY reading its terminal, and the FIFO. The bytes must reach the child
 * once the terminal takes them again; they were dropped. A second case lets the first write land in part before
 * the refusal: the part that went must not be sent again (pty's write_some answered -EIO without its count, and
 * the retry sent "abc" twice: the child read "abcabc"). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmscon-felis/headless.h"

#include "session-harness.h"

ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

static int refuse_master; /* writes to a PTY master still to fail with EIO */
static int refused;
static bool split_next;   /* the next write to the master takes 3 bytes, and the one after it fails */

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	unsigned pty_number;
	if (split_next && n > 3 && ioctl(fd, TIOCGPTN, &pty_number) == 0) {
		split_next = false;
		refuse_master = 1;
		return __real_write(fd, buf, 3);
	}
	if (refuse_master > 0 && ioctl(fd, TIOCGPTN, &pty_number) == 0) { /* only a master has a number */
		refuse_master--;
		refused++;
		errno = EIO;
		return -1;
	}
	return __real_write(fd, buf, n);
}

/* Writes "abcdef" into the FIFO with the master refusing `refuse` writes (after taking 3 bytes if split);
 * checks the child read exactly "abcdef". */
static void run_case(const char *name, int refuse, bool split)
{
	char fifo[256], got[256], cmd[1024], text[64];
	snprintf(fifo, sizeof(fifo), "%s/in-%s", tmpdir, name);
	snprintf(got, sizeof(got), "%s/got-%s", tmpdir, name);
	CHECK(mkfifo(fifo, 0600) == 0);
	snprintf(cmd, sizeof(cmd), "stty raw -echo; echo READY; head -c 6 > %s.part; mv %s.part %s; exec sleep 60",
		 got, got, got);
	const char *argv[] = {"sh", "-c", cmd, NULL};
	struct ctx c = {.loop = kf_loop_create()};
	struct kf_session_config cfg = {.argv = argv, .reset_env = true, .cols = 40, .rows = 5};
	struct kf_session *s = NULL;
	struct kf_headless *h = NULL;
	CHECK(kf_session_create(c.loop, &cfg, NULL, &c, &s) == 0);
	CHECK(kf_headless_create(c.loop, s, fifo, &h) == 0);
	for (int i = 0; i < 300 && !strstr(screen(s), "READY"); i++)
		run_for(c.loop, 10);
	refused = 0;
	refuse_master = refuse;
	split_next = split;
	int w = open(fifo, O_WRONLY | O_CLOEXEC);
	CHECK(w >= 0 && __real_write(w, "abcdef", 6) == 6);
	close(w);
	const bool arrived = run_until_file(c.loop, got, 3000);
	text[0] = 0;
	read_text(got, text, sizeof(text));
	printf("FIFO input, %s, the terminal refusing %d writes with EIO: the child got '%s'\n",
	       split ? "3 bytes taken first" : "nothing taken first", refused, text);
	CHECK(refused == (split ? 1 : refuse));
	CHECK(arrived && !strcmp(text, "abcdef"));
	kf_headless_destroy(h);
	kf_session_destroy(s);
	kf_loop_destroy(c.loop);
}

int main(void)
{
	if (session_tests_begin() < 0)
		return 1;
	run_case("whole", 3, false);
	run_case("split", 0, true);
	return session_tests_end();
}
