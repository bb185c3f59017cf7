/* kmscon-felis/render/font-cache.c: the faces fontconfig chose, remembered across starts.
 *
 * FcInit parses /etc/fonts (some 40 XML files) before the first match: 300 ms of a 1.2 s start in
 * the TCG guest, 5-20 ms on hardware, every start, for an answer that only changes when the
 * fontconfig configuration or the installed fonts do. So font-ft.c asks here first: one small file
 * per font name and pixel size holds the files of the four styles fontconfig matched last time,
 * under a stamp of what fontconfig reads (its configuration files and conf.d entries, its cache
 * directory, the font directories; each one's mtime, size and inode). A different stamp, a face
 * file that changed, or anything unreadable is a miss: font-ft.c then runs fontconfig as before and
 * saves the new answer.
 *
 * Where: $KMSCON_FELIS_FONT_CACHE (a directory; empty turns the cache off), else $CACHE_DIRECTORY
 * (the unit's CacheDirectory=), else /var/cache/kmscon-felis when running as root; nowhere
 * otherwise. FONTCONFIG_FILE, FONTCONFIG_PATH or FONTCONFIG_SYSROOT in the environment turn it off
 * (fontconfig would read something the stamp does not cover).
 *
 * Known limit: a font copied into a subdirectory of a font directory without running fc-cache
 * changes no stamped mtime; fontconfig itself would notice it. fc-cache (run by every Debian font
 * package) updates /var/cache/fontconfig, which is stamped.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_TAG "render"
#include "kmscon-felis/log.h"
#include "kmscon-felis/render/render-internal.h"

/* 2: a face line says what is synthesised on the face (a bold face slanted for bold italic).
 * 3: a "fit ASC DESC" line, the cell the regular and bold letters need (font-ft.c). */
#define CACHE_MAGIC "kmscon-felis-font-cache 3"
/* A cache file is a few hundred bytes; anything bigger is not ours. */
#define CACHE_MAX 4096
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * FNV_PRIME;
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv(h, s, strlen(s) + 1);
}

/* Folds what stat() says of path (or that it is absent) into h. */
static uint64_t stamp_path(uint64_t h, const char *path)
{
	struct stat st;
	h = fnv_str(h, path);
	if (stat(path, &st) < 0) {
		int e = errno;
		return fnv(h, &e, sizeof(e));
	}
	int64_t v[4] = {(int64_t)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, (int64_t)st.st_size,
			(int64_t)st.st_ino};
	return fnv(h, v, sizeof(v));
}

/* A directory and every entry in it (conf.d: an edited file does not change the directory's mtime).
 * readdir order is stable for an unchanged directory. */
static uint64_t stamp_dir(uint64_t h, const char *dir)
{
	char path[4096];
	h = stamp_path(h, dir);
	DIR *d = opendir(dir);
	if (!d)
		return h;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path))
			h = stamp_path(h, path);
	closedir(d);
	return h;
}

/* $VAR/sub, else $HOME/home_sub/sub; folded in when one of them names a path. */
static uint64_t stamp_xdg(uint64_t h, const char *var, const char *home_sub, const char *sub,
			  bool dir)
{
	char path[4096];
	const char *base = getenv(var), *home = getenv("HOME");
	int n;
	if (base && base[0])
		n = snprintf(path, sizeof(path), "%s/%s", base, sub);
	else if (home && home[0])
		n = snprintf(path, sizeof(path), "%s/%s/%s", home, home_sub, sub);
	else
		return h;
	if (n < 0 || n >= (int)sizeof(path))
		return h;
	return dir ? stamp_dir(h, path) : stamp_path(h, path);
}

/* What fontconfig reads on Debian (and most distributions) before it matches. */
static uint64_t config_stamp(void)
{
	static const char *const files[] = {
	    "/etc/fonts/fonts.conf", "/etc/fonts/local.conf",  "/var/cache/fontconfig",
	    "/usr/share/fonts",	     "/usr/local/share/fonts", "/usr/share/fontconfig/conf.avail",
	};
	uint64_t h = stamp_dir(FNV_OFFSET, "/etc/fonts/conf.d");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		h = stamp_path(h, files[i]);
	const char *home = getenv("HOME");
	if (home && home[0]) {
		char path[4096];
		if (snprintf(path, sizeof(path), "%s/.fonts.conf", home) < (int)sizeof(path))
			h = stamp_path(h, path);
		if (snprintf(path, sizeof(path), "%s/.fonts", home) < (int)sizeof(path))
			h = stamp_path(h, path);
	}
	h = stamp_xdg(h, "XDG_CONFIG_HOME", ".config", "fontconfig/fonts.conf", false);
	h = stamp_xdg(h, "XDG_CONFIG_HOME", ".config", "fontconfig/conf.d", true);
	h = stamp_xdg(h, "XDG_DATA_HOME", ".local/share", "fonts", false);
	h = stamp_xdg(h, "XDG_CACHE_HOME", ".cache", "fontconfig", false);
	return h;
}

