/* kmscon-felis/issue.c: see issue.h. Which files make the text, and their reading; the escapes in them are
 * issue-expand.c's. */
#define LOG_TAG "issue"
#include "kmscon-felis/issue.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmscon-felis/issue-internal.h"
#include "kmscon-felis/log.h"

/* A directory's *.issue files read at most, the first in version order; the rest is skipped (the text's cap would
 * cut it anyway). */
#define DIR_FILES_MAX 1024
/* Entries of issue-path, directory entries and files looked at per build; then the rest is skipped. A config
 * file's 1 MiB issue-path naming a directory of 300 empty *.issue files again and again took 70 s of CPU in the
 * main loop; this is ~0.1 s. The default search of a directory of 1024 files is ~1030. */
#define WORK_MAX 65536u

struct ctx {
	const struct kf_issue_opts *o;
	struct issue_text out;
	struct issue_expand *expand; /* the escapes' state, for the build */
	unsigned work; /* WORK_MAX */
};

/* One unit of the build's work; false once WORK_MAX is spent or the text can take nothing more. */
static bool spend(struct ctx *c)
{
	if (c->out.cut || c->out.nomem)
		return false;
	if (c->work == WORK_MAX)
		return false;
	if (++c->work == WORK_MAX)
		log_notice("more than %u files and directory entries for the issue text: the rest is skipped", WORK_MAX);
	return true;
}

/* The first unreadable file is a notice; the rest of the process's life at debug level, so that a login
 * respawned again and again does not repeat it. */
static bool noticed;

static void skip_notice(const char *path, const char *why)
{
	if (!noticed) {
		noticed = true;
		log_notice("issue file %s skipped: %s (further ones are logged at debug level)", path, why);
	} else {
		log_debug("issue file %s skipped: %s", path, why);
	}
}

/* see issue-internal.h */
int issue_slurp(int dirfd, const char *name, const char *shown, size_t max, char **data, size_t *len)
{
	struct stat st;
	/* O_NONBLOCK: a FIFO must not make the start wait for a writer (agetty's fopen waits for ever). */
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			skip_notice(shown, strerror(errno));
		return 1;
	}
	if (fstat(fd, &st) < 0) {
		skip_notice(shown, strerror(errno));
		close(fd);
		return 1;
	}
	if (!S_ISREG(st.st_mode)) {
		skip_notice(shown, S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		close(fd);
		return 1;
	}
	/* A size of 0 says nothing of a procfs file's text (/proc/sys/kernel/ostype holds "Linux\n"): read such a
	 * file to its end, up to max, as agetty reads every file. */
	size_t want = st.st_size > 0 && (size_t)st.st_size < max ? (size_t)st.st_size : max;
	char *p = malloc(want + 1);
	if (!p) {
		close(fd);
		return -ENOMEM;
	}
	size_t got = 0;
	while (got < want) {
		ssize_t r = read(fd, p + got, want - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			skip_notice(shown, strerror(errno));
			free(p);
			close(fd);
			return 1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	p[got] = '\0';
	*data = p;
	*len = got;
	return 0;
}

/* Returns 0 when the file was read, 1 when not (agetty's issuefile_read). */
static int read_file(struct ctx *c, int dirfd, const char *name, const char *shown)
{
	char *data;
	size_t len;
	if (!spend(c))
		return 0;
	/* One byte more than the text can hold tells a file that is longer: its rest is not read, so the text ends
	 * with what was (a 100000-byte file was cut without the notice, and one whose escapes made its first 64
	 * KiB shorter lost its middle: the next file's text followed). */
	int r = issue_slurp(dirfd, name, shown, c->out.max + 1, &data, &len);
	if (r < 0) {
		c->out.nomem = true;
		return 0;
	}
	if (r > 0)
		return 1;
	issue_expand(c->expand, data, len > c->out.max ? c->out.max : len);
	if (len > c->out.max)
		c->out.cut = true;
	free(data);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static bool issue_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	if (d->d_type != DT_UNKNOWN && d->d_type != DT_REG && d->d_type != DT_LNK)
		return false;
	return d->d_name[0] != '.' && n > 6 && !strcmp(d->d_name + n - 6, ".issue");
}

/* Returns 0 when the directory could be opened (agetty's issuedir_read), 1 when not. */
static int read_dir(struct ctx *c, const char *path)
{
	if (!spend(c))
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECTORY);
	if (fd < 0)
		return 1;
	DIR *dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return 1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *d;
	/* The first DIR_FILES_MAX names in version order of however many there are, in 2 * DIR_FILES_MAX names of
	 * memory: when the array is full it is sorted and its upper half dropped. (Stopping at the first names
	 * readdir gives showed files from all over the order.) */
	while ((d = readdir(dir)) && spend(c)) {
		if (!issue_name(d))
			continue;
		if (n == 2 * DIR_FILES_MAX) {
			qsort(names, n, sizeof(*names), cmp_names);
			while (n > DIR_FILES_MAX)
				free(names[--n]);
		}
		if (n == cap) {
			char **p = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*names));
			if (!p)
				break;
			names = p;
		}
		if (!(names[n] = strdup(d->d_name)))
			break;
		n++;
	}
	if (n) /* (qsort's base is declared non-null: an empty directory has none) */
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		if (i >= DIR_FILES_MAX) {
			free(names[i]);
			continue;
		}
		char shown[4096];
		snprintf(shown, sizeof(shown), "%s/%s", path, names[i]);
		read_file(c, dirfd(dir), names[i], shown);
		free(names[i]);
	}
	free(names);
	closedir(dir);
	return 0;
}

