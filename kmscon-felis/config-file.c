/* kmscon-felis/config-file.c: the configuration file read from disk (config.h kf_config_parse_file), its text
 * then parsed by config.c's kf_config_parse_text. Split from config.c for its size. */
#define LOG_TAG "config"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmscon-felis/config.h"
#include "kmscon-felis/log.h"

/* Largest file we read: a configuration is a few KiB; anything bigger is a mistake or hostile. */
#define FILE_MAX (1u << 20)

int kf_config_parse_file(struct kf_config *cfg, const char *path)
{
	int ret;
	struct stat st;
	char *buf = NULL;
	/* O_NONBLOCK: a FIFO there (or a device) must not make us wait for a writer at start; it is refused below.
	 * On a regular file the flag does nothing. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT) {
			log_debug("no configuration file %s, using defaults", path);
			return 0;
		}
		ret = -errno;
		log_err("cannot open configuration file %s: %s", path, strerror(-ret));
		return -EINVAL;
	}
	cfg->file_read = true;
	/* Each its own words: "not a regular file of at most 1048576 bytes" left a user with a directory there
	 * guessing which of the two it was. */
	ret = -EINVAL;
	if (fstat(fd, &st) < 0) {
		log_err("cannot read configuration file %s: %s", path, strerror(errno));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		log_err("configuration file %s is %s, not a file", path,
			S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket");
		goto out_close;
	}
	if (st.st_size > FILE_MAX) {
		log_err("configuration file %s is %lld bytes, more than the %u a configuration file may have", path,
			(long long)st.st_size, FILE_MAX);
		goto out_close;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		ret = -ENOMEM;
		goto out_close;
	}
	/* Read to the end, one byte past the length fstat gave: a file that an editor or `echo >>` writes while we
	 * read it (a reload) is longer or shorter than that, and parsed up to the old length it applied a value
	 * nobody wrote ("1,2,3" of "1,2,30"). Such a file is refused whole; a reload keeps the configuration in
	 * force. (A writer that truncates the file and has not yet written is not seen: an empty file is valid.) */
	size_t got = 0, want = (size_t)st.st_size + 1;
	char extra;
	while (got < want) {
		char *to = got < (size_t)st.st_size ? buf + got : &extra;
		ssize_t r = read(fd, to, got < (size_t)st.st_size ? (size_t)st.st_size - got : 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			log_err("cannot read configuration file %s: %s", path, strerror(errno));
			goto out_free;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	struct stat after;
	if (got != (size_t)st.st_size || fstat(fd, &after) < 0 || after.st_size != st.st_size ||
	    after.st_mtim.tv_sec != st.st_mtim.tv_sec || after.st_mtim.tv_nsec != st.st_mtim.tv_nsec) {
		log_err("configuration file %s changed while it was read, not used (write a new file and rename it "
			"over this one)", path);
		goto out_free;
	}
	cfg->file_empty = got == 0;
	log_debug("reading configuration file %s", path);
	ret = kf_config_parse_text(cfg, path, buf, got);
out_free:
	free(buf);
out_close:
	close(fd);
	return ret;
}