/* The cache file for name at size, or false when there is no cache. */
static bool cache_path(const char *name, int size, char *path, size_t len)
{
	if (getenv("FONTCONFIG_FILE") || getenv("FONTCONFIG_PATH") || getenv("FONTCONFIG_SYSROOT"))
		return false;
	const char *dir = getenv("KMSCON_FELIS_FONT_CACHE");
	if (!dir)
		dir = getenv("CACHE_DIRECTORY");
	if (dir && strchr(dir, ':'))
		return false; /* systemd lists several directories when the unit names several */
	if (!dir && geteuid() == 0) {
		dir = "/var/cache/kmscon-felis";
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return false;
	}
	if (!dir || !dir[0])
		return false;
	uint64_t h = fnv(fnv_str(FNV_OFFSET, name), &size, sizeof(size));
	int n = snprintf(path, len, "%s/font-%016llx", dir, (unsigned long long)h);
	return n > 0 && (size_t)n < len;
}

void kf_font_choice_finish(struct kf_font_choice *c)
{
	for (int s = 0; s < 4; s++) {
		free(c->face[s].path);
		c->face[s].path = NULL;
	}
}

/* One "face STYLE INDEX FAKE MTIME SIZE PATH" line (FAKE: the style bits synthesised on the face);
 * the face file must still be what was matched. */
static int parse_face(char *line, struct kf_font_choice *c)
{
	unsigned style, fake;
	int index, off = 0;
	long long mtime, fsize;
	struct stat st;
	if (sscanf(line, "face %u %d %u %lld %lld %n", &style, &index, &fake, &mtime, &fsize,
		   &off) != 5 ||
	    !off || style > 3 || index < 0 || (fake & ~style) || c->face[style].path ||
	    line[off] != '/')
		return -EINVAL;
	if (stat(line + off, &st) < 0 || (long long)st.st_mtime != mtime ||
	    (long long)st.st_size != fsize)
		return -ESTALE;
	c->face[style].path = strdup(line + off);
	c->face[style].index = index;
	c->face[style].fake = fake;
	return c->face[style].path ? 0 : -ENOMEM;
}

static int parse_cache(char *buf, const char *name, int size, struct kf_font_choice *c)
{
	char want[512];
	uint64_t stamp = 0;
	int n = 0, r;
	char *save = NULL;
	if (snprintf(want, sizeof(want), "font %d %s", size, name) >= (int)sizeof(want))
		return -ENAMETOOLONG;
	for (char *line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		if (n == 0 && strcmp(line, CACHE_MAGIC))
			return -EINVAL;
		else if (n == 1 && (sscanf(line, "stamp %llx", (unsigned long long *)&stamp) != 1 ||
				    stamp != config_stamp()))
			return -ESTALE;
		else if (n == 2 && strcmp(line, want))
			return -ESTALE; /* two names with one hash */
		else if (n > 2 && !strncmp(line, "fit ", 4)) {
			if (sscanf(line, "fit %d %d", &c->fit_asc, &c->fit_desc) != 2 ||
			    c->fit_asc < 0 || c->fit_desc < 0 || c->fit_asc > 4 * size + 4 ||
			    c->fit_desc > 4 * size + 4)
				return -EINVAL;
		} else if (n > 2 && (r = parse_face(line, c)) < 0)
			return r;
	}
	return n > 2 && c->face[0].path ? 0 : -EINVAL;
}

int kf_font_cache_load(const char *name, int size, struct kf_font_choice *out)
{
	char path[4096], buf[CACHE_MAX + 1];
	memset(out, 0, sizeof(*out));
	if (!cache_path(name, size, path, sizeof(path)))
		return -ENOENT;
	/* O_NONBLOCK: a FIFO there made open(2) wait for a writer for ever, before the first frame. It now opens at
	 * once and reads as empty (or EAGAIN), a miss; on a regular file the flag does nothing. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || n > CACHE_MAX)
		return -EINVAL;
	buf[n] = 0;
	int r = parse_cache(buf, name, size, out);
	if (r < 0)
		kf_font_choice_finish(out);
	return r;
}

void kf_font_cache_save(const char *name, int size, const struct kf_font_choice *c)
{
	char path[4096], tmp[4200], buf[CACHE_MAX + 1];
	if (strchr(name, '\n') || !cache_path(name, size, path, sizeof(path)))
		return;
	int len = snprintf(buf, sizeof(buf), CACHE_MAGIC "\nstamp %016llx\nfont %d %s\nfit %d %d\n",
			   (unsigned long long)config_stamp(), size, name, c->fit_asc, c->fit_desc);
	for (int s = 0; s < 4 && len > 0 && len < (int)sizeof(buf); s++) {
		struct stat st;
		const char *p = c->face[s].path;
		if (!p)
			continue; /* synthesised from the regular face */
		if (p[0] != '/' || strchr(p, '\n') || stat(p, &st) < 0)
			return;
		len +=
		    snprintf(buf + len, sizeof(buf) - (size_t)len, "face %d %d %u %lld %lld %s\n", s,
			     c->face[s].index, c->face[s].fake, (long long)st.st_mtime,
			     (long long)st.st_size, p);
	}
	if (len <= 0 || len >= (int)sizeof(buf) ||
	    snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return;
	bool ok = write(fd, buf, (size_t)len) == len;
	ok = !close(fd) && ok;
	if (!ok || rename(tmp, path) < 0) {
		unlink(tmp);
		log_debug("cannot write the font cache %s", path);
	}
}
