/* kf-fbset: fbset's one use in the tests (busybox has no fbset applet; built static by vmguest.py, installed as
 * /usr/bin/kf-fbset).
 *
 *   kf-fbset DEVICE W H
 *       FBIOPUT_VSCREENINFO of DEVICE (/dev/fbN) with a visible size of W x H, the rest of its mode as it is, as
 *       `fbset -xres W -yres H` typed in the console would; then prints the mode the driver reports,
 *       "WxH line BYTES". Exits 1 when the driver refuses it (said).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct fb_var_screeninfo v;
	struct fb_fix_screeninfo fix;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: kf-fbset DEVICE W H\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, FBIOGET_VSCREENINFO, &v) < 0) {
		fprintf(stderr, "kf-fbset: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	v.xres = (unsigned)strtoul(argv[2], NULL, 10);
	v.yres = (unsigned)strtoul(argv[3], NULL, 10);
	v.activate = FB_ACTIVATE_NOW;
	if (ioctl(fd, FBIOPUT_VSCREENINFO, &v) < 0) {
		fprintf(stderr, "kf-fbset: FBIOPUT_VSCREENINFO %ux%u: %s\n", v.xres, v.yres, strerror(errno));
		return 1;
	}
	if (ioctl(fd, FBIOGET_VSCREENINFO, &v) < 0 || ioctl(fd, FBIOGET_FSCREENINFO, &fix) < 0) {
		fprintf(stderr, "kf-fbset: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("%ux%u line %u\n", v.xres, v.yres, fix.line_length);
	close(fd);
	return 0;
}
