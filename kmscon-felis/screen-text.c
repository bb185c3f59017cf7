/* kmscon-felis/screen-text.c: see screen-text.h. */
#include "kmscon-felis/screen-text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grid/grid.h"
#include "vt/vt.h"

/* Code points kept per cell. A cell holds a few in practice; a longer cluster is cut, never overrun. */
#define CELL_CPS 32

int kf_screen_text(const struct grid *g, FILE *out)
{
	int cols = grid_cols(g), rows = grid_rows(g);
	uint32_t cps[CELL_CPS];
	/* one line: at most CELL_CPS code points of 4 bytes per cell, and the newline */
	char *line = malloc((size_t)cols * CELL_CPS * 4 + 1);
	if (!line)
		return -ENOMEM;
	for (int y = 0; y < rows; y++) {
		const struct grid_cell *row = grid_row(g, y);
		size_t len = 0, trimmed = 0;
		for (int x = 0; x < cols; x++) {
			if (row[x].width == 0)
				continue; /* right half of a wide character */
			size_t n = grid_cell_codepoints(g, &row[x], cps, CELL_CPS);
			if (n > CELL_CPS)
				n = CELL_CPS;
			/* a blank is a space that ends no line: only what follows it keeps it */
			if (n == 0 || (n == 1 && cps[0] == ' ')) {
				line[len++] = ' ';
				continue;
			}
			for (size_t i = 0; i < n; i++)
				len += vt_utf8_encode(cps[i], line + len);
			trimmed = len;
		}
		line[trimmed] = '\n';
		/* the first failed write's own errno (ENOSPC from a full disk, not a generic EIO), and no more
		 * writes after it */
		errno = 0;
		if (fwrite(line, 1, trimmed + 1, out) != trimmed + 1) {
			int e = errno ? errno : EIO;
			free(line);
			return -e;
		}
	}
	free(line);
	return ferror(out) ? -EIO : 0;
}

/* The file a chain of symbolic links at path ends in, when that file is not there (a link's target is taken
 * from the link's folder when relative): into out (size bytes). Returns 0, or -errno (ELOOP past 40 links). */
static int link_target(const char *path, char *out, size_t size)
{
	char cur[PATH_MAX], target[PATH_MAX];
	if (snprintf(cur, sizeof(cur), "%s", path) >= (int)sizeof(cur))
		return -ENAMETOOLONG;
	for (int i = 0; i < 40; i++) {
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
			if (snprintf(out, size, "%s", cur) >= (int)size)
				return -ENAMETOOLONG;
			return 0;
		}
		ssize_t n = readlink(cur, target, sizeof(target) - 1);
		if (n < 0)
			return -errno;
		target[n] = '\0';
		const char *slash = strrchr(cur, '/');
		int dir = target[0] == '/' || !slash ? 0 : (int)(slash - cur + 1);
		char next[PATH_MAX];
		if (snprintf(next, sizeof(next), "%.*s%s", dir, cur, target) >= (int)sizeof(next))
			return -ENAMETOOLONG;
		memcpy(cur, next, sizeof(cur));
	}
	return -ELOOP;
}

int kf_screen_text_path_check(const char *path)
{
	/* Not kept open for the write: a script that waits for the file to appear would take an empty one for the
	 * result. access(2) would not do either: it answers for the real uid, and root passes it on a read-only
	 * file system. A FIFO is not opened: a reader already waiting would take our close for the end of the
	 * output, and the real one would then wait for a reader forever. */
	struct stat st;
	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
		return 0;
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	bool created = false;
	/* A link to a file not there yet is written through later (fopen follows it), but O_EXCL refuses any link:
	 * the file it ends in is created and removed instead. */
	char real[PATH_MAX];
	if (fd < 0 && errno == ENOENT) {
		int r = link_target(path, real, sizeof(real));
		if (r < 0)
			return r;
		fd = open(real, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		created = fd >= 0;
	}
	if (fd < 0)
		return -errno;
	close(fd);
	if (created)
		unlink(real);
	return 0;
}
