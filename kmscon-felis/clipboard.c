/* kmscon-felis/clipboard.c: the per-user clipboard file shared by every instance (see clipboard.h). */
#define LOG_TAG "clipboard"

#include "kmscon-felis/clipboard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmscon-felis/log.h"

/* The clipboard is used from a program's OSC 52 sequences, thousands of them in one read of the PTY: a failure
 * that lasts (a directory others can read, a full file system) was logged at each one, two warnings a write.
 * Said at the first failure of a streak (and when the reason changes), and the streak's end says how many there
 * were. */
static struct {
	unsigned count; /* failures in a row */
	int last;       /* the last one's -errno */
	bool said_large; /* a file past the cap was said, and is still there */
} streak;

static void failed(int r, const char *what)
{
	if (streak.count++ == 0 || r != streak.last)
		log_warn("%s: %s (said once while it lasts)", what, strerror(-r));
	streak.last = r;
}

static void worked(void)
{
	if (streak.count > 1)
		log_notice("the clipboard works again after %u failures", streak.count);
	streak.count = 0;
}

static int clipboard_dir(char *buf, size_t cap)
{
	const char *dir = getenv("KMSCON_FELIS_CLIPBOARD_DIR");
	const char *rt = getenv("XDG_RUNTIME_DIR");
	int n;

	if (dir && *dir)
		n = snprintf(buf, cap, "%s", dir);
	else if (rt && *rt == '/')
		n = snprintf(buf, cap, "%s/kmscon-felis", rt);
	else
		n = snprintf(buf, cap, "/run/kmscon-felis-%u", (unsigned)getuid());
	return n > 0 && (size_t)n < cap ? 0 : -ENAMETOOLONG;
}

/* Creates the directory if needed and refuses one that another user could read or replace. */
static int check_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (lstat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077)) {
		if (streak.count == 0)
			log_warn("%s is not a private directory of uid %u (mode %o): clipboard disabled", dir,
				 (unsigned)getuid(), (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* The longest prefix of data that ends on a UTF-8 character boundary and fits max. */
static size_t utf8_cut(const unsigned char *data, size_t len, size_t max)
{
	size_t n = len;

	if (n <= max)
		return n;
	n = max;
	/* back over at most 3 continuation bytes (a character has 4 at most): more is no UTF-8, cut at max */
	while (n > 0 && max - n < 3 && (data[n] & 0xc0) == 0x80)
		n--;
	return (data[n] & 0xc0) == 0x80 ? max : n;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int kf_clipboard_set(const void *data, size_t len)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 32], path[PATH_MAX + 32];
	int fd, r;

	r = clipboard_dir(dir, sizeof(dir));
	if (r < 0 || (r = check_dir(dir)) < 0)
		goto out;
	if (len > KF_CLIPBOARD_MAX) {
		log_warn("selection of %zu bytes cut to the clipboard's %u", len, KF_CLIPBOARD_MAX);
		len = utf8_cut(data, len, KF_CLIPBOARD_MAX);
	}
	snprintf(path, sizeof(path), "%s/clipboard", dir);
	snprintf(tmp, sizeof(tmp), "%s/.clipboard.%d", dir, (int)getpid());
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	r = write_all(fd, data, len);
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!r && rename(tmp, path) < 0)
		r = -errno;
	if (r)
		unlink(tmp);
out:
	if (r < 0) {
		failed(r, "cannot store the clipboard");
	} else {
		worked();
		streak.said_large = false; /* our own file, within the cap */
	}
	return r;
}

int kf_clipboard_get(char **data, size_t *len)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd, r;

	*data = NULL;
	*len = 0;
	r = clipboard_dir(dir, sizeof(dir));
	if (r < 0 || (r = check_dir(dir)) < 0) {
		failed(r, "cannot read the clipboard");
		return r;
	}
	snprintf(path, sizeof(path), "%s/clipboard", dir);
	/* O_NONBLOCK: a FIFO there would make open(2) wait for a writer, with the console; fstat refuses it below.
	 * On a regular file the flag does nothing. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno != ENOENT) {
			r = -errno;
			failed(r, "cannot open the clipboard file");
			return r;
		}
		worked(); /* no clipboard yet */
		return 0;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != getuid()) {
		r = -EPERM;
		failed(r, "the clipboard file is not a regular file of this user's");
		goto out;
	}
	/* Never trust the size: another writer may have replaced the file; read at most the cap, and the byte
	 * after it, which tells whether the cap falls inside a character. */
	buf = malloc(KF_CLIPBOARD_MAX + 2);
	if (!buf) {
		r = -ENOMEM;
		failed(r, "cannot read the clipboard");
		goto out;
	}
	while (got <= KF_CLIPBOARD_MAX) {
		ssize_t n = read(fd, buf + got, KF_CLIPBOARD_MAX + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* partway through (a disk error, a file system gone): said as the other failures are */
			r = -errno;
			failed(r, "cannot read the clipboard file");
			goto out;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	bool large = got > KF_CLIPBOARD_MAX;
	if (large) {
		/* the paste must not begin or end with a broken character */
		got = utf8_cut((unsigned char *)buf, got, KF_CLIPBOARD_MAX);
		if (!streak.said_large)
			log_warn("clipboard file larger than the cap: %zu bytes read, cut at a character boundary "
				 "(said once while it lasts)", got);
	}
	streak.said_large = large;
	worked();
	buf[got] = 0;
	*data = buf;
	*len = got;
	buf = NULL;
out:
	free(buf);
	close(fd);
	return r;
}
