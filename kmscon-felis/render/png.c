/* kmscon-felis/render/png.c: PNG output for kmscon-felis-replay --png and the golden-image tests.
 */
#include <errno.h>
#include <png.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmscon-felis/render/render.h"

int kf_render_write_png(const char *path, const uint32_t *pixels, int width, int height, int stride)
{
	if (!path || !pixels || width <= 0 || height <= 0 || stride < width * 4)
		return -EINVAL;
	FILE *f = fopen(path, "wb");
	if (!f)
		return -errno;
	int ret = -EIO;
	uint8_t *line = malloc((size_t)width * 3);
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (!line || !png || !info) {
		ret = -ENOMEM;
		goto out;
	}
	if (setjmp(png_jmpbuf(png)))
		goto out;
	png_init_io(png, f);
	png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < height; y++) {
		const uint32_t *p =
		    (const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride);
		for (int x = 0; x < width; x++) {
			line[x * 3] = (uint8_t)(p[x] >> 16);
			line[x * 3 + 1] = (uint8_t)(p[x] >> 8);
			line[x * 3 + 2] = (uint8_t)p[x];
		}
		png_write_row(png, line);
	}
	png_write_end(png, NULL);
	ret = 0;
out:
	png_destroy_write_struct(&png, &info);
	free(line);
	/* A regular file cut short (a full disk) would be taken for the image: removed; a device is left alone.
	 * Reached through a symbolic link (/dev/stdout to a file is one), unlink would remove the link and leave
	 * the file cut short: the file is emptied instead. */
	if (fflush(f) && !ret)
		ret = -errno;
	struct stat st, lst;
	bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
	bool named = lstat(path, &lst) == 0 && S_ISREG(lst.st_mode) && lst.st_dev == st.st_dev &&
		     lst.st_ino == st.st_ino;
	if (ret && regular && !named && ftruncate(fileno(f), 0) != 0) {
		/* (nothing more to do: the write's own error is the one said) */
	}
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret && regular && named)
		unlink(path);
	return ret;
}
