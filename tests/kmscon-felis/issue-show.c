/* tests/kmscon-felis/issue-show.c: kf-issue-show [--root DIR] [--tty NAME] [PATH-LIST]: prints the issue text
 * kmscon-felis would show, raw (LF, not CR LF), as agetty --show-issue [-f PATH-LIST] does; \b is the speed of
 * standard input's terminal, as agetty's. For tests/kmscon-felis/issue-diff.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmscon-felis/issue.h"
#include "kmscon-felis/log.h"

int main(int argc, char **argv)
{
	struct kf_issue_opts o = {.tty = "tty1", .tty_fd = 0}; /* agetty --show-issue's \l is "tty1" */
	int i = 1;
	kf_log_init();
	for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
		if (!strcmp(argv[i], "--root"))
			o.root = argv[i + 1];
		else if (!strcmp(argv[i], "--tty"))
			o.tty = argv[i + 1];
		else
			break;
	}
	if (i < argc)
		o.path = argv[i];
	char *text;
	size_t len;
	if (kf_issue_build(&o, &text, &len) < 0)
		return 1;
	if (len && fwrite(text, 1, len, stdout) != len)
		return 1;
	free(text);
	return fflush(stdout) ? 1 : 0;
}
