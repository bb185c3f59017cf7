/* kf-vtmode: a VT's modes, as a program that ran on it left them (built static by vmlib.py, /usr/bin/kf-vtmode).
 *
 *   kf-vtmode /dev/ttyN
 *       Prints one line "kd=text|graphics kb=raw|xlate|mediumraw|unicode|off switch=auto|process": the VT's
 *       display mode (KDGETMODE), keyboard mode (KDGKBMODE) and switch mode (VT_GETMODE). A console program
 *       that stops must leave "kd=text kb=<what it found> switch=auto", or the VT shows nothing and takes no
 *       keys (fbcon does not draw on a KD_GRAPHICS VT). Exit status 1 when an ioctl fails.
 */
#include <fcntl.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static const char *const kb_names[] = {"raw", "xlate", "mediumraw", "unicode", "off"};
	struct vt_mode vm;
	int fd, kd = -1, kb = -1;

	if (argc != 2) {
		fprintf(stderr, "usage: kf-vtmode /dev/ttyN\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(&vm, 0, sizeof(vm));
	if (ioctl(fd, KDGETMODE, &kd) < 0 || ioctl(fd, KDGKBMODE, &kb) < 0 || ioctl(fd, VT_GETMODE, &vm) < 0) {
		perror("ioctl");
		return 1;
	}
	printf("kd=%s kb=%s switch=%s\n", kd == KD_TEXT ? "text" : "graphics",
	       kb >= 0 && kb <= K_OFF ? kb_names[kb] : "?", vm.mode == VT_AUTO ? "auto" : "process");
	close(fd);
	return 0;
}
