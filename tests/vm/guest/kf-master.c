/* kf-master: holds a DRM card's master for a while, as another display server would (built static by vmlib.py,
 * /usr/bin/kf-master).
 *
 *   kf-master /dev/dri/cardN SECONDS READY-FILE
 *       Opens the card, becomes DRM master (DRM_IOCTL_SET_MASTER; a first opener is already), creates READY-FILE
 *       once master, sleeps SECONDS (fractions allowed) and exits, which lets master go. Prints "master" or the
 *       error; exit status 1 when the card cannot be opened or master is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* include/uapi/drm/drm.h: DRM_IOCTL_SET_MASTER, DRM_IO(0x1e) (no libdrm headers in the static build) */
#define KF_DRM_IOCTL_SET_MASTER _IO('d', 0x1e)

int main(int argc, char **argv)
{
	double secs;
	struct timespec ts;
	int fd, rf;

	if (argc != 4) {
		fprintf(stderr, "usage: kf-master /dev/dri/cardN SECONDS READY-FILE\n");
		return 2;
	}
	secs = atof(argv[2]);
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "kf-master: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (ioctl(fd, KF_DRM_IOCTL_SET_MASTER, 0) < 0) {
		fprintf(stderr, "kf-master: SET_MASTER: %s\n", strerror(errno));
		return 1;
	}
	printf("master\n");
	fflush(stdout);
	rf = open(argv[3], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (rf >= 0)
		close(rf);
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	close(fd);
	return 0;
}