static void read_list(struct ctx *c, const char *list)
{
	char *copy = strdup(list), *save = NULL;
	if (!copy) {
		c->out.nomem = true;
		return;
	}
	for (char *p = strtok_r(copy, ":", &save); p && spend(c); p = strtok_r(NULL, ":", &save)) {
		struct stat st;
		if (stat(p, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			read_dir(c, p);
		else
			read_file(c, AT_FDCWD, p, p);
	}
	free(copy);
}

static void read_default(struct ctx *c)
{
	const char *root = c->o->root ? c->o->root : "";
	char file[4096], dir[4096];
	snprintf(file, sizeof(file), "%s/etc/issue", root);
	snprintf(dir, sizeof(dir), "%s/etc/issue.d", root);
	/* /etc/issue.d only with /etc/issue, and then nothing else */
	if (access(file, F_OK | R_OK) == 0) {
		read_file(c, AT_FDCWD, file, file);
		read_dir(c, dir);
		return;
	}
	/* /run's pair when either is there, /usr/lib's otherwise */
	snprintf(file, sizeof(file), "%s/run/issue", root);
	snprintf(dir, sizeof(dir), "%s/run/issue.d", root);
	int none = read_file(c, AT_FDCWD, file, file);
	none &= read_dir(c, dir);
	if (!none)
		return;
	snprintf(file, sizeof(file), "%s/usr/lib/issue", root);
	snprintf(dir, sizeof(dir), "%s/usr/lib/issue.d", root);
	read_file(c, AT_FDCWD, file, file);
	read_dir(c, dir);
}

int kf_issue_build(const struct kf_issue_opts *o, char **out, size_t *len)
{
	struct ctx c = {.o = o, .out = {.max = o->max ? o->max : KF_ISSUE_MAX}};
	*out = NULL;
	*len = 0;
	c.expand = issue_expand_create(o, &c.out);
	if (!c.expand)
		return -ENOMEM;
	if (o->path && o->path[0])
		read_list(&c, o->path);
	else
		read_default(&c);
	issue_expand_destroy(c.expand);
	if (c.out.nomem) {
		free(c.out.p);
		return -ENOMEM;
	}
	if (c.out.cut)
		log_notice("the issue text is cut: its files hold more than the %zu bytes it may have", c.out.max);
	*out = c.out.p;
	*len = c.out.len;
	return 0;
}

char *kf_issue_crlf(const char *text, size_t len, size_t *out_len)
{
	size_t lf = 0;
	for (size_t i = 0; i < len; i++)
		lf += text[i] == '\n';
	char *p = malloc(len + lf + 1), *q = p;
	if (!p)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n')
			*q++ = '\r';
		*q++ = text[i];
	}
	*q = '\0';
	*out_len = (size_t)(q - p);
	return p;
}
