/* kmscon-felis/log.h: the program's logger.
 *
 * One line per message, "[file:line] tag: text". Under systemd's journal (JOURNAL_STREAM matches stderr) each
 * line starts with a syslog priority prefix "<N>" so journald keeps the level; otherwise plain text.
 * The lower modules (drm/, input/, pty/) do not include this: each takes a log handler from the program.
 */
#ifndef KF_LOG_H
#define KF_LOG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum kf_log_level {
	KF_LOG_ERR = 3,
	KF_LOG_WARN = 4,
	KF_LOG_NOTICE = 5,
	KF_LOG_INFO = 6,
	KF_LOG_DEBUG = 7,
};

/* Messages above this level are dropped. Default KF_LOG_NOTICE; --verbose gives INFO, --debug DEBUG. */
void kf_log_set_level(enum kf_log_level level);
enum kf_log_level kf_log_get_level(void);
/* Re-reads JOURNAL_STREAM against stderr and notes when main started (call once, first thing in main). */
void kf_log_init(void);

/* A command-line tool's messages (kmscon-felis-replay): "PROG: text", without tag, level or place, as a user
 * of the tool reads them; NULL goes back to the program's form. */
void kf_log_set_tool(const char *prog);
/* The errors logged so far: a caller that would add a summary line of its own leaves it out after one. */
unsigned kf_log_error_count(void);

void kf_log_msg(enum kf_log_level level, const char *tag, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void kf_log_vmsg(enum kf_log_level level, const char *tag, const char *file, int line, const char *fmt,
		 va_list ap) __attribute__((format(printf, 5, 0)));

/* The length of the UTF-8 character at s (at most n bytes) when it is one and no C1 control, else 0. */
size_t kf_log_utf8_char(const unsigned char *s, size_t n);
/* The code point of the character at s (len bytes, as kf_log_utf8_char measured) when it shows as nothing or
 * moves other text, else 0: a soft hyphen, zero-width characters, the byte order mark, line and paragraph
 * separators, bidi marks, embeddings, overrides and isolates (which reorder what follows them on the screen):
 * U+00AD, U+061C, U+180E, U+200B-U+200F, U+2028-U+202E, U+2060-U+206F, U+FEFF, U+FFF9-U+FFFB. */
uint32_t kf_log_invisible(const unsigned char *s, size_t len);
/* in as one line of text shown as it is (cut to fit cap, at least 5): control characters and bytes that are no
 * UTF-8 written as \xNN, characters that show as nothing or reorder the text (zero-width, bidi controls) as
 * \uXXXX. Every message goes through it; for a quote that must be safe before it reaches the logger. */
void kf_log_escape(char *out, size_t cap, const char *in);

/* The start-up timeline (--debug): one line "startup: WHAT at T ms (+D ms since main)" with T on
 * CLOCK_MONOTONIC, so a tool that read that clock just before exec (tests/service/kf-notify-run) can place
 * every phase, dynamic linking included. Only until kf_log_phase_end(): a VT switch or a respawn later is not
 * start-up. */
void kf_log_phase(const char *what);
void kf_log_phase_end(void);

#ifndef LOG_TAG
#define LOG_TAG "kmscon-felis"
#endif

#define log_err(...) kf_log_msg(KF_LOG_ERR, LOG_TAG, __FILE__, __LINE__, __VA_ARGS__)
#define log_warn(...) kf_log_msg(KF_LOG_WARN, LOG_TAG, __FILE__, __LINE__, __VA_ARGS__)
#define log_notice(...) kf_log_msg(KF_LOG_NOTICE, LOG_TAG, __FILE__, __LINE__, __VA_ARGS__)
#define log_info(...) kf_log_msg(KF_LOG_INFO, LOG_TAG, __FILE__, __LINE__, __VA_ARGS__)
#define log_debug(...) kf_log_msg(KF_LOG_DEBUG, LOG_TAG, __FILE__, __LINE__, __VA_ARGS__)

#endif
