/* tests/render/test-font-bounds.c: a PSF font file is input too (font-file=), and a gzip'ed one can unpack to
 * far more than it is: what is read of it is bounded (PSF_MAX_FILE, 8 MiB, font-bitmap.c; the largest real
 * console fonts are ~100 KiB), one past the bound is refused with an error, and the memory taken stays near
 * the bound. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

#include "kmscon-felis/render/render-internal.h"
#include "check.h"
#include "screen.h"

static char tmpdir[] = "/tmp/kf-font-bounds-XXXXXX";

static long peak_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* A file, gzip'ed or plain (mode "wb9" or "wbT"): a PSF2 header for count 8x16 glyphs (0: as many as fit),
 * then zeros, size bytes in all (unpacked). */
static void write_font(const char *path, const char *mode, size_t size, uint32_t count)
{
	static uint8_t chunk[1 << 16];
	const uint32_t hdr[8] = {0x864ab572u, 0, 32, 0, count ? count : (uint32_t)((size - 32) / 16), 16, 16, 8};
	gzFile f = gzopen(path, mode);
	CHECK(f != NULL);
	if (!f)
		return;
	gzwrite(f, hdr, sizeof(hdr));
	for (size_t left = size - sizeof(hdr); left;) {
		const size_t n = left < sizeof(chunk) ? left : sizeof(chunk);
		gzwrite(f, chunk, (unsigned)n);
		left -= n;
	}
	gzclose(f);
}

static void write_gz(const char *path, size_t size)
{
	write_font(path, "wb9", size, 0);
}

/* The last thing logged to stderr while loading path (the program's log goes there). */
static char logged[1024];

static int load(const char *path);

static int load_logged(const char *path)
{
	const int token = stderr_capture_begin();
	const int ret = load(path);
	stderr_capture_end(token, logged, sizeof(logged));
	return ret;
}

static int load(const char *path)
{
	struct kf_render *r = NULL;
	struct kf_render_config cfg = {.engine = KF_RENDER_ENGINE_PSF, .font_file = path};
	const int ret = kf_render_create(&cfg, &r);
	kf_render_destroy(r);
	return ret;
}

int main(void)
{
	if (!mkdtemp(tmpdir))
		return 1;
	char path[300];
	snprintf(path, sizeof(path), "%s/bomb.psf.gz", tmpdir);
	/* 256 MiB unpacked from ~256 KiB on disk: refused once 8 MiB are read, no more held */
	write_gz(path, 256u << 20);
	long before = peak_kb();
	int ret = load(path);
	long grew = peak_kb() - before;
	printf("gzip bomb (256 MiB unpacked): %s, peak grew %ld KiB\n", strerror(-ret), grew);
	CHECK(ret == -EFBIG);
	CHECK(grew < 16 * 1024);
	/* the error says that the unpacked content is too large, and the limit (the file itself is small) */
	CHECK(load_logged(path) == -EFBIG);
	printf("gzip bomb logged: %s", logged);
	CHECK(strstr(logged, "bomb.psf.gz: unpacks to more than 8 MiB") != NULL);
	/* one byte over the bound: refused; one below it is read (and its header, 524,286 glyphs, refused as
	 * no font) */
	write_gz(path, (8u << 20) + 1);
	CHECK(load(path) == -EFBIG);
	write_gz(path, (8u << 20) - 1);
	CHECK(load(path) == -EBADMSG);
	/* exactly 8 MiB, a valid font (65,536 glyphs, then padding the header does not count): loads, gzip'ed
	 * or not; one byte more is refused, and a plain file's error says the file is too large */
	write_font(path, "wb9", 8u << 20, 65536);
	ret = load(path);
	printf("exactly 8 MiB gzip'ed: %s\n", ret ? strerror(-ret) : "loaded");
	CHECK(ret == 0);
	char plain[300];
	snprintf(plain, sizeof(plain), "%s/big.psf", tmpdir);
	write_font(plain, "wbT", 8u << 20, 65536);
	ret = load(plain);
	printf("exactly 8 MiB plain: %s\n", ret ? strerror(-ret) : "loaded");
	CHECK(ret == 0);
	write_font(plain, "wbT", (8u << 20) + 1, 65536);
	CHECK(load_logged(plain) == -EFBIG);
	CHECK(strstr(logged, "big.psf: larger than 8 MiB") != NULL);
	unlink(plain);
	/* a large real font: 65,536 glyphs of 8x16 */
	write_gz(path, 32 + 65536 * 16);
	ret = load(path);
	printf("a font of 65,536 glyphs: %s\n", ret ? strerror(-ret) : "loaded");
	CHECK(ret == 0);
	unlink(path);
	rmdir(tmpdir);
	printf("font-bounds: %d failures\n", failures);
	return failures ? 1 : 0;
}
