/* notify-listen: a systemd notify socket for tests (built static by vmlib.py, /usr/bin/notify-listen).
 *
 *   notify-listen PATH
 *       Binds an AF_UNIX datagram socket at PATH (removed first if it exists) and prints every datagram it
 *       receives as one line "<CLOCK_MONOTONIC seconds> <message>", newlines in the message shown as " | ",
 *       flushing after each line. Runs until killed. Start it, then run the program with NOTIFY_SOCKET=PATH:
 *
 *           notify-listen /run/notify.sock >/tmp/notify.log &
 *           NOTIFY_SOCKET=/run/notify.sock kmscon-felis ... &
 *           (wait until /tmp/notify.log has READY=1)
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	static char buf[65536];
	int fd;

	if (argc != 2 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "usage: notify-listen PATH\n");
		return 2;
	}
	strcpy(addr.sun_path, argv[1]);
	unlink(argv[1]);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		perror("notify-listen");
		return 1;
	}
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);
		struct timespec ts;

		if (n < 0)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		printf("%lld.%06ld ", (long long)ts.tv_sec, ts.tv_nsec / 1000);
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n')
				fputs(i + 1 < n ? " | " : "", stdout);
			else
				putchar(buf[i]);
		}
		putchar('\n');
		fflush(stdout);
	}
}
