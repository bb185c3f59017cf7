/* kmscon-felis/issue.h: the /etc/issue banner shown before the login program, as agetty shows it.
 *
 * The reference is agetty of util-linux 2.38 (Debian 12), its manual agetty(8) "ISSUE FILES" and "ISSUE ESCAPES"
 * and its --show-issue output (tests/kmscon-felis/issue-diff.sh compares the two on a set of files).
 *
 * Where the text comes from (kf_issue_opts.path unset, agetty's default):
 *   /etc/issue readable: /etc/issue, then the *.issue files of /etc/issue.d; nothing else;
 *   else /run/issue and /run/issue.d/ *.issue; when either exists, nothing else;
 *   else /usr/lib/issue and /usr/lib/issue.d/ *.issue.
 * With a path (issue-path=, agetty's --issue-file): each entry of the colon-separated list, a file or a directory
 * (its *.issue files), in that order; a missing entry is skipped without a word.
 * A directory's files: names ending in ".issue", not starting with '.', in version-sort order (strverscmp).
 *
 * Differences from agetty, on purpose: a file is opened with O_NONBLOCK and read only when it is a regular file (a
 * FIFO or a device there made agetty wait for ever); a file that cannot be read is skipped with a notice (the first
 * one in the process; later ones at debug level); the text is cut at KF_ISSUE_MAX bytes, and a file at its first
 * KF_ISSUE_MAX bytes (the text ends there); a backslash at the very
 * end of a file is dropped (agetty writes a stray 0xff byte there); \e{lightgray} and \e{white} give the colours
 * agetty's manual promises (agetty 2.38 finds neither name in its unsorted table and writes nothing); \S{} gives
 * nothing (agetty 2.38 loops for ever on it, tests/kmscon-felis/issue-diff.sh); past 64 different \S{NAME} names
 * in one banner the later ones give nothing. Everything else, including the odd
 * corners (an unterminated \S{ swallows the rest of its file and acts as \S; an argument longer than agetty's
 * buffer is cut to its size), is agetty's.
 */
#ifndef KF_ISSUE_H
#define KF_ISSUE_H

#include <stddef.h>
#include <time.h>

/* The expanded text is cut at this many bytes. */
#define KF_ISSUE_MAX (64u << 10)
/* The resolver's time per build (\O, \4 and \6 without an interface), in all: it is built in the main loop. */
#define KF_ISSUE_RESOLVE_MS 1000u

struct kf_issue_opts {
	const char *path; /* issue-path: colon-separated files and directories; NULL or "": the default search */
	/* Put before every default path and before the os-release paths (/etc/os-release, then
	 * /usr/lib/os-release): tests point it at a temporary tree. NULL: "" (the real files). */
	const char *root;
	const char *tty;  /* \l: the line's name without "/dev/" (tty3, pts/2); NULL: "" */
	int tty_fd;       /* \b: the speed of this terminal's termios; -1: \b gives nothing */
	time_t now;       /* \d and \t; 0: time(NULL) */
	size_t max;       /* cap on the text; 0: KF_ISSUE_MAX */
};

/* Reads and expands the issue files. On success *out is a malloc'd buffer of *len bytes (NUL-terminated, but the
 * text may hold NUL bytes of its own), NULL with *len 0 when there is no text. Returns 0 or -ENOMEM. Never
 * blocks on a file; \O and the fallback of \4 and \6 ask the resolver for the host's name, as agetty does, once
 * each per build and KF_ISSUE_RESOLVE_MS in all (then unknown_domain, no address; agetty waits for the answer). */
int kf_issue_build(const struct kf_issue_opts *o, char **out, size_t *len);

/* The text as the screen takes it: every LF becomes CR LF (agetty's terminal maps it with ONLCR). Returns a
 * malloc'd buffer of *out_len bytes, or NULL (out of memory). */
char *kf_issue_crlf(const char *text, size_t len, size_t *out_len);

#endif
