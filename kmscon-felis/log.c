/* kmscon-felis/log.c: see log.h. */
#include "kmscon-felis/log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static enum kf_log_level max_level = KF_LOG_NOTICE;
static bool journal;
static long long main_us; /* CLOCK_MONOTONIC at kf_log_init */
static bool phases_done;
static const char *tool;	/* kf_log_set_tool */
static unsigned error_count;

static long long monotonic_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void kf_log_set_level(enum kf_log_level level)
{
	max_level = level;
}

enum kf_log_level kf_log_get_level(void)
{
	return max_level;
}

void kf_log_init(void)
{
	/* systemd sets JOURNAL_STREAM=dev:ino of the stream it connected; only trust it if stderr is still that
	 * stream (a child's redirect would otherwise inherit the prefixes). */
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	journal = false;
	main_us = monotonic_us();
	if (js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && fstat(2, &st) == 0)
		journal = (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

size_t kf_log_utf8_char(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0xc2 ? 0 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : s[0] < 0xf5 ? 4 : 0;
	if (!len || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, UTF-16 surrogates, past U+10FFFF, and U+0080-U+009F (C1: CSI, OSC... to some terminals) */
	if ((s[0] == 0xc2 && s[1] < 0xa0) || (s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return len;
}

/* (log.h) Quoted raw, a line holding one looked right in its error. */
uint32_t kf_log_invisible(const unsigned char *s, size_t len)
{
	uint32_t c = len == 2 ? (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu)
				: len == 3 ? (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu) : 0;
	bool hidden = c == 0xad || c == 0x61c || c == 0x180e || (c >= 0x200b && c <= 0x200f) ||
		      (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x206f) || c == 0xfeff ||
		      (c >= 0xfff9 && c <= 0xfffb);
	return hidden ? c : 0;
}

/* Messages quote what users and programs give (a configuration line, a path, a program's name): written raw, a
 * line's ESC sequences acted on the admin's terminal and a CR hid the message, and journald stored a message
 * holding a byte that is no UTF-8 as a blob, which journalctl does not show. */
void kf_log_escape(char *out, size_t cap, const char *in)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0, n = strlen(in);
	for (size_t i = 0; i < n && o + 5 <= cap;) {
		size_t len = s[i] >= 0x20 && s[i] < 0x7f ? 1 : s[i] >= 0x80 ? kf_log_utf8_char(s + i, n - i) : 0;
		uint32_t hidden = len > 1 ? kf_log_invisible(s + i, len) : 0;
		if (hidden) {
			if (o + 7 > cap)
				break;
			o += (size_t)snprintf(out + o, cap - o, "\\u%04x", (unsigned)hidden);
			i += len;
		} else if (len) {
			if (o + len + 1 > cap)
				break;
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
		} else {
			o += (size_t)snprintf(out + o, cap - o, "\\x%02x", s[i++]);
		}
	}
	out[o] = 0;
}

void kf_log_vmsg(enum kf_log_level level, const char *tag, const char *file, int line, const char *fmt,
		 va_list ap)
{
	if (level <= KF_LOG_ERR)
		error_count++;
	if (level > max_level)
		return;
	int saved = errno;
	char raw[1024], buf[4 * sizeof(raw)];
	vsnprintf(raw, sizeof(raw), fmt, ap);
	kf_log_escape(buf, sizeof(buf), raw);
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	static const char *const names[] = {"", "", "", "error", "warning", "notice", "info", "debug"};
	if (tool) {
		fprintf(stderr, "%s: %s\n", tool, buf);
	} else if (journal) {
		fprintf(stderr, "<%d>[%s:%d] %s: %s\n", (int)level, base, line, tag, buf);
	} else if (max_level >= KF_LOG_DEBUG) {
		/* Debug logs of two instances (a VT switch) are read side by side: CLOCK_MONOTONIC, as the
		 * kernel's and libinput's event times. */
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		fprintf(stderr, "%lld.%06ld %s: %s: [%s:%d] %s\n", (long long)ts.tv_sec, ts.tv_nsec / 1000, tag,
			names[level], base, line, buf);
	} else
		fprintf(stderr, "%s: %s: [%s:%d] %s\n", tag, names[level], base, line, buf);
	errno = saved;
}

void kf_log_set_tool(const char *prog)
{
	tool = prog;
}

unsigned kf_log_error_count(void)
{
	return error_count;
}

void kf_log_msg(enum kf_log_level level, const char *tag, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_log_vmsg(level, tag, file, line, fmt, ap);
	va_end(ap);
}

void kf_log_phase(const char *what)
{
	if (phases_done || max_level < KF_LOG_DEBUG)
		return;
	long long t = monotonic_us(), d = t - main_us;
	kf_log_msg(KF_LOG_DEBUG, "startup", __FILE__, __LINE__, "%s at %lld.%03lld ms (+%lld.%03lld ms since main)",
		   what, t / 1000, t % 1000, d / 1000, d % 1000);
}

void kf_log_phase_end(void)
{
	phases_done = true;
}
