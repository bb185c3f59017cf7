/* kmscon-felis/issue-internal.h: what the two halves of the issue banner share, and nothing else includes:
 * issue.c finds and reads the files, issue-expand.c expands the escapes of their text into the build's text.
 * Both run within one kf_issue_build() call, in the main loop. */
#ifndef KF_ISSUE_INTERNAL_H
#define KF_ISSUE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "kmscon-felis/issue.h"

/* The text being built; owned by kf_issue_build. */
struct issue_text {
	char *p; /* malloc'd, NUL-terminated; NULL until something is put */
	size_t len, cap, max;
	bool cut;   /* the text reached max: nothing more is read (set by issue-expand.c's put) */
	bool nomem; /* an allocation failed: the build returns -ENOMEM (set by either half) */
};

/* One file or directory entry read whole, at most max bytes (issue.c asks one more than the text can take, to
 * tell a file that is longer), to its end whatever size it reports (procfs reports 0). Returns 0 and a malloc'd
 * *data (the caller frees it), 1 when there is nothing to read (missing, not a regular file,
 * unreadable: logged when it is not missing), -ENOMEM. dirfd: AT_FDCWD or a directory's fd for a name in it;
 * shown: the path for messages. Never blocks (O_NONBLOCK, regular files only). issue.c. */
int issue_slurp(int dirfd, const char *name, const char *shown, size_t max, char **data, size_t *len);

/* The escapes' state for one build: os-release, uname, the resolver's answers, the interfaces and utmp, each
 * read once. issue-expand.c. */
struct issue_expand;

/* Does not take ownership of o or out, which must outlive it; out gets the expanded text. NULL: out of memory. */
struct issue_expand *issue_expand_create(const struct kf_issue_opts *o, struct issue_text *out);
/* Accepts NULL. */
void issue_expand_destroy(struct issue_expand *e);
/* Appends text (one file's, len bytes, NUL bytes allowed) with its escapes expanded to the build's text, up
 * to its max. */
void issue_expand(struct issue_expand *e, const char *text, size_t len);

#endif
